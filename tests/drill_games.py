"""Kept games for the drill's tests: random games, kept as records in the data directory,
most of them analysed with the tiny judge effort (as ``solstis analyze`` keeps them)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from solstis_tui import record_files
from solstis_tui.coach import analysis, store
from solstis_tui.core import Game
from solstis_tui.records import SeatRecord, record_of

DAY = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)


def keep_games(folder: Path, seeds: list[int], analysed: int, person: int = 0,
               other: str = "random", labelled: bool = False) -> list[Path]:
    """Keep one game a seed (the k-th played k days after ``DAY``), a person in seat
    ``person``; analyse the first ``analysed`` of them (``store.EFFORT`` must be
    tiny: the caller patches it). ``labelled``: instead of the judge, an analysis that
    calls every decision a mistake (every third a blunder), for the drill's order."""
    paths = []
    for k, seed in enumerate(seeds):
        game = Game.new(seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        seats = [SeatRecord("Random bot", other), SeatRecord("Random bot", other)]
        seats[person] = SeatRecord("You", "human")
        record = record_of(game, (seats[0], seats[1]), DAY + timedelta(days=k))
        path = record_files.keep(record, folder)
        if k < analysed:
            text = path.read_text(encoding="utf-8")
            replayed, names = store.load(text)
            found = all_mistakes(record) if labelled else \
                analysis.analyse(replayed, names, store.SEED, store.EFFORT)
            store.keep(path, text, found)
        paths.append(path)
    return paths


def all_mistakes(record) -> analysis.Analysis:
    """An analysis of ``record`` that labels every decision (made up, not judged)."""
    from solstis_tui.local.practice import points

    decisions = tuple(
        analysis.DecisionNote(p.turn, p.seat, p.played, p.played, 3.0 + p.index / 100, 0.1,
                              "blunder" if p.index % 3 == 0 else "mistake", "made up",
                              (analysis.TopMove(p.played, 0.0, 0.5),), (0.0, 0.0))
        for p in points(record))
    seat = analysis.SeatNote("x", 1.0, 0.0, dict.fromkeys(analysis.LABEL_NAMES, 0), 0)
    return analysis.Analysis((seat, seat), decisions)

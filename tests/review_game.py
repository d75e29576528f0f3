"""A finished game's record for the analysis board's tests: Ann (a person's seat, played
here by the greedy bot) against the random bot, dealt from a seed, and its tiny analysis."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache

from solstis_tui.ai.registry import make_bot
from solstis_tui.coach import analysis
from solstis_tui.core import Game, Options
from solstis_tui.records import GameRecord, SeatRecord, record_of

WHEN = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)


@cache
def finished_record(seed: int = 5, variant: str = "base",
                    kinds: tuple[str, str] = ("human", "random")) -> GameRecord:
    game = Game.new(seed=seed, options=Options.for_variant(variant))
    bots = [make_bot("greedy", 1), make_bot("random", 2)]
    while not game.is_over:
        game.play(bots[game.to_play].choose(game.observation(game.to_play)))
    names = ["Ann" if kind == "human" else f"{kind.title()} bot" for kind in kinds]
    return record_of(game, (SeatRecord(names[0], kinds[0]), SeatRecord(names[1], kinds[1])),
                     WHEN)


@cache
def tiny_analysis(record: GameRecord) -> analysis.Analysis:
    from solstis_tui.records import replay

    return analysis.analyse(replay(record), [s.name for s in record.seats],
                            effort=analysis.TINY)

"""Each tier's error rate by the judge, and whether the analysis' luck is unbiased.

    nice -n 5 .venv/bin/python benchmarks/error_rates.py --games 40 --seed 8081 \\
        --csv docs/error_rates.csv

For each tier (``--tiers``: random, greedy, minimax, mcts, plain ISMCTS at the mcts's time,
expert; each at its default budget) it plays ``--games`` base games against one fixed
opponent (``--opponent``, greedy at its default budget), every deal from both seats, with
the arena (``ai/arena.py``). Each game is kept as a game record in ``--records``; a game
whose record is there is not played again, so an interrupted run goes on where it stopped.
Then every game is analysed at the shipped judge effort (``solstis_tui.coach.analysis``), the
result cached beside its record as ``solstis analyze`` caches it (so that command prints it
at once), with the parts of each seat's expected result beside it (``*.parts.json``).

Printed per tier: decisions with a real choice judged, the error rate (the mean star loss a
decision, pooled over the tier's decisions) with a 95% interval from a bootstrap over games
(games are resampled whole, since one game's decisions are not independent), each label per
100 decisions, and the tier's score against the opponent. Then the luck check over every
analysed game: each seat's mean luck per game with a 95% t-interval over games (the
expectation is taken from the seat's own observation, so whatever its skill its luck should
average 0), and the game-level identity (first expected margin + own decisions + the other
seat's decisions + luck + the stretches without a chance event = the final margin, for each
seat of each game; docs/analysis.md). ``--csv`` writes the per-tier figures.

The expert searches on every core: its games are played one at a time (``--jobs`` is for
the others) and last. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from solstis_tui import engine_build
from solstis_tui.ai.arena import record_path, run, tasks_for
from solstis_tui.ai.judge import Verdict
from solstis_tui.coach import analysis, store
from solstis_tui.core import Game
from solstis_tui.files import write_atomic

TIERS = "random,greedy,minimax,mcts,plain-ismcts@0.5s,expert"
#: The greedy tier at its default budget (3 deals), spelled so that its games against the
#: greedy tier get record files of their own.
OPPONENT = "greedy@3"
#: Tiers whose search uses every core: their games are played one at a time.
ALL_CORES = frozenset({"expert"})
#: The parts of a seat's expected result through a game (``parts_of``).
PARTS = ("first", "own", "other", "luck", "quiet", "final")
COLUMNS = ("tier", "opponent", "games", "decisions", "error_rate", "error_low", "error_high",
           "inaccuracy_per_100", "mistake_per_100", "blunder_per_100", "score",
           "luck_mean", "luck_low", "luck_high", "opponent_error_rate",
           "opponent_luck_mean", "opponent_luck_low", "opponent_luck_high")


# ---------------------------------------------------------------------- statistics
def t_quantile(df: int) -> float:
    """The 97.5th percentile of Student's t with ``df`` degrees of freedom (exact to the
    third decimal: a table up to 10, a Cornish-Fisher expansion beyond)."""
    table = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228)
    if df < 1:
        raise ValueError("a t-interval needs at least two values")
    if df <= len(table):
        return table[df - 1]
    z = 1.959964
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def t_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean with its 95% t-interval (a point for one value)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = t_quantile(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def pooled_rate(games: Sequence[tuple[float, int]]) -> float:
    """Total loss over total decisions of ``games``, each (loss summed, decisions)."""
    decisions = sum(n for _, n in games)
    return sum(loss for loss, _ in games) / decisions if decisions else 0.0


def bootstrap_interval(games: Sequence[tuple[float, int]], resamples: int = 2000,
                       seed: int = 1) -> tuple[float, float, float]:
    """(pooled rate, low, high): the error rate of ``games`` (each (loss summed, decisions))
    with a 95% percentile interval from resampling whole games, deterministic for
    ``seed``."""
    rate = pooled_rate(games)
    if len(games) < 2:
        return rate, rate, rate
    rand = random.Random(seed)
    rates = sorted(pooled_rate(rand.choices(games, k=len(games))) for _ in range(resamples))
    return rate, rates[int(0.025 * resamples)], rates[min(resamples - 1, int(0.975 * resamples))]


# ---------------------------------------------------------------------- the parts
def parts_of(game: Game, points: Sequence[Any], verdicts: Sequence[Verdict],
             seat: int) -> dict[str, float]:
    """How ``seat``'s expected star margin went from the game's first judged decision to
    the final margin, in the analysis' own terms (``analysis._report``): ``first`` its
    expected result then; ``own`` and ``other`` what the decisions changed (the move
    played's value minus the position's, from the seat's observation); ``luck`` the
    stretches that hold a chance event (the analysis' luck); ``quiet`` the stretches that
    hold none; ``final`` the real final margin. ``points`` are the analysis' decisions
    (``seat``, ``played``, ``log_at``) and ``verdicts`` two for each (seat 0's, seat 1's)."""
    final = float(game.score(seat).total - game.score(1 - seat).total)
    out = dict.fromkeys(PARTS, 0.0)
    out["final"] = final
    if not points:
        out["quiet"] = final
        return out
    out["first"] = verdicts[seat].expected.margin
    for k, point in enumerate(points):
        judged = verdicts[2 * k + seat]
        before = analysis.stretch_start(judged, point.played).margin
        out["own" if point.seat == seat else "other"] += before - judged.expected.margin
        last = k + 1 == len(points)
        after = final if last else verdicts[2 * (k + 1) + seat].expected.margin
        end = len(game.log) if last else points[k + 1].log_at
        chance = any(isinstance(ev, analysis.CHANCE) for ev in game.log[point.log_at:end])
        luck, quiet = analysis.stretch(judged, before, after, chance)
        out["luck"] += luck
        out["quiet"] += quiet
    return out


def residual(parts: dict[str, float]) -> float:
    """How far the parts miss adding up to the final margin (0 when the identity holds)."""
    return sum(parts[k] for k in PARTS if k != "final") - parts["final"]


@contextmanager
def capturing() -> Iterator[dict[str, Any]]:
    """While open, each ``analysis.analyse`` call leaves its decisions and verdicts in the
    dictionary yielded (under "points" and "verdicts"); the analysis is unchanged."""
    seen: dict[str, Any] = {}
    original = analysis._report  # read only: analyse does not return its verdicts

    def report(game: Game, names: Sequence[str], points: list[Any],
               verdicts: list[Verdict]) -> analysis.Analysis:
        seen["points"], seen["verdicts"] = points, verdicts
        return original(game, names, points, verdicts)

    analysis._report = report
    try:
        yield seen
    finally:
        analysis._report = original


# ---------------------------------------------------------------------- playing, analysing
@dataclass(frozen=True)
class Judged:
    """One analysed game: which seat the tier held, the analysis' JSON, both seats'
    parts, and the tier's score (1 win, 0.5 draw, 0 loss)."""

    tier_seat: int
    data: dict[str, Any]
    parts: tuple[dict[str, float], dict[str, float]]
    score: float
    record: str = ""
    """The record's file name."""


def play(tier: str, opponent: str, games: int, seed: int, folder: Path, jobs: int,
         console: Console) -> list[Path]:
    """Play the tier's games that have no record yet; the paths of all its games' records."""
    tasks = list(tasks_for([tier, opponent], games, seed, "base", None, str(folder)))
    todo = [t for t in tasks if not record_path(t).exists()]
    if todo:
        load = os.getloadavg()[0]
        print(f"{tier}: {len(tasks) - len(todo)} games kept, {len(todo)} to play "
                      f"(load {load:.1f})", flush=True)
        started = time.perf_counter()
        _, interrupted = run(todo, 1 if tier.split("@")[0] in ALL_CORES else jobs, console)
        print(f"{tier}: played in {time.perf_counter() - started:.0f} s (load "
              f"{os.getloadavg()[0]:.1f})", flush=True)
        if interrupted:
            raise KeyboardInterrupt
    return [record_path(t) for t in tasks]


def parts_path(record: Path) -> Path:
    return record.with_name(record.name + ".parts.json")


def analysed(record: Path, tier: str, effort: analysis.Effort, workers: int) -> Judged | None:
    """The record's analysis (cached beside it as ``solstis analyze`` caches it), or None
    for a game that has no record (a forfeit)."""
    if not record.exists():
        return None
    text = record.read_text(encoding="utf-8")
    game, names = store.load(text)
    key = store.cache_key(text, effort)
    cached = store.kept(record, effort)
    parts: Any = None
    try:
        kept = json.loads(parts_path(record).read_text(encoding="utf-8"))
        if kept.get("key") == key:
            parts = kept["parts"]
    except (OSError, ValueError, AttributeError, KeyError):
        parts = None
    if cached is None or parts is None:
        with capturing() as seen:
            found = analysis.analyse(game, names, 0, effort, workers)
        store.keep(record, text, found, effort)
        data = analysis.to_json(found)
        parts = [parts_of(game, seen["points"], seen["verdicts"], s) for s in (0, 1)]
        write_atomic(parts_path(record), json.dumps({"key": key, "parts": parts}, indent=1))
    else:
        data = analysis.to_json(cached)
    tier_seat = 0 if names[0] == tier else 1
    winner = game.winner
    score = 0.5 if winner is None else float(winner == tier_seat)
    return Judged(tier_seat, data, (parts[0], parts[1]), score, record.name)


def _analysed_alone(job: tuple[Path, str, analysis.Effort]) -> tuple[Any, ...] | None:
    """``analysed`` on one process, as plain data (for a pool of games)."""
    found = analysed(*job, 1)
    return None if found is None else (found.tier_seat, found.data, found.parts, found.score,
                                       found.record)


def judged_games(paths: list[Path], effort: analysis.Effort, workers: int, tier: str,
                 console: Console) -> list[Judged]:
    """Every kept game of ``paths`` analysed, ``workers`` games at a time (each judged on
    one process: no pool to start for every game, no core idle at a game's end)."""
    out: list[Judged] = []
    started = time.perf_counter()
    jobs = [(path, tier, effort) for path in paths]
    pool: ProcessPoolExecutor | None = None
    results: Iterator[tuple[Any, ...] | None]
    if workers > 1 and len(jobs) > 1:
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        results = pool.map(_analysed_alone, jobs)
    else:
        results = map(_analysed_alone, jobs)
    try:
        for n, found in enumerate(results, 1):
            if found is not None:
                out.append(Judged(*found))
            if n % 10 == 0 or n == len(paths):
                print(f"{tier}: analysed {n}/{len(paths)} games "
                      f"({time.perf_counter() - started:.0f} s, load "
                      f"{os.getloadavg()[0]:.1f})", flush=True)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return out


# ---------------------------------------------------------------------- figures
def seat_losses(game: Judged, seat: int) -> tuple[float, int, dict[str, int]]:
    """(loss summed, decisions, label counts) of ``seat``'s decisions in ``game``."""
    loss, n = 0.0, 0
    labels = dict.fromkeys(analysis.LABEL_NAMES, 0)
    for note in game.data["decisions"]:
        if "event" in note or note["seat"] != seat:
            continue
        loss += note["loss_stars"]
        n += 1
        if note["label"]:
            labels[note["label"]] += 1
    return loss, n, labels


def row_of(tier: str, opponent: str, games: list[Judged]) -> dict[str, Any]:
    """The CSV row of one tier's analysed games."""
    mine = [seat_losses(g, g.tier_seat) for g in games]
    theirs = [seat_losses(g, 1 - g.tier_seat) for g in games]
    rate, low, high = bootstrap_interval([(loss, n) for loss, n, _ in mine])
    decisions = sum(n for _, n, _ in mine)
    luck = t_interval([g.parts[g.tier_seat]["luck"] for g in games])
    their_luck = t_interval([g.parts[1 - g.tier_seat]["luck"] for g in games])
    row: dict[str, Any] = {
        "tier": tier, "opponent": opponent, "games": len(games), "decisions": decisions,
        "error_rate": rate, "error_low": low, "error_high": high,
        "score": statistics.fmean(g.score for g in games),
        "luck_mean": luck[0], "luck_low": luck[1], "luck_high": luck[2],
        "opponent_error_rate": pooled_rate([(loss, n) for loss, n, _ in theirs]),
        "opponent_luck_mean": their_luck[0], "opponent_luck_low": their_luck[1],
        "opponent_luck_high": their_luck[2],
    }
    for name in analysis.LABEL_NAMES:
        count = sum(labels[name] for _, _, labels in mine)
        row[f"{name}_per_100"] = 100 * count / decisions if decisions else 0.0
    return row


def game_rows(tier: str, games: list[Judged]) -> list[dict[str, Any]]:
    """One row a game (``GAME_COLUMNS``): every figure above can be recomputed from them."""
    rows = []
    for g in games:
        row: dict[str, Any] = {"tier": tier, "record": g.record, "tier_seat": g.tier_seat + 1,
                               "score": g.score}
        for prefix, opponent in (("tier", False), ("opponent", True)):
            seat = 1 - g.tier_seat if opponent else g.tier_seat
            loss, n, labels = seat_losses(g, seat)
            row |= {f"{prefix}_decisions": n, f"{prefix}_loss": loss}
            row |= {f"{prefix}_{name}": labels[name] for name in analysis.LABEL_NAMES}
            row |= {f"{prefix}_{part}": role(g, opponent)[part] for part in PARTS}
        rows.append(row)
    return rows


GAME_COLUMNS = ("tier", "record", "tier_seat", "score", *(
    f"{prefix}_{name}" for prefix in ("tier", "opponent")
    for name in ("decisions", "loss", *analysis.LABEL_NAMES, *PARTS)))


def csv_text(rows: Sequence[dict[str, Any]], columns: Sequence[str] = COLUMNS) -> str:
    """The rows as CSV under a header line of ``columns``, figures rounded to 3 decimals."""
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: round(v, 3) if isinstance(v, float) else v
                         for k, v in row.items()})
    return out.getvalue()


def print_rows(rows: Sequence[dict[str, Any]], say: Callable[[str], None]) -> None:
    say("tier                 games decisions  error rate [95% CI]      inacc/100 "
        "mist/100 blund/100  score  opp. error rate")
    for r in rows:
        say(f"{r['tier']:<20} {r['games']:>5} {r['decisions']:>9}  "
            f"{r['error_rate']:.3f}★ [{r['error_low']:.3f}, {r['error_high']:.3f}]  "
            f"{r['inaccuracy_per_100']:>8.1f} {r['mistake_per_100']:>8.1f} "
            f"{r['blunder_per_100']:>9.1f}  {100 * r['score']:>4.0f}%  "
            f"{r['opponent_error_rate']:.3f}★")


def role(game: Judged, opponent: bool) -> dict[str, float]:
    """The parts of the tier's seat in ``game``, or with ``opponent`` the opponent's."""
    return game.parts[1 - game.tier_seat if opponent else game.tier_seat]


def luck_split(game: Judged, seat: int) -> tuple[float, float]:
    """``seat``'s luck in ``game`` in two: (the stretches after its own move, those after the
    other seat's), read from the analysis' notes (a chance note follows its move's)."""
    mover: int | None = None
    split = [0.0, 0.0]
    for note in game.data["decisions"]:
        if "event" not in note:
            mover = note["seat"]
        else:
            split[mover != seat] += note["luck"][seat]
    return split[0], split[1]


def luck_line(label: str, values: Sequence[float]) -> str:
    m, lo, hi = t_interval(values)
    verdict = "holds 0" if lo <= 0 <= hi else "MISSES 0"
    return f"  {label:<38} {m:+6.2f} [{lo:+6.2f}, {hi:+6.2f}]  {verdict}"


def print_luck(by_tier: dict[str, list[Judged]], say: Callable[[str], None]) -> None:
    """The luck check: each seat's mean luck per game with its t-interval, by tier and over
    all games; then the identity and the mean parts."""
    every = [g for games in by_tier.values() for g in games]
    if not every:
        return
    say("luck per game, stars: mean [95% t-interval over games] (unbiased: holds 0)")
    for tier, games in by_tier.items():
        for opponent, label in ((False, "tier's seat"), (True, "opponent's seat")):
            if games:
                say(luck_line(f"{tier}, {label}", [role(g, opponent)["luck"] for g in games]))
    say(luck_line(f"all {len(every)} games, the tiers' seats",
                  [role(g, False)["luck"] for g in every]))
    say(luck_line(f"all {len(every)} games, the opponent's seats",
                  [role(g, True)["luck"] for g in every]))
    for seat in (0, 1):
        say(luck_line(f"all {len(every)} games, seat {seat + 1}",
                      [g.parts[seat]["luck"] for g in every]))
    # The draw gives one seat's stars to the other: the two seats' luck should sum to 0.
    say(luck_line(f"all {len(every)} games, both seats summed",
                  [g.parts[0]["luck"] + g.parts[1]["luck"] for g in every]))
    for seat in (0, 1):
        for part, label in ((0, "after its own moves"), (1, "after the other's")):
            say(luck_line(f"all {len(every)} games, seat {seat + 1} {label}",
                          [luck_split(g, seat)[part] for g in every]))
    worst = max(abs(residual(p)) for g in every for p in g.parts)
    mismatch = max(abs(p["luck"] - s["luck"]) for g in every
                   for p, s in zip(g.parts, g.data["seats"], strict=True))
    say(f"identity (first + own + other + luck + quiet = final) over {2 * len(every)} seats "
        f"of {len(every)} games: largest miss {worst:.1e}★; the parts' luck against the "
        f"analysis' luck: largest difference {mismatch:.3f}★ (it rounds)")
    say("mean parts per game, stars:")
    for tier, games in by_tier.items():
        if not games:
            continue
        for opponent, label in ((False, "tier"), (True, "opponent")):
            means = {k: statistics.fmean(role(g, opponent)[k] for g in games) for k in PARTS}
            say(f"  {tier:<18} {label:<9}" + "".join(f" {k} {means[k]:+6.2f}" for k in PARTS))
        own = statistics.fmean(role(g, True)["own"] for g in games)
        seen = statistics.fmean(role(g, False)["other"] for g in games)
        say(f"  {tier:<18} the opponent's decisions: {own:+.2f}★ by its own view, "
            f"{seen:+.2f}★ by the tier's")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiers", default=TIERS)
    parser.add_argument("--opponent", default=OPPONENT)
    parser.add_argument("--games", type=int, default=40, help="games a tier (even)")
    parser.add_argument("--seed", type=int, default=8081)
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    parser.add_argument("--workers", type=int, default=2,
                        help="games analysed at once, each on a process of its own")
    parser.add_argument("--records", default="benchmarks/records/error_rates")
    parser.add_argument("--csv", help="write the per-tier figures here")
    parser.add_argument("--games-csv", help="write one line a game here (each seat's "
                        "decisions, loss, labels and parts)")
    parser.add_argument("--no-play", action="store_true",
                        help="only analyse the records already kept")
    parser.add_argument("--tiny", action="store_true",
                        help="a tiny judge effort (a smoke test; the figures mean nothing)")
    args = parser.parse_args(argv)
    console = Console()

    def say(text: str) -> None:
        print(text, flush=True)

    effort = analysis.TINY if args.tiny else store.EFFORT
    say(f"Engine: {engine_build.STATUS.line}")
    say(f"opponent {args.opponent}, seed {args.seed}, {args.games} games a tier, base game, "
        f"judge {effort}, {args.workers} games analysed at once, {os.cpu_count()} cores")
    folder = Path(args.records)
    folder.mkdir(parents=True, exist_ok=True)
    by_tier: dict[str, list[Judged]] = {}
    rows: list[dict[str, Any]] = []
    try:
        for tier in args.tiers.split(","):
            if args.no_play:
                tasks = tasks_for([tier, args.opponent], args.games, args.seed, "base", None,
                                  str(folder))
                paths = [record_path(t) for t in tasks]
            else:
                paths = play(tier, args.opponent, args.games, args.seed, folder, args.jobs,
                             console)
            games = judged_games(paths, effort, args.workers, tier, console)
            by_tier[tier] = games
            if games:
                rows.append(row_of(tier, args.opponent, games))
                if args.csv:
                    write_atomic(args.csv, csv_text(rows))
                if args.games_csv:
                    every = [r for t, g in by_tier.items() for r in game_rows(t, g)]
                    write_atomic(args.games_csv, csv_text(every, GAME_COLUMNS))
            print_rows(rows, say)
    except KeyboardInterrupt:
        say("Interrupted: the games and analyses so far are kept.")
        return 130
    print_luck(by_tier, say)
    for path in (args.csv, args.games_csv):
        if path:
            say(f"Figures written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

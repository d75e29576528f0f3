"""How long a hint's judgement takes on one core, at a few judge efforts; and the reasons;
and how quickly keys reach the screen while a hint is judged.

    .venv/bin/python benchmarks/hint_judge.py --positions 12 [--keys 20]

Positions: every few decisions with a real choice of seeded greedy games, in the three
variants, the deciding seat's observation. Each effort (iterations, floor, close floor;
ai/judge.py) judges every position once; the table prints the seconds per judgement
(median, 95th percentile, largest) and the time ``reasons.explain`` adds. The hint's
effort (``solstis_tui.coach.hints.HINT_EFFORT``) was chosen from this: answers within about
a second on one core of the compiled engine.

``--keys N`` runs the app in a pseudo-terminal (80x24, benchmarks/app_startup.py's harness;
Linux) against the random bot, the person to play, and N times presses ``t`` (a hint, judged
in the hint process at the shipped effort) and 50 ms later ``v`` (the log screen): the time
from ``v`` to the log on screen, while the hint is judged; then the same without the hint.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from solstis_tui import engine_build
from solstis_tui.ai.arena_stats import percentile
from solstis_tui.ai.judge import judge
from solstis_tui.ai.registry import make_bot
from solstis_tui.core import Game, Observation, Options

EFFORTS = ((400, 12, 200), (1000, 20, 400), (2000, 30, 1000), (3000, 30, 1500),
           (4000, 30, 2000), (6000, 40, 3000))
VARIANTS = {"base": Options(), "beginner": Options(beginner=True),
            "firefly": Options(firefly=True)}


def positions(count: int) -> list[Observation]:
    out: list[Observation] = []
    seed = 0
    while len(out) < count:
        seed += 1
        for options in VARIANTS.values():
            g = Game.new(seed=seed, options=options)
            bot = make_bot("greedy", seed)
            k = 0
            while not g.is_over and len(out) < count:
                if len(g.legal) > 1:
                    k += 1
                    if k % 7 == 3:
                        out.append(g.observation(g.to_play))
                g.play(bot.choose(g.observation(g.to_play)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--keys", type=int, default=0, help="key presses to time")
    parser.add_argument("--efforts", action=argparse.BooleanOptionalAction, default=True,
                        help="time the judge's efforts (--no-efforts: keys only)")
    parser.add_argument("--no-reasons", action="store_true",
                        help="time the judge only (e.g. on a build without the reasons)")
    args = parser.parse_args()
    console = Console()
    console.print(f"engine: {engine_build.STATUS.line}")
    found = positions(args.positions) if args.efforts else []
    table = Table(title=f"a hint's judgement, {len(found)} positions, one core")
    for column in ("iterations", "floor", "close floor", "median s", "p95 s", "max s",
                   "reasons median s"):
        table.add_column(column, justify="right")
    for iterations, floor, close in EFFORTS if args.efforts else ():
        took: list[float] = []
        words: list[float] = []
        for k, obs in enumerate(found):
            start = time.perf_counter()
            verdict = judge(obs, k, iterations, floor, None, close)
            took.append(time.perf_counter() - start)
            if args.no_reasons:
                continue
            from solstis_tui.coach.reasons import explain

            start = time.perf_counter()
            second = verdict.moves[1].move if len(verdict.moves) > 1 else verdict.best.move
            explain(obs, second, verdict.best.move, ("You", "Expert"))
            words.append(time.perf_counter() - start)
        table.add_row(str(iterations), str(floor), str(close),
                      f"{percentile(sorted(took), 50):.2f}", f"{percentile(sorted(took), 95):.2f}",
                      f"{max(took):.2f}", f"{percentile(sorted(words), 50):.3f}")
    console.print(table)
    if args.keys:
        for label, first in (("while a hint is judged", b"t"), ("no hint", b"")):
            took = key_times(args.keys, first)
            console.print(f"key 'v' to the log screen, {label}: p50 "
                          f"{percentile(took, 50) * 1000:.0f} ms, p95 "
                          f"{percentile(took, 95) * 1000:.0f} ms, max {took[-1] * 1000:.0f} ms "
                          f"(n={len(took)})")


def key_times(presses: int, first: bytes) -> list[float]:
    """Seconds from 'v' to the log screen, ``first`` pressed 50 ms before each 'v'."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from app_startup import Term  # this folder's script

    term = Term(["--seed", "3", "--opponent", "random", "--first", "you", "--pace", "0"])
    term.wait_for(b"Display")
    term.drain(1.0)
    took = []
    for _ in range(presses):
        if first:
            term.send(first)
            term.drain(0.05)
        term.send(b"v")
        took.append(term.wait_for(b"Game log"))
        term.drain(0.15)
        term.send(b"\x1b")
        term.drain(0.35)
    term.close()
    return sorted(took)


if __name__ == "__main__":
    main()

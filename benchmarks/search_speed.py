"""Search speed: microseconds per iteration of each search bot, on one core.

    .venv/bin/python benchmarks/search_speed.py --positions 20 --iterations 600 --runs 3

The positions are decisions with a real choice from heuristic self-play (``--seed``),
spread over whole games (as ``bot_agreement.py`` samples them). Each search runs a fixed
number of iterations from a fresh tree; the figure per position is the best of ``--runs``
timings (this machine's speed drifts), and the table shows the median and the quartiles
over the positions, with the iterations that fit in 0.25 s at the median speed.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot_agreement import sample_positions  # this folder's script, on sys.path when run
from rich.console import Console
from rich.table import Table

from solstis_tui.ai.base import Budget
from solstis_tui.ai.registry import make_bot
from solstis_tui.core import Observation

BOTS = ("mcts", "plain-ismcts")


def microseconds_per_iteration(spec: str, obs: Observation, iterations: int,
                               runs: int) -> float:
    """The best of ``runs`` timings of one search of ``iterations`` iterations."""
    best = float("inf")
    for run in range(runs):
        bot = make_bot(spec, run)
        start = time.perf_counter()
        bot.choose(obs, Budget(iterations=iterations))
        best = min(best, time.perf_counter() - start)
    return best / iterations * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=600)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--variant", choices=("base", "beginner", "firefly"), default="base")
    args = parser.parse_args()
    positions = [g.observation(g.to_play)
                 for g in sample_positions(args.positions, args.seed, args.variant)]
    table = Table(title=f"{len(positions)} {args.variant} positions, {args.iterations} "
                        f"iterations each, best of {args.runs}")
    for column in ("bot", "µs per iteration", "quartiles", "iterations in 0.25 s"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for spec in BOTS:
        times = [microseconds_per_iteration(spec, obs, args.iterations, args.runs)
                 for obs in positions]
        low, median, high = statistics.quantiles(times, n=4)
        table.add_row(spec, f"{median:.0f}", f"{low:.0f}–{high:.0f}",
                      f"{0.25e6 / median:.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()

"""Search speed: microseconds per iteration of each search bot, on one core.

    .venv/bin/python benchmarks/search_speed.py --positions 20 --iterations 600 --runs 3

The positions are decisions with a real choice from heuristic self-play (``--seed``),
spread over whole games. Each search runs a fixed number of iterations from a fresh tree;
the figure per position is the best of ``--runs`` timings (this machine's speed drifts),
and the table shows the median and the quartiles over the positions, with the iterations
that fit in 0.25 s at the median speed. It measures the engine this process runs
(``solstis --version`` names it; ``SOLSTIS_PURE=1`` for pure Python); build_speed.py puts
the two side by side.

``--split`` then shows where plain ISMCTS's time goes, summed over the same positions: the
random playouts (its evaluator), the walk down the tree (its tree policy, with the moves it
plays), and the rest (dealing the hidden tiles and spirits, counting results).
"""

from __future__ import annotations

import argparse
import statistics
import time

from positions import sample_positions  # this folder's module, on sys.path when run
from rich.console import Console
from rich.table import Table

from solstis_tui import engine_build
from solstis_tui.ai.base import Budget, Stopwatch
from solstis_tui.ai.registry import make_bot
from solstis_tui.ai.search import Evaluator, Node, RandomToEnd, RandomUCB, Search, TreePolicy
from solstis_tui.core import Game, Observation

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


class TimedTree:
    """A tree policy that adds up the seconds the one it wraps spends."""

    def __init__(self, part: TreePolicy) -> None:
        self.part, self.seconds = part, 0.0

    def descend(self, search: Search, g: Game, path: list[Node]) -> None:
        start = time.perf_counter()
        self.part.descend(search, g, path)
        self.seconds += time.perf_counter() - start


class TimedEvaluator:
    """An evaluator that adds up the seconds the one it wraps spends."""

    def __init__(self, part: Evaluator) -> None:
        self.part, self.seconds = part, 0.0

    def judge(self, search: Search, g: Game) -> tuple[float, float, float]:
        start = time.perf_counter()
        try:
            return self.part.judge(search, g)
        finally:
            self.seconds += time.perf_counter() - start


def plain_search(obs: Observation, seed: int, tree: TimedTree,
                 evaluator: TimedEvaluator, iterations: int) -> Search:
    """Plain ISMCTS's search of ``obs`` with timed parts (the bot's own, wrapped)."""
    import random

    search = Search(obs, random.Random(seed), tree, evaluator)
    search.run(Stopwatch(Budget(iterations=iterations), Budget(), None))
    return search


def plain_split(positions: list[Observation], iterations: int) -> dict[str, float]:
    """Seconds plain ISMCTS spends in playouts, in its tree and on the rest, summed over
    one search of ``iterations`` iterations at each position."""
    tree, evaluator = TimedTree(RandomUCB()), TimedEvaluator(RandomToEnd())
    total = 0.0
    for i, obs in enumerate(positions):
        start = time.perf_counter()
        plain_search(obs, i, tree, evaluator, iterations)
        total += time.perf_counter() - start
    rest = total - tree.seconds - evaluator.seconds
    return {"random playouts": evaluator.seconds, "tree": tree.seconds,
            "dealing and the rest": rest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=600)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--variant", choices=("base", "beginner", "firefly"), default="base")
    parser.add_argument("--split", action="store_true",
                        help="also show where plain ISMCTS's time goes")
    args = parser.parse_args()
    positions = [g.observation(g.to_play)
                 for g in sample_positions(args.positions, args.seed, args.variant)]
    table = Table(title=f"{len(positions)} {args.variant} positions, {args.iterations} "
                        f"iterations each, best of {args.runs}, "
                        f"{engine_build.STATUS.line}")
    for column in ("bot", "µs per iteration", "quartiles", "iterations in 0.25 s"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for spec in BOTS:
        times = [microseconds_per_iteration(spec, obs, args.iterations, args.runs)
                 for obs in positions]
        low, median, high = statistics.quantiles(times, n=4)
        table.add_row(spec, f"{median:.0f}", f"{low:.0f}–{high:.0f}",
                      f"{0.25e6 / median:.0f}")
    Console().print(table)
    if args.split:
        split = plain_split(positions, args.iterations)
        total = sum(split.values())
        shares = Table(title=f"plain ISMCTS's time over the same searches ({total:.1f} s)")
        shares.add_column("part")
        shares.add_column("share", justify="right")
        for part, seconds in split.items():
            shares.add_row(part, f"{seconds / total:.0%}")
        Console().print(shares)


if __name__ == "__main__":
    main()

"""Bot regret: how much win chance each bot's choice gives away, judged by a long search.

    PYTHONPATH=research:benchmarks .venv/bin/python research/bot_regret.py \\
        --bots mcts,plain-ismcts --positions 300 --time 0.25 --reference-iterations 1000 --jobs 2

The positions are decisions with a real choice from heuristic self-play (``--seed``, sampled
as ``bot_agreement.py`` samples them: benchmarks/positions.py). The judge is plain ISMCTS
giving every legal move of a position the same number of iterations (``move_values``): a win
chance per move. Each bot then chooses at every position with ``--time`` seconds (or
``--iterations``; a spec such as ``mcts@1s`` brings its own budget), ``--repeats`` times
with different seeds; its regret at a position is the judge's best value minus the value of
its choice, in points of win chance. Prints each bot's mean regret with a 95% interval, how
often it chose the judge's favourite, the same per kind of decision (named by the kind of
the position's first legal move: "draw" for an encounter with spirits left to draw), and
each bot's paired difference from the first; a position's repeats are averaged first.

Games between two bots carry the luck of the deal and the seat, so 100 of them cannot tell
a few points apart; on fixed positions that luck is gone and the judge's own noise is the
same for every bot. The judge is plain ISMCTS's opinion, not the truth: a bot is measured
by how well it agrees with a long knowledge-free search. The judge's values are kept in
``--cache`` (a JSON file keyed by the positions' seed, variant and iterations), so a set of
positions is judged once.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import threading
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

from solstis_tui.ai.arena_stats import mean_ci
from solstis_tui.ai.base import Budget
from solstis_tui.ai.baselines import EXPLORATION
from solstis_tui.ai.registry import make_bot
from solstis_tui.ai.search import Node, RandomToEnd, RandomUCB, Search
from solstis_tui.core import Dealer, Game, Move, Observation

from positions import sample_positions


def move_values(obs: Observation, iterations_per_move: int, rand: random.Random,
                cancel: threading.Event | None = None) -> dict[Move, float]:
    """Each legal move's mean result for ``obs.player`` in [0, 1] (a draw counts half),
    from ``iterations_per_move`` iterations of plain ISMCTS that start with it: the
    root's moves take turns, each a fresh deal with the move played first, and below it
    the search goes on as plain ISMCTS's does (``RandomUCB``, ``RandomToEnd``, one tree
    per move). Every move is judged as thoroughly as every other, so the values can judge
    another bot's choice. A set ``cancel`` stops it after the current round of moves
    (before the first one: every move 0.5). (This was ``PlainISMCTS.move_values``; it
    draws the same random numbers, so ``random.Random(seed)`` gives the values that
    ``PlainISMCTS(seed)`` gave.)"""
    me = obs.player
    dealer = Dealer(obs, quiet=True)
    tree, leaves = RandomUCB(EXPLORATION), RandomToEnd()
    # One search per root move, whose root is that move's node: the tree policy walks on
    # from it, in the world where the move has been played.
    searches = [Search(obs, rand, tree, leaves, root=Node(me, mv), dealer=dealer)
                for mv in obs.legal_moves]
    for _ in range(iterations_per_move):
        if cancel is not None and cancel.is_set():
            break
        for mv, search in zip(obs.legal_moves, searches, strict=True):
            g = dealer.deal(rand)
            g.play(mv)
            path = [search.root]
            tree.descend(search, g, path)
            r0, r1, _ = leaves.judge(search, g)
            for node in path:
                node.n += 1
                node.w += r0 if node.player == 0 else r1
    return {mv: (1.0 + s.root.w / s.root.n) / 2 if s.root.n else 0.5
            for mv, s in zip(obs.legal_moves, searches, strict=True)}


def judge(task: tuple[Observation, int, int]) -> dict[str, float]:
    """The judge's win chance of each legal move (keyed by move text) at one position (its
    mover's observation: a game does not pickle, an observation does)."""
    obs, iterations, seed = task
    values = move_values(obs, iterations, random.Random(seed))
    return {str(mv): v for mv, v in values.items()}


def choice(task: tuple[str, Observation, Budget | None, int]) -> str:
    """One bot's move at one position, as text."""
    spec, obs, budget, seed = task
    return str(make_bot(spec, seed).choose(obs, budget))


def refuse_stale_cache(positions: list[Game], known: list[dict[str, float]]) -> None:
    """Refuse judge values that belong to other positions (a cache made by other code)."""
    for g, values in zip(positions, known, strict=False):
        if set(values) != {str(mv) for mv in g.legal_moves()}:
            raise SystemExit("the cached judge values do not fit these positions (made by "
                             "other code?): delete the cache file and run again")


def mean_interval(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (``arena_stats.mean_ci``)."""
    mean, (low, _) = mean_ci(xs)
    return mean, mean - low


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="mcts,plain-ismcts", help="comma-separated specs")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--time", type=float, default=0.25, help="seconds a decision")
    parser.add_argument("--iterations", type=int, help="iterations a decision instead")
    parser.add_argument("--repeats", type=int, default=1, help="choices per bot and position")
    parser.add_argument("--reference-iterations", type=int, default=1000,
                        help="the judge's iterations per legal move")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--variant", default="base", choices=("base", "beginner", "firefly"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache", default="bot_regret_cache.json",
                        help="where the judge's values are kept")
    args = parser.parse_args(argv)
    console = Console()
    if not console.is_terminal:  # piped: the whole table, not 80 columns of it
        console = Console(width=160)
    positions = sample_positions(args.positions, args.seed, args.variant)
    key = f"{args.variant}:{args.seed}:{args.reference_iterations}"
    cache_file = Path(args.cache)
    cache = json.loads(cache_file.read_text()) if cache_file.exists() else {}
    known: list[dict[str, float]] = cache.get(key, [])
    refuse_stale_cache(positions, known)
    with ProcessPoolExecutor(args.jobs) as pool:
        missing = [(g.observation(g.to_play), args.reference_iterations, 1_000 + i)
                   for i, g in enumerate(positions) if i >= len(known)]
        if missing:
            console.print(f"judging {len(missing)} positions ...")
            known = [*known, *pool.map(judge, missing)]
            cache[key] = known
            cache_file.write_text(json.dumps(cache))
        budget = Budget(iterations=args.iterations) if args.iterations else Budget(
            seconds=args.time)
        specs = [s.strip() for s in args.bots.split(",")]
        # Per bot and position: the mean regret and favourite share over the repeats, so
        # that the intervals are over positions, not over correlated choices.
        regrets: dict[str, list[float]] = {}
        by_kind: dict[tuple[str, str], list[float]] = defaultdict(list)
        top: dict[str, list[float]] = {}
        for spec in specs:
            own = None if "@" in spec else budget  # "mcts@1s" brings its own budget
            tasks = [(spec, g.observation(g.to_play), own, r * len(positions) + i)
                     for i, g in enumerate(positions) for r in range(args.repeats)]
            console.print(f"{spec}: {len(tasks)} choices ...")
            chosen = iter(pool.map(choice, tasks))
            regrets[spec], top[spec] = [], []
            for g, values in zip(positions, known, strict=True):
                best = max(values.values())
                picks = [values[next(chosen)] for _ in range(args.repeats)]
                regret = statistics.fmean(100 * (best - v) for v in picks)
                regrets[spec].append(regret)
                top[spec].append(statistics.fmean(100.0 * (v == best) for v in picks))
                by_kind[(spec, g.legal_moves()[0].kind.name.lower())].append(regret)
    table = Table(title=f"Regret against plain ISMCTS judging every move with "
                  f"{args.reference_iterations} iterations; {len(positions)} positions, "
                  f"{args.variant}, seed {args.seed}; bots at "
                  f"{f'{args.iterations} iterations' if args.iterations else f'{args.time} s'}"
                  f", {args.repeats} choice(s) each")
    kinds = sorted({k for _, k in by_kind}, key=lambda k: -len(by_kind[(specs[0], k)]))
    for col in ("bot", "regret (points)", "judge's favourite", f"vs {specs[0]}", *kinds):
        table.add_column(col, justify="right")
    for spec in specs:
        mean, half = mean_interval(regrets[spec])
        diff = [a - b for a, b in zip(regrets[spec], regrets[specs[0]], strict=True)]
        dmean, dhalf = mean_interval(diff)
        table.add_row(spec, f"{mean:.2f} ± {half:.2f}", f"{statistics.fmean(top[spec]):.0f}%",
                      "—" if spec == specs[0] else f"{dmean:+.2f} ± {dhalf:.2f}",
                      *(f"{statistics.fmean(by_kind[(spec, k)]):.2f}" for k in kinds))
    table.add_row("positions", "", "", "", *(str(len(by_kind[(specs[0], k)])) for k in kinds))
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

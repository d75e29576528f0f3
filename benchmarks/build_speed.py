"""The compiled engine against the pure-Python one, in the same run, as ratios.

    .venv/bin/python benchmarks/build_speed.py --rounds 5 --games 3000 --iterations 1000

Each round runs every figure once in a fresh interpreter per build, alternating between the
builds (``SOLSTIS_PURE=1`` for pure Python), so that drift of this machine's speed hits both
alike. Figures, all on one core:

- random full games per second, base game and Firefly: dealt, then played to the end with
  uniformly random legal moves by the searches' playout loop (compiled in the compiled
  build), and for the base game once more by a loop in this script, which drives the
  engine from Python one move at a time (as the app does);
- plain ISMCTS and mcts iterations per second over the same decisions (``--positions``
  positions of heuristic self-play, ``--iterations`` each, a fresh tree per decision).

It prints each build's median over the rounds and the median of the per-round ratios.
It needs the compiled build installed (``pip install -e .`` with a C compiler).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
FIGURES = ("random games/s, base", "random games/s, Firefly",
           "random games/s, base, moves chosen in Python",
           "plain ISMCTS iterations/s", "mcts iterations/s")


def random_games_per_second(variant: str, games: int, from_python: bool = False,
                            first_seed: int = 0) -> float:
    """Games dealt (``Game.new``) and played to the end with uniformly random moves by the
    searches' own playout loop (``search.random_playout``), or by a loop in this script.
    Each figure plays its own deals (``first_seed`` on), so none finds the scores of the
    games before it remembered."""
    import random

    from solstis_tui.ai.search import random_playout
    from solstis_tui.core import Game, Options

    options = Options.for_variant(variant)
    rand = random.Random(first_seed)
    start = time.perf_counter()
    for i in range(games):
        game = Game.new(seed=first_seed + i, options=options)
        if not from_python:
            random_playout(game, rand)
        while not game.is_over:
            legal = game.legal
            game.play(legal[int(rand.random() * len(legal))])
    return games / (time.perf_counter() - start)


def iterations_per_second(spec: str, positions: int, iterations: int) -> float:
    from positions import sample_positions

    from solstis_tui.ai.base import Budget
    from solstis_tui.ai.registry import make_bot

    observations = [g.observation(g.to_play) for g in sample_positions(positions, 3, "base")]
    start = time.perf_counter()
    for i, obs in enumerate(observations):
        make_bot(spec, i).choose(obs, Budget(iterations=iterations))
    return positions * iterations / (time.perf_counter() - start)


def probe(args: argparse.Namespace) -> dict[str, float | str]:
    """Every figure once, in this process (run by ``measure`` in a fresh interpreter)."""
    sys.path.insert(0, str(HERE))
    from solstis_tui import engine_build

    random_games_per_second("base", 50, first_seed=9_000_000)  # load and warm up first
    return {
        "engine": engine_build.STATUS.line,
        FIGURES[0]: random_games_per_second("base", args.games, first_seed=1_000_000),
        FIGURES[1]: random_games_per_second("firefly", args.games, first_seed=2_000_000),
        FIGURES[2]: random_games_per_second("base", args.games, from_python=True,
                                            first_seed=3_000_000),
        FIGURES[3]: iterations_per_second("plain-ismcts", args.positions, args.iterations),
        FIGURES[4]: iterations_per_second("mcts", args.positions, args.iterations),
    }


def measure(pure: bool, argv: list[str]) -> dict[str, float | str]:
    """One round of figures in a fresh interpreter running the chosen build."""
    env = {**os.environ, "SOLSTIS_PURE": "1" if pure else "0"}
    out = subprocess.run([sys.executable, __file__, "--probe", *argv], env=env, check=True,
                         capture_output=True, text=True).stdout
    figures: dict[str, float | str] = json.loads(out.splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=3000, help="random games per figure")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        print(json.dumps(probe(args)))
        return
    argv = ["--games", str(args.games), "--positions", str(args.positions),
            "--iterations", str(args.iterations)]
    rounds: list[tuple[dict[str, float | str], dict[str, float | str]]] = []
    for n in range(args.rounds):
        pure, compiled = measure(True, argv), measure(False, argv)
        if not str(compiled["engine"]).startswith("compiled"):
            raise SystemExit(f"no compiled engine to compare: {compiled['engine']}")
        rounds.append((pure, compiled))
        print(f"round {n + 1} of {args.rounds} done", file=sys.stderr)
    table = Table(title=f"compiled against pure Python, median of {args.rounds} rounds "
                        f"({args.positions} positions × {args.iterations} iterations, "
                        f"{args.games} random games)")
    for column in ("figure", "pure", "compiled", "ratio", "ratio range"):
        table.add_column(column, justify="left" if column == "figure" else "right")
    for name in FIGURES:
        pure_values = [float(p[name]) for p, _ in rounds]
        compiled_values = [float(c[name]) for _, c in rounds]
        ratios = [c / p for p, c in zip(pure_values, compiled_values, strict=True)]
        table.add_row(name, f"{statistics.median(pure_values):,.0f}",
                      f"{statistics.median(compiled_values):,.0f}",
                      f"{statistics.median(ratios):.2f}×",
                      f"{min(ratios):.2f}–{max(ratios):.2f}")
    Console().print(table)


if __name__ == "__main__":
    main()

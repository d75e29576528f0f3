"""MCTS iterations per second and random games per second, for one or two source trees.

Run: python benchmarks/engine_compare.py [--rounds R] TREE [TREE ...]
Each TREE is a checkout (e.g. a ``git worktree`` of an older commit). Rounds alternate
between the trees, each in a fresh interpreter that imports that tree only, so slow drift
of this machine's speed hits every tree alike. Prints per tree the median over rounds of:
mcts iterations per second (mcts tier, fixed iteration budget, the same mid-game
observations) and random full games per second (base game); for each later tree, the
median over rounds of its ratio to the first tree in the same round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

PROBE = r"""
import json, random, time
from solstis_tui.core import Game, Options
try:
    from solstis_tui.ai.base import Budget
    from solstis_tui.ai.mcts import MCTSBot
except ImportError:
    from ai.base import Budget
    from ai.mcts import MCTSBot

def positions(n):
    out = []
    for i in range(n):
        game = Game.new(seed=9000 + i, options=Options())
        rand = random.Random(i)
        while len(game.pile) > 12 + (i % 10) and not game.is_over:
            game.play(rand.choice(game.legal_moves()))
        out.append(game.observation(game.to_play))
    return out

obs = positions(8)
iters = 0
start = time.perf_counter()
for i, o in enumerate(obs):
    bot = MCTSBot(seed=i)
    bot.choose(o, Budget(iterations=600))
    iters += 600
mcts = iters / (time.perf_counter() - start)

rand = random.Random(1)
start = time.perf_counter()
for i in range(300):
    game = Game.new(seed=5000 + i)
    while not game.is_over:
        game.play(rand.choice(game.legal_moves()))
games = 300 / (time.perf_counter() - start)
print(json.dumps({"mcts_iter_per_s": mcts, "random_games_per_s": games}))
"""


def probe(tree: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=tree, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {t: [] for t in args.trees}
    for _ in range(args.rounds):
        for tree in args.trees:
            results[tree].append(probe(tree))
    first = results[args.trees[0]]
    for tree, runs in results.items():
        if tree != args.trees[0]:  # rounds are paired: the ratio cancels slow drift
            for key in ("mcts_iter_per_s", "random_games_per_s"):
                ratios = sorted(r[key] / f[key] for r, f in zip(runs, first, strict=True))
                print(f"{tree} / {args.trees[0]}: {key} ratio median "
                      f"{statistics.median(ratios):.3f} (range {ratios[0]:.3f}-{ratios[-1]:.3f})")
    for tree, runs in results.items():
        mcts = [r["mcts_iter_per_s"] for r in runs]
        games = [r["random_games_per_s"] for r in runs]
        print(f"{tree}: mcts {statistics.median(mcts):.0f} iter/s "
              f"({min(mcts):.0f}-{max(mcts):.0f}; {1e3 / statistics.median(mcts):.3f} ms/iter), "
              f"random games {statistics.median(games):.0f}/s "
              f"({min(games):.0f}-{max(games):.0f}), {len(runs)} rounds")


if __name__ == "__main__":
    main()

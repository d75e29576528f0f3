"""How long ``solstis analyze`` takes: whole games analysed at the shipped effort.

Games are seeded greedy-vs-random games, base variant unless ``--variant`` (their decisions
with a real choice are what the analysis judges: each from both seats' observations).
Prints, per game, the decisions, the seconds, and the seconds for 30 decisions (target:
at most 30 s, compiled, 2 cores); and each seat's error rate and luck.

Run: ``.venv/bin/python benchmarks/analysis_speed.py [--games 2] [--workers 2]
[--variant firefly]``.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time

from solstis_tui.ai.registry import make_bot
from solstis_tui.coach.analysis import Effort, analyse
from solstis_tui.core import Game, Options


def game(seed: int, variant: str) -> Game:
    g = Game.new(seed=seed, options=Options.for_variant(variant))
    bots = [make_bot("greedy", seed), make_bot("random", seed)]
    while not g.is_over:
        g.play(bots[g.to_play].choose(g.observation(g.to_play)))
    return g


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variant", default="base", choices=("base", "beginner", "firefly"))
    args = parser.parse_args()
    effort = Effort()
    print(f"{args.variant}: effort {effort}, {args.workers} worker processes")
    for seed in range(1, args.games + 1):
        g = game(seed, args.variant)
        started = time.perf_counter()
        found = analyse(g, ("greedy", "random"), 0, effort, args.workers)
        took = time.perf_counter() - started
        n = len(found.decisions())
        a, b = found.seats
        print(f"game {seed}: {n} decisions with a real choice, {took:.1f} s, "
              f"{30 * took / n:.1f} s for 30 decisions; error rate greedy {a.error_rate:.2f}★ "
              f"random {b.error_rate:.2f}★; luck greedy {a.luck:+.1f}★ random {b.luck:+.1f}★")


if __name__ == "__main__":
    main()

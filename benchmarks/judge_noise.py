"""The judge's noise: the same decisions judged three times with different seeds.

Decisions come from seeded games of the greedy tier against random play (so that some
moves are good and some are bad). Each is judged with seeds A and B, the played move as
the focus, and once more with A's best as the focus. Prints:

- the noise loss: the star loss that a third judgement, with judgement A's best move as
  its focus (valued on the shared deals, as every labelled move is), gives to that move (a
  move as good as the best, up to noise); its 90th, 95th, 98th and 99th percentiles and
  the largest; the least inaccuracy threshold must lie above the largest;
- with the shipped thresholds (``analysis.LABELS``): the share of those equally good moves
  labelled, and the share of played moves that get the same label both times (target at
  least 95%).

Run: ``.venv/bin/python benchmarks/judge_noise.py [--decisions 40] [--variant firefly]``
(``--iterations``, ``--floor``, ``--close-floor`` try other efforts; ``--only 17 40``
judges only those decisions, as numbered in a full run; noise losses of 1★ or more are
listed as they come).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from solstis_tui.ai.judge import judge
from solstis_tui.ai.registry import make_bot
from solstis_tui.coach.analysis import LABELS, Effort, label_of
from solstis_tui.core import Game, Move, Observation, Options


def decisions(count: int, seed: int, variant: str = "base") -> list[tuple[Observation, Move]]:
    """``count`` decisions with a real choice, spread over seeded greedy-vs-random games."""
    rand = random.Random(seed)
    out: list[tuple[Observation, Move]] = []
    deal = 0
    while len(out) < count:
        g = Game.new(seed=seed * 1000 + deal, options=Options.for_variant(variant))
        deal += 1
        bots = [make_bot("greedy", deal), make_bot("random", deal)]
        while not g.is_over and len(out) < count:
            obs = g.observation(g.to_play)
            mv = bots[g.to_play].choose(obs)
            if len(g.legal) > 1 and rand.random() < 0.3:
                out.append((obs, mv))
            g.play(mv)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="base", choices=("base", "beginner", "firefly"))
    parser.add_argument("--only", type=int, nargs="*", default=None,
                        help="judge only these decisions (their numbers in a full run)")
    effort = Effort()
    parser.add_argument("--iterations", type=int, default=effort.iterations)
    parser.add_argument("--floor", type=int, default=effort.floor)
    parser.add_argument("--close-floor", type=int, default=effort.close_floor)
    args = parser.parse_args()
    noise: list[float] = []
    same = 0
    started = time.perf_counter()
    found = decisions(args.decisions, args.seed, args.variant)
    for i, (obs, played) in enumerate(found):
        if args.only is not None and i not in args.only:
            continue
        a = judge(obs, 3 * i + 1, args.iterations, args.floor, played, args.close_floor)
        b = judge(obs, 3 * i + 2, args.iterations, args.floor, played, args.close_floor)
        # A's best as the move played (the focus, valued on the shared deals, as every
        # labelled move is) in a judgement of its own: its loss there is noise.
        c = judge(obs, 3 * i + 3, args.iterations, args.floor, a.best.move, args.close_floor)
        noise.append(c.loss(a.best.move)[0])
        if noise[-1] >= 1.0:
            print(f"decision {i}: {a.best.move} (A's best) loses {noise[-1]:.2f}★ in C "
                  f"(C's best {c.best.move}) among {len(obs.legal_moves)} moves")
        la, lb = a.loss(played)[0], b.loss(played)[0]
        if label_of(la) == label_of(lb):
            same += 1
        else:
            print(f"labels differ: {played} loses {la:.2f}★ (best {a.best.move}) and "
                  f"{lb:.2f}★ (best {b.best.move}) among {len(obs.legal_moves)} moves")
    took = time.perf_counter() - started
    noise.sort()
    n = len(noise)
    found = found if args.only is None else [found[i] for i in args.only]
    print(f"{args.variant}, seed {args.seed}: {len(found)} decisions judged three times, "
          f"{args.iterations} "
          f"iterations, floor {args.floor}, close floor {args.close_floor}: {took:.1f} s "
          f"({took / (3 * len(found)):.2f} s a judgement)")
    for q in (0.90, 0.95, 0.98, 0.99):
        print(f"noise loss of an equally good move, {q:.0%} percentile: "
              f"{noise[min(n - 1, int(q * n))]:.2f}★")
    print(f"noise loss: mean {statistics.fmean(noise):.2f}★, max {noise[-1]:.2f}★")
    least = min(t for _, t in LABELS)
    labelled = sum(x >= least for x in noise)
    print(f"thresholds {dict((k, v) for k, v in LABELS)}: equally good moves labelled "
          f"{labelled}/{n} = {labelled / n:.1%} (target at most 1%)")
    print(f"played moves with the same label both times: {same}/{len(found)} = "
          f"{same / len(found):.1%} (target at least 95%)")


if __name__ == "__main__":
    main()

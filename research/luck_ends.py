"""The luck's bias, measured to the next decision's own judgement (old) and to the same
valuation as the stretch's start (``Verdict.luck_end``, new), on the same games (research,
not shipped).

    .venv/bin/python research/luck_ends.py --games 60 --first-seed 20000 --iterations 600
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solstis_tui.ai.registry import make_bot
from solstis_tui.coach import analysis
from solstis_tui.core import Game


def interval(values: list[float]) -> str:
    if not values:
        return "none"
    mean = statistics.fmean(values)
    half = 1.97 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return f"{mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f}) n={len(values)}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--first-seed", type=int, default=20000)
    parser.add_argument("--iterations", type=int, default=600)
    parser.add_argument("--close", type=int, default=300)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    effort = analysis.Effort(args.iterations, 30, args.close)
    real_run = analysis._run
    kept: list[Any] = []

    def run(*a: Any, **k: Any) -> Any:
        out = real_run(*a, **k)
        kept[:] = out
        return out

    analysis._run = run  # type: ignore[assignment]
    sums: dict[str, list[float]] = defaultdict(list)
    split: dict[str, list[float]] = defaultdict(list)
    for k in range(args.games):
        seed = args.first_seed + k
        specs = ["greedy", "random"] if k % 2 == 0 else ["random", "greedy"]
        bots = [make_bot(spec, seed + i) for i, spec in enumerate(specs)]
        g = Game.new(seed=seed)
        while not g.is_over:
            g.play(bots[g.to_play].choose(g.observation(g.to_play)))
        found = analysis.analyse(g, specs, seed=seed, effort=effort, workers=args.workers)
        verdicts = kept
        n = len(verdicts) // 2
        game_old = [0.0, 0.0]
        game_new = [0.0, 0.0]
        for j in range(n - 1):
            for seat in (0, 1):
                v = verdicts[2 * j + seat]
                if v.luck_end is None or v.luck_start is None:
                    continue
                after = verdicts[2 * (j + 1) + seat].expected.margin
                start = v.luck_start.margin
                who = "decides next" if verdicts[2 * (j + 1)].to_play == seat else "other next"
                split[f"old, {who}"].append(after - start)
                split[f"new, {who}"].append(v.luck_end.margin - start)
                game_old[seat] += after - start
                game_new[seat] += v.luck_end.margin - start
        sums["old summed (inner stretches)"].append(game_old[0] + game_old[1])
        sums["new summed (inner stretches)"].append(game_new[0] + game_new[1])
        for seat in (0, 1):
            sums[f"old seat {seat + 1}"].append(game_old[seat])
            sums[f"new seat {seat + 1}"].append(game_new[seat])
        sums["shipped luck summed"].append(found.seats[0].luck + found.seats[1].luck)
        if (k + 1) % 10 == 0:
            print(f"{k + 1} games: old {interval(sums['old summed (inner stretches)'])}, "
                  f"new {interval(sums['new summed (inner stretches)'])}", flush=True)
    for key in sorted(split):
        print(f"{key:28} {interval(split[key])}")
    for key in sorted(sums):
        print(f"{key:28} {interval(sums[key])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

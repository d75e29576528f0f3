"""Is the judge's luck unbiased? The two seats' luck in a game should sum to 0 on average.

    .venv/bin/python benchmarks/luck_bias.py [--games 400] [--first-seed 9000] [--workers 2]
        [--iterations N --close N]

Plays greedy against random (``--bots``; greedy in seat 1 in even games, seat 2 in odd ones; seeds
from 9000 on were never used to tune the judge) and analyses each game at the shipped
effort, or with ``--iterations`` and ``--close`` for the judge's main search and shared
deals (less time, more noise; the floor stays). Prints, with 95% t-intervals over games:
the two seats' luck summed, each seat's luck, how many accounts did not close (start +
own + other + luck + drift = final), and each stretch's luck by who decides next.
Prints a running line every 25 games; ``--csv`` keeps each game's figures as they come.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solstis_tui.ai.registry import make_bot
from solstis_tui.coach import analysis
from solstis_tui.core import Game


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:+.2f}"
    half = 1.97 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f})"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--first-seed", type=int, default=9000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--csv", help="append one line a game here (seed, each seat's luck)")
    parser.add_argument("--bots", default="greedy,random",
                        help="the two tiers, the first in seat 1 in even games")
    parser.add_argument("--iterations", type=int, default=analysis.Effort().iterations)
    parser.add_argument("--close", type=int, default=analysis.Effort().close_floor)
    args = parser.parse_args()
    effort = analysis.Effort(args.iterations, analysis.Effort().floor, args.close)
    print(f"effort: {effort}", flush=True)
    summed: list[float] = []
    seats: list[list[float]] = [[], []]
    open_accounts = 0
    stretches: dict[str, list[float]] = {"the seat decides next": [],
                                         "the other decides next": []}
    started = time.perf_counter()
    for k in range(args.games):
        seed = args.first_seed + k
        first, second = args.bots.split(",")
        specs = [first, second] if k % 2 == 0 else [second, first]
        bots = [make_bot(spec, seed + i) for i, spec in enumerate(specs)]
        g = Game.new(seed=seed)
        while not g.is_over:
            g.play(bots[g.to_play].choose(g.observation(g.to_play)))
        found = analysis.analyse(g, specs, seed=seed, effort=effort, workers=args.workers)
        luck = [s.luck for s in found.seats]
        summed.append(luck[0] + luck[1])
        if args.csv:
            with open(args.csv, "a", encoding="utf-8") as out:
                out.write(f"{seed},{specs[0]},{specs[1]},{luck[0]},{luck[1]}\n")
        notes = list(found.notes)
        for at, note in enumerate(notes):
            if isinstance(note, analysis.ChanceNote):
                decider = next((n.seat for n in notes[at + 1:]
                                if isinstance(n, analysis.DecisionNote)), None)
                for i in (0, 1) if decider is not None else ():
                    kind = "seat" if decider == i else "other"
                    stretches[f"the {kind} decides next"].append(note.luck[i])
        for i in (0, 1):
            seats[i].append(luck[i])
            account = found.seats[i].account
            if account is None or not account.closes():
                open_accounts += 1
        if (k + 1) % 25 == 0:
            print(f"{k + 1} games: summed {interval(summed)}", flush=True)
    print(f"{len(summed)} games, seeds {args.first_seed}..{args.first_seed + args.games - 1}, "
          f"{time.perf_counter() - started:.0f} s")
    print(f"both seats' luck summed, a game: {interval(summed)}★")
    print(f"seat 1: {interval(seats[0])}★; seat 2: {interval(seats[1])}★")
    for kind, values in stretches.items():
        print(f"a stretch's luck where {kind}: {interval(values)}★ ({len(values)})")
    print(f"accounts that did not close: {open_accounts} of {2 * len(summed)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

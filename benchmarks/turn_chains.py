"""Does a move's figure agree with the figure of the same seat's next decision in the turn?

    .venv/bin/python benchmarks/turn_chains.py [--chains 500] [--first-seed 6000] [--old]
        [--both-noises]

A chain is two decisions with a choice, the second following the first in the same turn,
by the same seat, with nothing drawn between (play, then capture; capture, then keep).
The judge values the first decision's played move (``focus``) at m1; the second decision,
judged on its own, is worth m2 at its best. Played well, the second decision is what the
first move led to, so m1 and m2 should agree within the judge's noise.

The noise is measured on the same chains: the first decision judged again with another
seed, |m1 - m1'|. Printed: the chains, the mean of m2 - m1 with its 95% interval, the
99th percentile of |m2 - m1| and of the noise, and the share of chains whose |m2 - m1|
is past the noise's 99th percentile (1% is what noise alone gives), and each of those
chains: its moves and figures.

``--both-noises`` judges the second decision again with another seed too, and prints the
share of chains past the 99th percentile of ((m1 - m1') + (m2 - m2')) / sqrt(2): how m2 - m1
would spread if the two figures agreed up to each judgement's own noise.

``--old`` values the first move as the judge did before a move was valued by its best
continuation within the turn (the tree's exploring continuation). Seeds from 6000 on
were never used to tune the judge.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solstis_tui.ai import judge as judging
from solstis_tui.ai import judge_tree
from solstis_tui.ai.registry import make_bot
from solstis_tui.coach.analysis import CHANCE as CHANCE_EVENTS
from solstis_tui.core import Game, Move, Observation, Options
from solstis_tui.core.events import TurnBegan

VARIANTS = (Options(), Options(firefly=True), Options(beginner=True))


def chains_of(seed: int) -> list[tuple[Observation, Move, Observation]]:
    """The chains of one greedy-against-mcts game."""
    options = VARIANTS[seed % len(VARIANTS)]
    bots = [make_bot("greedy", seed), make_bot("mcts@300", seed + 1)]
    g = Game.new(seed=seed, options=options)
    out = []
    last: tuple[Observation, Move, int] | None = None
    while not g.is_over:
        obs = g.observation(g.to_play)
        if len(obs.legal_moves) > 1:
            if last is not None and last[0].player == obs.player:
                between = g.log[last[2]:]
                if not any(isinstance(ev, (*CHANCE_EVENTS, TurnBegan)) for ev in between):
                    out.append((last[0], last[1], obs))
            played = bots[g.to_play].choose(obs)
            last = (obs, played, len(g.log))
        else:
            played = g.legal[0]
        g.play(played)
    return out


def measure(task: tuple[Observation, Move, Observation, int, bool, bool]
            ) -> tuple[float, float, str, float]:
    first, played, second, seed, old, both = task
    if old:
        judge_tree.settle_turn = lambda node, g, path, seat, drawn: node  # type: ignore
    v1 = judging.judge(first, seed, focus=played)
    again = judging.judge(first, seed + 1, focus=played)
    v2 = judging.judge(second, seed + 2)
    m1 = v1.value_of(played)
    m1b = again.value_of(played)
    assert m1 is not None and m1b is not None
    # The second judgement's noise too: the same, judged with another seed.
    m2b = judging.judge(second, seed + 3).best.margin if both else v2.best.margin
    said = (f"{played} ({len(first.legal_moves)} moves; m1 {m1.margin:+.2f}★, again "
            f"{m1b.margin:+.2f}★) then {v2.best.move} ({len(second.legal_moves)} moves; "
            f"m2 {v2.best.margin:+.2f}★)")
    return (v2.best.margin - m1.margin, abs(m1.margin - m1b.margin), said,
            abs((m1.margin - m1b.margin) + (v2.best.margin - m2b)) / math.sqrt(2))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chains", type=int, default=500)
    parser.add_argument("--first-seed", type=int, default=6000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--old", action="store_true")
    parser.add_argument("--both-noises", action="store_true",
                        help="judge the second decision again too, and compare with both "
                             "judgements' noise")
    args = parser.parse_args()
    started = time.perf_counter()
    tasks = []
    seed = args.first_seed
    while len(tasks) < args.chains:
        seed += 1
        for first, played, second in chains_of(seed):
            tasks.append((first, played, second, 1000 * seed + len(tasks), args.old,
                          args.both_noises))
    tasks = tasks[:args.chains]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(measure, tasks, chunksize=4)
    diffs = [d for d, _, _, _ in results]
    noise = sorted(n for _, n, _, _ in results)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    q99 = noise[min(len(noise) - 1, int(0.99 * len(noise)))]
    absd = sorted(abs(d) for d in diffs)
    past = sum(1 for d in absd if d > q99)
    print(f"chains {len(diffs)} from games {args.first_seed + 1}..{seed}"
          f"{' (old valuation)' if args.old else ''}")
    print(f"m2 - m1: mean {mean:+.2f}★ (95% {mean - half:+.2f} to {mean + half:+.2f}); "
          f"99th percentile of |m2 - m1| {absd[int(0.99 * (len(absd) - 1))]:.2f}★")
    print(f"noise |m1 - m1'|: median {statistics.median(noise):.2f}★, 99th percentile "
          f"{q99:.2f}★; chains past it {past} ({past / len(diffs):.1%})")
    if args.both_noises:
        # Were m1 and m2 the same figure up to each judgement's noise, m2 - m1 would spread
        # as (m1 - m1') + (m2 - m2') over the square root of 2 does.
        both = sorted(b for _, _, _, b in results)
        q99b = both[min(len(both) - 1, int(0.99 * len(both)))]
        past_b = sum(1 for d in absd if d > q99b)
        print(f"both judgements' noise: 99th percentile {q99b:.2f}★; chains past it "
              f"{past_b} ({past_b / len(diffs):.1%})")
    for d, _, said, _ in results:
        if abs(d) > q99:
            print(f"past the noise: m2 - m1 {d:+.2f}★: {said}")
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

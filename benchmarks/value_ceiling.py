"""How much of a position's result the learned value predicts, beside how much any judge
of the position could predict.

    .venv/bin/python benchmarks/value_ceiling.py --positions 1500 --continuations 64 --jobs 2

The positions are turn starts of epsilon-greedy heuristic self-play (epsilon 0.1, mcts's
playout setting), one per game, at a turn drawn between 2 and 19. From each, the
``--continuations`` games are played to the end with the same heuristic, each from a fresh
deal of what the player to move cannot see (``Dealer``): their mean is the position's
expected result for that player, up to sampling noise, and their spread is the luck still
to come. With their sampling noise taken out (the within-position variance over K), the
figures are:

- *explainable*: the share of a single game's result variance that the position's expected
  result accounts for: no judge of what the player to move can see (learned or searched)
  can explain more of a single game's result under this play;
- *value explains*: the share the learned value (``ai/value.py``) explains, averaged over
  the same deals (it reads both hands, so it is asked on each dealt world, as mcts asks it);
- *value's error*: the root mean square of value minus expected result, beside the spread
  (standard deviation) of the expected results themselves.

Margins are in stars; wins are 1, ½ for a draw, 0 (the value's win chance against them).
``--weights FILE`` judges with another weights file of the same form (``tools/fit_value.py
--out``).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.table import Table

from solstis_tui.ai import value as learned
from solstis_tui.ai.policy import best_move, playout
from solstis_tui.core import Dealer, Decision, Game, Options
from solstis_tui.core.scoring import score

EPSILON = 0.1

#: (value's margin, value's win chance, margins, wins) of one position.
Sample = tuple[float, float, list[float], list[float]]


def result(g: Game, p: int) -> tuple[float, float]:
    """(final star margin, win: 1, 1/2 or 0) of a finished game, for ``p``."""
    margin = score(g, p).total - score(g, 1 - p).total
    return float(margin), 0.5 if g.winner is None else float(g.winner == p)


def sample(index: int, seed: int, variant: str, continuations: int,
           weights: Path | None) -> Sample | None:
    """One position's value and its continuations' results (None if its game ended first)."""
    if weights is not None and weights != learned.WEIGHTS_FILE:
        learned.WEIGHTS_FILE = weights
        learned.models.cache_clear()
    rand = random.Random(f"{seed}:{index}")
    g = Game.new(seed * 100_003 + index, Options.for_variant(variant))
    turn = rand.randrange(2, 20)
    while not g.is_over and not (g.decision is Decision.PLAY and g.turn >= turn):
        g.play(best_move(g, rand, EPSILON))
    if g.is_over:
        return None
    p = g.to_play
    dealer = Dealer(g.observation(p))
    margins, wins, judged = [], [], []
    for _ in range(continuations):
        world = dealer.deal(rand)
        judged.append(learned.value(world, p))
        playout(world, rand, EPSILON)
        m, w = result(world, p)
        margins.append(m)
        wins.append(w)
    # The value reads both hands; on the same deals as the continuations it judges only
    # what the player to move can see, as the continuations' mean does (and as mcts uses it).
    margin = statistics.fmean(v[0] for v in judged)
    win = statistics.fmean(v[1] for v in judged)
    return margin, win, margins, wins


def figures(predicted: list[float], outcomes: list[list[float]]) -> dict[str, float]:
    """Explainable share, the value's share and error, and the expected results' spread,
    with the continuations' sampling noise taken out."""
    k = len(outcomes[0])
    means = [statistics.fmean(o) for o in outcomes]
    luck = statistics.fmean(statistics.variance(o) for o in outcomes)  # within a position
    expected_var = max(statistics.pvariance(means) - luck / k, 0.0)
    single_var = expected_var + luck
    value_sq = statistics.fmean((m - v) ** 2 for m, v in zip(means, predicted, strict=True))
    value_err = max(value_sq - luck / k, 0.0)
    return {
        "explainable": expected_var / single_var,
        "value_explains": 1.0 - (value_err + luck) / single_var,
        "value_error": math.sqrt(value_err),
        "spread": math.sqrt(expected_var),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--continuations", type=int, default=64)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--variant", default="base", choices=("base", "beginner", "firefly"))
    parser.add_argument("--weights", type=Path, default=None)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if args.positions < 10 or args.continuations < 2 or args.jobs < 1:
        parser.error("--positions >= 10, --continuations >= 2, --jobs >= 1")
    weights = args.weights.resolve() if args.weights else None
    with ProcessPoolExecutor(args.jobs) as pool:
        one = partial(sample, seed=args.seed, variant=args.variant,
                      continuations=args.continuations, weights=weights)
        done = pool.map(one, range(args.positions), chunksize=10)
        samples = [s for s in done if s is not None]
    table = Table(title=f"{len(samples)} {args.variant} turn starts (seed {args.seed}), "
                        f"{args.continuations} continuations each"
                        + (f", weights {args.weights}" if args.weights else ""))
    for column in ("result", "explainable", "value explains", "value's error",
                   "spread of expected results"):
        table.add_column(column, justify="left" if column == "result" else "right")
    for name, index, unit in (("margin", 0, " stars"), ("win", 1, "")):
        f = figures([s[index] for s in samples], [s[2 + index] for s in samples])
        table.add_row(name, f"{f['explainable']:.1%}", f"{f['value_explains']:.1%}",
                      f"{f['value_error']:.3f}{unit}", f"{f['spread']:.3f}{unit}")
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How much of a position's result the learned value predicts, beside how much any judge
of the position could predict.

    PYTHONPATH=research:benchmarks .venv/bin/python research/value_ceiling.py \\
        --positions 1500 --continuations 64 --jobs 2

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
--out``): the value module reads its shipped file as a package resource, so the script
puts the other file's models in place of ``value.models`` in each worker (``use_weights``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.table import Table

from solstis_tui.ai import value as learned
from solstis_tui.ai.features import FEATURES
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


def read_models(path: Path) -> dict[str, learned.Model]:
    """Every variant's model in the weights file ``path`` (the form of the shipped
    ``value_weights.json``); ValueError if it was fitted to other features."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("features") != list(FEATURES):
        raise ValueError(f"{path} was fitted to other features: "
                         "fit it again with tools/fit_value.py")
    return {variant: learned.Model(learned.Linear.from_json(m["margin"]),
                                   learned.Linear.from_json(m["win"]))
            for variant, m in data["variants"].items()}


#: The weights file this process judges with (None: the shipped one).
_weights_in_use: Path | None = None


def use_weights(path: Path | None) -> None:
    """Make ``learned.value`` judge with the weights in ``path`` (None: the shipped ones)
    from now on in this process. ``value`` looks ``models`` up in its module at each call
    (compiled too: ``models`` is a decorated function), so replacing it is enough."""
    global _weights_in_use
    if path == _weights_in_use:
        return
    if path is None:
        setattr(learned, "models", _shipped_models)  # noqa: B010 (a module's function)
    else:
        models = read_models(path)
        setattr(learned, "models", lambda: models)  # noqa: B010
    _weights_in_use = path


_shipped_models = learned.models


def sample(index: int, seed: int, variant: str, continuations: int,
           weights: Path | None) -> Sample | None:
    """One position's value and its continuations' results (None if its game ended first)."""
    use_weights(weights)
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
    margins = figures([s[0] for s in samples], [s[2] for s in samples])
    wins = figures([s[1] for s in samples], [s[3] for s in samples])
    for name, f, unit in (("margin", margins, " stars"), ("win", wins, "")):
        table.add_row(name, f"{f['explainable']:.1%}", f"{f['value_explains']:.1%}",
                      f"{f['value_error']:.3f}{unit}", f"{f['spread']:.3f}{unit}")
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

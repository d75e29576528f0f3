"""A prior over a decision's moves, learned from where long searches spend their visits.

AlphaZero's search leans on a policy that says which moves are worth looking at. Here that
policy is a softmax over a linear score of each move, one set of weights per kind of
decision (``Decision``). A move is described by what it changes: both players' value
features (features.py) after the move minus before, the heuristic's move value
(policy.py) and the move's kind. ``research/fit_prior.py`` fits the weights to the visit
counts of long mcts searches in self-play and writes ``prior_weights.json``; a decision the
file has no weights for scores every move by the heuristic alone.

Scoring a move costs a game copy, the move and two feature calls (about 75 µs), so the
search parts that use it (strategies.py: ``ResearchUCB`` and ``PUCT`` with
``learned_prior``) ask for it only at nodes already visited a few times and remember the
scores (``LearnedScores``). It was measured and not adopted (research/EXPERIMENTS.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from solstis_tui.ai.features import FEATURES, features
from solstis_tui.ai.policy import move_value
from solstis_tui.core import Decision, Game, Move, MoveKind

PRIOR_FILE = Path(__file__).with_name("prior_weights.json")

#: The names of a move's inputs, in order: what ``move_inputs`` returns.
MOVE_INPUTS: tuple[str, ...] = (
    "heuristic",
    *(f"mover_{name}" for name in FEATURES),
    *(f"other_{name}" for name in FEATURES),
    *(f"kind_{kind.name.lower()}" for kind in MoveKind),
)


def move_inputs(g: Game, moves: Sequence[Move]) -> list[list[float]]:
    """Each move's inputs in ``MOVE_INPUTS`` order, for the player to move in ``g``, a full
    game: the search's deal (research/fit_prior.py passes its self-play game itself)."""
    p = g.to_play
    mover0, other0 = features(g, p), features(g, 1 - p)
    rows = []
    for mv in moves:
        after = g.copy()
        after.play(mv)
        kinds = [0.0] * len(MoveKind)
        kinds[mv.kind] = 1.0
        rows.append(
            [move_value(g, mv)]
            + [x - y for x, y in zip(features(after, p), mover0, strict=True)]
            + [x - y for x, y in zip(features(after, 1 - p), other0, strict=True)]
            + kinds
        )
    return rows


@cache
def weights() -> dict[Decision, tuple[float, ...]]:
    """Each decision's weights, read once from ``prior_weights.json``; ValueError if the
    file was fitted to other inputs."""
    data = json.loads(PRIOR_FILE.read_text(encoding="utf-8"))
    if data.get("inputs") != list(MOVE_INPUTS):
        raise ValueError(f"{PRIOR_FILE.name} was fitted to other move inputs: "
                         "fit it again with research/fit_prior.py")
    out = {}
    for name, ws in data["decisions"].items():
        if name not in Decision.__members__:
            raise ValueError(f"{PRIOR_FILE.name}: no decision is called {name!r}")
        if len(ws) != len(MOVE_INPUTS):
            raise ValueError(f"{PRIOR_FILE.name}: {name} has {len(ws)} weights, "
                             f"not {len(MOVE_INPUTS)}")
        out[Decision[name]] = tuple(float(w) for w in ws)
    return out


def logits(g: Game, moves: Sequence[Move]) -> list[float]:
    """Each move's score (a logit: the prior is their softmax) at ``g``'s decision."""
    ws = weights().get(g.decision) if g.decision is not None else None
    if ws is None:
        return [move_value(g, mv) for mv in moves]
    return [sum(w * x for w, x in zip(ws, row, strict=True)) for row in move_inputs(g, moves)]

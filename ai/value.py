"""The learned value of a position: the expected star margin and the chance to win.

Both are linear in the difference between the two players' ``features`` (features.py),
seen from the player to move, plus a tempo term for having the move. Every weight slides
linearly with the share of the land pile still to come, so that, say, a square one tile
short counts for more early than late. The weights, one set per variant, live in
``value_weights.json``; ``tools/fit_value.py`` fits them to the final margins and winners
of heuristic self-play games and writes that file.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from solstis_tui.core import Game

from .features import FEATURES, features

#: The weights' file, shipped beside this module.
WEIGHTS_FILE: Final = "value_weights.json"
#: Land tiles in the pile at the start of a game (48 minus the display and two hands).
FULL_PILE: Final = 30


@dataclass(frozen=True)
class Linear:
    """Weights of one target. Feature i weighs ``base[i] + per_pile[i] * share``, where
    ``share`` is the part of a full land pile still to come (1 at the start, 0 at the
    end); ``tempo`` is (base, per_pile) for having the move."""

    base: tuple[float, ...]
    per_pile: tuple[float, ...]
    tempo: tuple[float, float]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Linear:
        weights = data["weights"]
        if set(weights) != set(FEATURES):
            odd = sorted(set(weights) ^ set(FEATURES))
            raise ValueError(f"value weights do not match the features ({', '.join(odd)}): "
                             "fit them again with tools/fit_value.py")
        base, per_pile = zip(*(weights[name] for name in FEATURES), strict=True)
        return cls(tuple(base), tuple(per_pile), tuple(data["tempo"]))

    def to_json(self) -> dict[str, Any]:
        return {
            "tempo": list(self.tempo),
            "weights": {n: [a, b] for n, a, b in zip(FEATURES, self.base, self.per_pile,
                                                     strict=True)},
        }

    def of(self, mover: list[float], other: list[float], share: float) -> float:
        """The value for the player to move, given both players' features."""
        v = self.tempo[0] + self.tempo[1] * share
        base, per_pile = self.base, self.per_pile
        if not len(base) == len(per_pile) == len(mover) == len(other):
            raise ValueError("the features and the weights differ in number")
        for i in range(len(base)):
            x, y = mover[i], other[i]
            if x != y:
                v += (x - y) * (base[i] + per_pile[i] * share)
        return v


@dataclass(frozen=True)
class Model:
    """The margin and win-logit weights of one variant."""

    margin: Linear
    win: Linear


@cache
def models() -> dict[str, Model]:
    """Every variant's model, read once from ``value_weights.json``."""
    text = resources.files("solstis_tui.ai").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if data.get("features") != list(FEATURES):
        raise ValueError(f"{WEIGHTS_FILE} was fitted to other features: "
                         "fit it again with tools/fit_value.py")
    return {
        variant: Model(Linear.from_json(m["margin"]), Linear.from_json(m["win"]))
        for variant, m in data["variants"].items()
    }


def value(g: Game, p: int) -> tuple[float, float]:
    """(expected final star margin, chance to win) for ``p`` in an unfinished game.

    Fitted at turn starts; a position in the middle of a turn is judged all the same."""
    model = models()[g.options.variant]
    mover = g.to_play
    a, b = features(g, mover), features(g, 1 - mover)
    share = len(g.pile) / FULL_PILE
    margin = model.margin.of(a, b, share)
    logit = model.win.of(a, b, share)
    if mover != p:
        margin, logit = -margin, -logit
    return margin, 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, logit))))

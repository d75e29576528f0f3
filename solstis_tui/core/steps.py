"""Names shared by the turn machine's modules: queued steps, placement modes, supplies."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

T = TypeVar("T")

# Steps of a turn, queued on a stack (last pushed runs first). Each is a tuple (op, ...).
# PLACE_FIREFLIES (Firefly) puts the encountering player's fireflies on the squares waiting
# for them, after the plain spirit's effect (rules.md §10). New ops go at the end (saves
# name ops, and older saves must keep loading).
PUT: Final = 0
ENCOUNTER: Final = 1
EFFECT: Final = 2
EVIL: Final = 3
REFILL: Final = 4
END_TURN: Final = 5
COVER: Final = 6
SQUIRREL: Final = 7
FINISH: Final = 8
PLACE_FIREFLIES: Final = 9
OP_NAMES: Final = ("put", "encounter", "effect", "evil", "refill", "end_turn", "cover",
                   "squirrel", "finish", "fireflies")
# How a land tile or rainbow came into a panorama (rules.md §6, §10).
BY_TURN: Final = 0
BY_EFFECT: Final = 1
BY_SQUIRREL: Final = 2
MODE_NAMES: Final = ("turn", "effect", "squirrel")

HAND_SIZE: Final = 3
BEAR_HAND_SIZE: Final = 4
RAINBOWS: Final = 12
FIREFLIES: Final = 7



def pair_with(pair: tuple[T, T], player: int, value: T) -> tuple[T, T]:
    """A copy of a per-player pair with ``player``'s entry replaced.

    Rarely-changing per-player values are kept in tuples so that copies can share them.
    """
    return (value, pair[1]) if player == 0 else (pair[0], value)


def pair(items: Sequence[T]) -> tuple[T, T]:
    """The per-player pair of a two-item sequence (player 0's item first)."""
    return items[0], items[1]

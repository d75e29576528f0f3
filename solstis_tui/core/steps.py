"""Names shared by the turn machine's modules: queued steps, placement modes, supplies."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

# Steps of a turn, queued on a stack (last pushed runs first). Each is a tuple (op, ...).
# PLACE_FIREFLIES (Firefly) puts the encountering player's fireflies on the squares waiting
# for them, after the plain spirit's effect (rules.md §10). New ops go at the end (saves
# name ops, and older saves must keep loading).
(PUT, ENCOUNTER, EFFECT, EVIL, REFILL, END_TURN, COVER, SQUIRREL, FINISH,
 PLACE_FIREFLIES) = range(10)
OP_NAMES = ("put", "encounter", "effect", "evil", "refill", "end_turn", "cover",
            "squirrel", "finish", "fireflies")
# How a land tile or rainbow came into a panorama (rules.md §6, §10).
BY_TURN, BY_EFFECT, BY_SQUIRREL = 0, 1, 2
MODE_NAMES = ("turn", "effect", "squirrel")

HAND_SIZE, BEAR_HAND_SIZE = 3, 4
RAINBOWS, FIREFLIES = 12, 7


END_NORMAL = "normal"
END_FIREFLIES = "fireflies"




def pair_with(pair: tuple[T, T], player: int, value: T) -> tuple[T, T]:
    """A copy of a per-player pair with ``player``'s entry replaced.

    Rarely-changing per-player values are kept in tuples so that copies can share them.
    """
    return (value, pair[1]) if player == 0 else (pair[0], value)


def pair(items: Sequence[T]) -> tuple[T, T]:
    """The per-player pair of a two-item sequence (player 0's item first)."""
    return items[0], items[1]

"""Names shared by the turn machine's modules: queued steps, placement modes, supplies."""

from __future__ import annotations

# Steps of a turn, queued on a stack (last pushed runs first). Each is a tuple (op, ...).
PUT, ENCOUNTER, EFFECT, EVIL, REFILL, END_TURN, COVER, SQUIRREL, FINISH = range(9)
OP_NAMES = ("put", "encounter", "effect", "evil", "refill", "end_turn", "cover",
            "squirrel", "finish")
# How a land tile or rainbow came into a panorama (RULES.md §6, §10).
BY_TURN, BY_EFFECT, BY_SQUIRREL = 0, 1, 2
MODE_NAMES = ("turn", "effect", "squirrel")

HAND_SIZE, BEAR_HAND_SIZE = 3, 4
RAINBOWS, FIREFLIES = 12, 7


END_NORMAL = "normal"
END_FIREFLIES = "fireflies"




def pair_with(pair: tuple, player: int, value) -> tuple:
    """A copy of a per-player pair with ``player``'s entry replaced.

    Rarely-changing per-player values are kept in tuples so that copies can share them.
    """
    return (value, pair[1]) if player == 0 else (pair[0], value)

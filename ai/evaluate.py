"""Evaluation of a full game position, in stars, from one player's side.

``evaluate(g, p)`` is p's expected star margin, roughly: the live scores (rules.md §12)
plus small terms for what is about to come (squares one tile short, hand tiles that can
capture, the Evil Spirit's coming cover, fireflies on the way to four).
"""

from __future__ import annotations

from typing import Final

from solstis_tui.core import Game
from solstis_tui.core.board import ALL_SQUARES, MATCH, SQUARE_CELLS, bits
from solstis_tui.core.scoring import score

#: A Firefly win by four fireflies, or any final win, is worth this much beyond the margin.
WIN_BONUS: Final = 15.0
# (Typed: mypyc 2.4 leaves an inferred Final tuple of floats unset.)
_FIREFLY_THREAT: Final[tuple[float, ...]] = (0.0, 0.4, 1.2, 3.5, 0.0)


def outcome(g: Game, p: int) -> float:
    """Final value of a finished game for ``p``: star margin plus a bonus for the win."""
    margin = score(g, p).total - score(g, 1 - p).total
    if g.winner is None:
        return float(margin)
    return margin + (WIN_BONUS if g.winner == p else -WIN_BONUS)


def prospects(g: Game, p: int) -> float:
    """p's live score plus rough worth of what is about to come."""
    value = float(score(g, p).total)
    have = g.land[p] | g.rainbow_cells[p]
    near = 0
    for sq in bits(ALL_SQUARES & ~g.occupied_squares[p]):
        if (SQUARE_CELLS[sq] & have).bit_count() == 3:
            near += 1
    value += 0.5 * min(near, 4)
    up = g.face_up_mask
    value += 0.35 * sum(1 for t in g.hands[p] if MATCH[t] & up)
    if g.options.firefly:
        value += _FIREFLY_THREAT[min(g.fireflies[p].bit_count(), 4)]
    elif g.evil_player == p:
        value -= 1.6 if g.spirits[p] else 0.5
    return value


def evaluate(g: Game, p: int) -> float:
    """p's expected star margin (plus the win bonus once the game is over)."""
    if g.is_over:
        return outcome(g, p)
    return prospects(g, p) - prospects(g, 1 - p)

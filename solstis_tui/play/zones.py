"""Where on the board a pending decision is answered, and with which choices.

A decision is answered in one **zone**: a list of numbered items (the hand, the display's
piles, the spirit choices, the opponent's hand for the Renard) or a panorama's cells or
squares (``mine`` and ``theirs``, relative to the seat the screen shows).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..core import Decision, Move, MoveKind, Observation, Spirit
from ..core.board import CELLS, COL_OF, NAMES, ROW_OF, SQUARES, cell_index


class Zone(StrEnum):
    """Where a decision is answered (the value names the board widget that shows it)."""

    HAND = "hand"
    DISPLAY = "display"
    SPIRITS = "spirits"
    OPP_HAND = "opp_hand"
    MINE = "mine"
    THEIRS = "theirs"


LIST_ZONES = frozenset({Zone.HAND, Zone.DISPLAY, Zone.SPIRITS, Zone.OPP_HAND})
CELL_ZONES = frozenset({Zone.MINE, Zone.THEIRS})

ZONES: dict[Decision, Zone] = {
    Decision.PLAY: Zone.HAND,
    Decision.DEER: Zone.HAND,
    Decision.CAPTURE: Zone.DISPLAY,
    Decision.BEETLE: Zone.DISPLAY,
    Decision.ENCOUNTER: Zone.SPIRITS,
    Decision.KEEP: Zone.SPIRITS,
    Decision.COVER: Zone.SPIRITS,
    Decision.RENARD: Zone.OPP_HAND,
    Decision.PLACE_RAINBOW: Zone.MINE,
    Decision.MOVE_RAINBOW: Zone.MINE,
    Decision.SQUARE: Zone.MINE,
    Decision.VIPER: Zone.THEIRS,
    Decision.EVIL: Zone.THEIRS,
}

#: The kind of move a cell (or square) answers each cell decision with.
CELL_KIND: dict[Decision, MoveKind] = {
    Decision.PLACE_RAINBOW: MoveKind.RAINBOW,
    Decision.MOVE_RAINBOW: MoveKind.SHIFT,
    Decision.SQUARE: MoveKind.SQUARE,
    Decision.VIPER: MoveKind.VIPER,
    Decision.EVIL: MoveKind.EVIL,
}


@dataclass
class Item:
    """One numbered choice of a list zone."""

    label: str
    move: Move | None
    legal: bool = True
    value: int = -1
    """The tile, pile's tile or spirit it stands for (-1: none, e.g. 'Draw two')."""


def zone_of(decision: Decision | None) -> Zone | None:
    return ZONES.get(decision) if decision is not None else None


def items_for(obs: Observation) -> list[Item]:
    """The pickable items of a list zone, in the order the digits/letters pick them."""
    d = obs.decision
    legal = set(obs.legal_moves)
    items: list[Item] = []
    if d in (Decision.PLAY, Decision.DEER):
        kind = MoveKind.PLAY if d is Decision.PLAY else MoveKind.DEER
        for tile in obs.hand:
            mv = Move(kind, tile)
            items.append(Item(NAMES[tile], mv, mv in legal, tile))
    elif d in (Decision.CAPTURE, Decision.BEETLE):
        kind = MoveKind.CAPTURE if d is Decision.CAPTURE else MoveKind.BEETLE
        for tile, _down in obs.display:
            mv = Move(kind, tile)
            items.append(Item(NAMES[tile], mv, mv in legal, tile))
    elif d is Decision.ENCOUNTER:
        draw = Move(MoveKind.DRAW)
        items.append(Item("Draw two", draw, draw in legal))
        for spirit in dict.fromkeys(obs.spirit_line):  # in the order the line shows them
            mv = Move(MoveKind.TAKE, int(spirit))
            items.append(Item(f"Take {spirit.title}", mv, mv in legal, int(spirit)))
    elif d is Decision.KEEP:
        for kept in obs.context:
            mv = Move(MoveKind.KEEP, kept)
            items.append(Item(f"Keep {Spirit(kept).title}", mv, mv in legal, kept))
    elif d is Decision.COVER:
        holder = obs.context[0]
        for spirit, _sq in obs.panoramas[holder].spirits:
            mv = Move(MoveKind.COVER, int(spirit))
            items.append(Item(f"Cover {Spirit(spirit).title}", mv, mv in legal, int(spirit)))
    elif d is Decision.RENARD:
        for mv in obs.legal_moves:
            items.append(Item(NAMES[mv.arg], mv, True, mv.arg))
    return items


def cell_targets(obs: Observation) -> frozenset[int]:
    """Cells (or squares' lower-left cells) the pending cell decision may pick."""
    return frozenset(mv.arg for mv in obs.legal_moves if mv.arg >= 0)


def cell_move(decision: Decision, cell: int) -> Move:
    return Move(CELL_KIND[decision], cell)


def item_effect(obs: Observation, item: Item) -> str:
    """A spirit item's effect, for the prompt's second line."""
    if item.move is None or item.value < 0:
        return ""
    if obs.decision in (Decision.ENCOUNTER, Decision.KEEP, Decision.COVER):
        spirit = Spirit(item.value)
        return f"{spirit.title}: {spirit.effect}"
    return ""


def step_cursor(cursor: int | None, dx: int, dy: int, square_mode: bool) -> int:
    """The cell (or square) next to ``cursor`` in a direction, staying on the board."""
    valid = SQUARES if square_mode else CELLS
    if cursor is None:
        return valid[0]
    row, col = ROW_OF[cursor] + dy, COL_OF[cursor] + dx
    row = min(max(row, 1), 6)
    columns = [c for c in range(1, 11) if cell_index(row, c) in valid]
    if not columns:
        return cursor
    col = min(columns, key=lambda c: (abs(c - col), c))
    target = cell_index(row, col)
    return target if target in NAMES and (target in valid) else cursor

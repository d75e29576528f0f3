"""How a pending decision maps onto the board: which zone answers it and with what items.

Pure logic (no Textual), so the game screen stays small and tests can check it directly.
Zones: ``hand`` (your tiles), ``display`` (piles), ``spirits`` (draw/take/keep/cover),
``opp_hand`` (Renard), ``mine`` and ``theirs`` (panorama cells or squares).
"""

from __future__ import annotations

from ..core import Decision, Move, MoveKind, Observation, Spirit
from ..core.board import NAMES
from ..widgets.view import Item

ZONES: dict[Decision, str] = {
    Decision.PLAY: "hand",
    Decision.DEER: "hand",
    Decision.CAPTURE: "display",
    Decision.BEETLE: "display",
    Decision.ENCOUNTER: "spirits",
    Decision.KEEP: "spirits",
    Decision.COVER: "spirits",
    Decision.RENARD: "opp_hand",
    Decision.PLACE_RAINBOW: "mine",
    Decision.MOVE_RAINBOW: "mine",
    Decision.SQUARE: "mine",
    Decision.VIPER: "theirs",
    Decision.EVIL: "theirs",
}

CELL_KIND: dict[Decision, MoveKind] = {
    Decision.PLACE_RAINBOW: MoveKind.RAINBOW,
    Decision.MOVE_RAINBOW: MoveKind.SHIFT,
    Decision.SQUARE: MoveKind.SQUARE,
    Decision.VIPER: MoveKind.VIPER,
    Decision.EVIL: MoveKind.EVIL,
}

#: What the digits / letters / cursor do for each zone (the prompt's second line).
ZONE_KEYS: dict[str, str] = {
    "hand": "1 to {n} or ←→ pick a tile · Enter plays it",
    "display": "A to {L} or ←→ pick a pile · Enter takes it",
    "spirits": "1 to {n} or ←→ choose · Enter confirms",
    "opp_hand": "1 to {n} or ←→ pick their tile · Enter confirms",
    "mine": "arrows/hjkl move · Tab next target · Enter confirms",
    "theirs": "arrows/hjkl move · Tab next target · Enter confirms",
}


#: Added to the display zone's keys when Esc can take back the tile just played.
ESC_BACK = " · Esc back"


def zone_of(decision: Decision | None) -> str | None:
    return ZONES.get(decision) if decision is not None else None


def items_for(obs: Observation, their_hand: tuple[int, ...] | None) -> list[Item]:
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
        for spirit in sorted(set(obs.spirit_line)):
            mv = Move(MoveKind.TAKE, int(spirit))
            items.append(Item(f"Take {spirit.title}", mv, mv in legal, int(spirit)))
    elif d is Decision.KEEP:
        for spirit in obs.context:
            mv = Move(MoveKind.KEEP, int(spirit))
            items.append(Item(f"Keep {Spirit(spirit).title}", mv, mv in legal, int(spirit)))
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

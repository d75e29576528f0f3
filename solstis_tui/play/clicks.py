"""What a mouse click on the board means for the pending decision.

A click names a widget's thing (``widgets.clicks.Target``: an item of a list, a panorama
cell or a square's mark). ``click_choice`` turns it into the choice the keys would make
(``("item", index)`` or ``("cell", cell)``) or the reason it does nothing now.
"""

from __future__ import annotations

from ..core import Decision
from ..core.board import SQUARES
from .view import BoardView
from .zones import CELL_ZONES, Zone

#: A choice a click makes: ("item", index) in a list zone or ("cell", cell) on a panorama.
Choice = tuple[str, int]

#: Why a click did nothing, by the zone that was clicked.
WRONG_PLACE: dict[str, str] = {
    Zone.HAND: "your hand is not asked for now",
    Zone.DISPLAY: "piles are picked only to capture or for the Beetle",
    Zone.SPIRITS: "no spirit choice is asked for now",
    Zone.OPP_HAND: "their tiles are picked only for the Renard",
}


def click_choice(view: BoardView, kind: str, where: str, value: int) -> Choice | str | None:
    """The choice a click on (``kind``, ``where``, ``value``) makes, a refusal to show,
    or None (an item number past the list: nothing to say)."""
    zone = view.zone
    if kind == "square" and zone is Zone.SPIRITS:  # the Evil Spirit covers a spirit
        spirit = spirit_on(view, where, value)
        match = [i for i, it in enumerate(view.items) if it.value == spirit]
        if spirit is None or not match or view.obs.decision is not Decision.COVER:
            return "pick one of the numbered choices"
        return ("item", match[0])
    if kind == "item":
        if where != zone:
            return WRONG_PLACE.get(where, "that does nothing now")
        return ("item", value) if 0 <= value < len(view.items) else None
    if zone not in CELL_ZONES:
        return "no panorama cell is asked for now"
    if where != zone:
        owner = view.names[view.me if zone is Zone.MINE else 1 - view.me]
        return f"pick on {owner}'s panorama" if zone is Zone.THEIRS \
            else "pick on your own panorama"
    cell = square_for(view, kind, value) if view.square_mode else \
        (value if kind == "cell" else None)
    if cell is None:
        return "click a square's ◇ mark" if view.square_mode else "click a cell"
    return ("cell", cell)


def square_for(view: BoardView, kind: str, value: int) -> int | None:
    """The square a click means: the one clicked, or a target square holding the cell."""
    if kind == "square":
        return value if value in SQUARES else None
    around = (value, value - 1, value - 10, value - 11)
    for pool in (view.targets, SQUARES):
        for sq in around:
            if sq in pool:
                return sq
    return None


def spirit_on(view: BoardView, side: str, square: int) -> int | None:
    """The spirit on ``square`` of the panorama on ``side`` (mine / theirs), if any."""
    player = view.me if side == Zone.MINE else 1 - view.me
    for spirit, sq in view.obs.panoramas[player].spirits:
        if sq == square:
            return int(spirit)
    return None

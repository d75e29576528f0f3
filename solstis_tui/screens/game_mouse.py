"""The game screen's mouse: a click picks, a second click on the same thing confirms.

A mixin for ``GameScreen`` (like ``GameKeys``); ``self`` is the screen. The board widgets
post ``BoardClick`` with what lay under the pointer (see ``widgets.clicks``). A click only
ever picks what the keys could pick; confirming goes through the same ``action_confirm``,
so an illegal choice shows the engine's reason on the prompt line.
"""

from __future__ import annotations

from ..core import Decision
from ..core.board import SQUARES
from ..widgets.clicks import BoardClick

#: Why a click did nothing, by the zone that was clicked.
_WRONG_PLACE = {
    "hand": "your hand is not asked for now",
    "display": "piles are picked only to capture or for the Beetle",
    "spirits": "no spirit choice is asked for now",
    "opp_hand": "their tiles are picked only for the Renard",
}


class GameMouse:
    """Handles ``BoardClick`` from the hand, the display, the spirit pool and the panoramas."""

    #: (decision key, what) of the last click that picked something; a click on the
    #: same thing, still picked, confirms it.
    last_click: tuple | None = None

    def on_board_click(self, message: BoardClick) -> None:
        message.stop()
        kind, where, value = message.target
        view, zone = self.view, self._zone()
        if view is None or zone is None:
            self._not_now()
            return
        if kind == "square" and zone == "spirits":
            spirit = self._spirit_on(where, value)
            match = [i for i, it in enumerate(view.items) if it.value == spirit]
            if spirit is None or not match or view.obs.decision is not Decision.COVER:
                self._say_error("pick one of the numbered choices")
                return
            kind, where, value = "item", "spirits", match[0]
        if kind == "item":
            if where != zone:
                self._say_error(_WRONG_PLACE.get(where, "that does nothing now"))
            elif 0 <= value < len(view.items):
                self._click_pick(("item", value))
            return
        if zone not in ("mine", "theirs"):
            self._say_error("no panorama cell is asked for now")
            return
        if where != zone:
            owner = view.names[view.me if zone == "mine" else 1 - view.me]
            self._say_error(f"pick on {owner}'s panorama" if zone == "theirs"
                            else "pick on your own panorama")
            return
        cell = self._square_for(kind, value) if view.square_mode else \
            (value if kind == "cell" else None)
        if cell is None:
            self._say_error("click a square's ◇ mark" if view.square_mode else
                            "click a cell")
            return
        self._click_pick(("cell", cell))

    # ------------------------------------------------------------------ helpers
    def _click_pick(self, what: tuple[str, int]) -> None:
        """Pick ``what``; confirm it if the previous click picked it and it is still picked."""
        key = (self.decision_key, what)
        if self.last_click == key and self._picked() == what:
            self.last_click = None
            self.action_confirm()
            return
        kind, value = what
        if kind == "item":
            self.selected = value
        else:
            self.cursor = value
        self.last_click = key
        self.error, self.hint_may_select = "", False
        self.refresh_board()

    def _picked(self) -> tuple[str, int] | None:
        zone = self._zone()
        if zone in ("mine", "theirs"):
            return ("cell", self.cursor) if self.cursor is not None else None
        return ("item", self.selected)

    def _square_for(self, kind: str, value: int) -> int | None:
        """The square a click means: the one clicked, or a target square holding the cell."""
        if kind == "square":
            return value if value in SQUARES else None
        targets = self.view.targets
        around = (value, value - 1, value - 10, value - 11)
        for pool in (targets, SQUARES):
            for sq in around:
                if sq in pool:
                    return sq
        return None

    def _spirit_on(self, side: str, square: int) -> int | None:
        view = self.view
        player = view.me if side == "mine" else 1 - view.me
        for spirit, sq in view.obs.panoramas[player].spirits:
            if sq == square:
                return int(spirit)
        return None

    def _say_error(self, text: str) -> None:
        self.error = text
        self.update_prompt()

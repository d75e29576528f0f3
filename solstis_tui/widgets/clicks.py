"""Mouse support for the board widgets: clickable spans and the message a click posts.

A widget tags the characters of a pickable thing (a hand tile, a pile, a spirit choice, a
panorama cell or square) with Rich style meta; Textual hands that style back on a click
(``Click.style``), so a click maps to what was drawn under the pointer, wrapping included.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message

META_KEY = "solstis-pick"

#: What a click picks: ``(kind, where, value)``. Kinds: ``item`` (where is a zone: hand,
#: display, spirits, opp_hand; value an index), ``cell`` and ``square`` (where is mine or
#: theirs; value a cell index), ``spirit`` (where is mine or theirs; value a spirit).
Target = tuple[str, str, int]


def tag(text: Text, start: int, target: Target, end: int | None = None) -> None:
    """Make ``text[start:end]`` (to its end by default) answer clicks with ``target``."""
    end = len(text) if end is None else end
    if end > start:
        text.stylize(Style.from_meta({META_KEY: list(target)}), start, end)


class BoardClick(Message):
    """A board widget was clicked on something pickable."""

    def __init__(self, target: Target) -> None:
        super().__init__()
        self.target = target


class Clickable:
    """Mixin for a board widget: a click on a tagged span posts ``BoardClick``."""

    post_message: Callable[[Message], bool]

    def on_click(self, event: events.Click) -> None:
        raw = event.style.meta.get(META_KEY)
        if not raw or len(raw) != 3:
            return
        event.stop()
        kind, where, value = raw
        self.post_message(BoardClick((str(kind), str(where), int(value))))

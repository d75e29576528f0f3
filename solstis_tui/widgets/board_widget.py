"""The base of the board's widgets: each draws its part from the current ``BoardView``."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from .clicks import Clickable
from .view import BoardView


class BoardWidget(Clickable, Static):
    """Keeps the last view, draws it with ``draw`` and draws again when the theme changes."""

    view: BoardView | None = None

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.redraw())

    def show(self, view: BoardView) -> None:
        self.view = view
        self.redraw()

    def redraw(self) -> None:
        if self.view is not None:
            self.update(self.draw(self.view))

    def draw(self, view: BoardView) -> Text:
        """This widget's part of the board (subclasses draw something)."""
        return Text()

"""The game log: every move in plain words, scrollable."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

from .view import asciify


class GameLog(RichLog):
    """A read-only log; turn headers dimmed, the rest as plain sentences."""

    DEFAULT_CSS = """
    GameLog { height: 1fr; padding: 0 1; background: $surface; scrollbar-size-vertical: 1; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, auto_scroll=True,
                         min_width=20, **kwargs)
        self.can_focus = False
        self.lines_text: list[str] = []
        self.wrapped_at = 0
        """The width the written lines were wrapped to (0: not known yet)."""

    def add(self, lines: list[str]) -> None:
        for line in lines:
            self.lines_text.append(line)
            style = "dim" if line.startswith("—") else ""
            if getattr(self.app, "ascii_mode", False):
                line = asciify(line)
            self.write(Text(line, style=style))

    def on_resize(self, event: Resize) -> None:
        """Wrap every line again for the new width (a line written while the window was
        narrow would otherwise stay broken after it grows)."""
        super().on_resize(event)
        width = event.size.width
        if not width or width == self.wrapped_at:
            return
        rewrap = self.wrapped_at != 0 and bool(self.lines_text)
        self.wrapped_at = width
        if rewrap:
            self.reset(list(self.lines_text))

    def reset(self, lines: list[str]) -> None:
        self.clear()
        self.lines_text = []
        self.add(lines)

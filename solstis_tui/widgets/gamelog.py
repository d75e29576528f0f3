"""The game log: every move in plain words, scrollable."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from .view import asciify


class GameLog(RichLog):
    """A read-only log; turn headers dimmed, the rest as plain sentences."""

    DEFAULT_CSS = """
    GameLog { height: 1fr; padding: 0 1; background: $surface; scrollbar-size-vertical: 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, auto_scroll=True,
                         min_width=20, **kwargs)
        self.can_focus = False
        self.lines_text: list[str] = []

    def add(self, lines: list[str]) -> None:
        for line in lines:
            self.lines_text.append(line)
            style = "dim" if line.startswith("—") else ""
            if getattr(self.app, "ascii_mode", False):
                line = asciify(line)
            self.write(Text(line, style=style))

    def reset(self, lines: list[str]) -> None:
        self.clear()
        self.lines_text = []
        self.add(lines)

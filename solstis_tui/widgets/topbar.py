"""The top bar: variant, seed, turn and mode."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class TopBar(Static):
    """``Solstis · base · seed 3 · turn 12 · you vs Minimax bot``."""

    DEFAULT_CSS = """
    TopBar { height: 1; background: $primary; color: $text; padding: 0 1; text-style: bold; }
    """

    def say(self, text: str) -> None:
        self.update(Text(text, no_wrap=True, overflow="ellipsis"))

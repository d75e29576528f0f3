"""A plain message with a title; Enter or Esc closes it."""

from __future__ import annotations

import re

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

#: The text's width in the dialog (70 columns less the border and the padding).
TEXT_WIDTH = 64


def fold_paths(text: str, width: int = TEXT_WIDTH) -> str:
    """``text`` with each path too long for a line broken after a '/' (at a name's end)
    rather than wherever the line runs out, which cut file names in two."""

    def fold(match: re.Match[str]) -> str:
        path = match.group(0)
        if len(path) <= width:
            return path
        lines, line = [], ""
        for part in re.findall(r"[^/]*/|[^/]+$", path):
            if line and len(line) + len(part) > width:
                lines.append(line)
                line = ""
            line += part
        return "\n".join([*lines, line])

    return re.sub(r"\S*/\S+", fold, text)


class MessageScreen(ModalScreen[None]):
    BINDINGS = [Binding("enter,escape,space", "close", "OK")]
    DEFAULT_CSS = """
    MessageScreen { align: center middle; }
    MessageScreen Vertical { width: 70; height: auto; border: thick $warning;
        background: $surface; padding: 1 2; }
    MessageScreen #title { text-style: bold; color: $warning; }
    """

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, id="title", markup=False)
            yield Static(fold_paths(self.text), markup=False)
            yield Static("\nEnter: OK", markup=False)

    def action_close(self) -> None:
        self.dismiss(None)

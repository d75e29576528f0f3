"""A plain message with a title; Enter or Esc closes it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


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
            yield Static(self.text, markup=False)
            yield Static("\nEnter: OK", markup=False)

    def action_close(self) -> None:
        self.dismiss(None)

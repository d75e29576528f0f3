"""At start: an unfinished game is saved; continue it or start a new one?"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class ContinueScreen(ModalScreen[str]):
    """Dismisses with 'continue' (c / Enter) or 'new' (n / Esc)."""

    BINDINGS = [Binding("c,enter", "choose('continue')", "Continue"),
                Binding("n,escape", "choose('new')", "New game"),
                Binding("q", "app.quit", "Quit")]
    DEFAULT_CSS = """
    ContinueScreen { align: center middle; }
    ContinueScreen Vertical { width: 64; height: auto; border: thick $primary;
        background: $surface; padding: 1 2; }
    """

    def __init__(self, summary: str) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text.assemble(("Continue your last game?", "bold"), "\n\n",
                                       self.summary,
                                       "\n\nc / Enter: continue   n: new game   q: quit"))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

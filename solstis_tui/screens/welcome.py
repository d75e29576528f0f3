"""The first run's offer: learn the game with the tutorial, or skip to a game."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class WelcomeScreen(ModalScreen[str]):
    """Dismisses with 'learn' (l / Enter) or 'skip' (s / Esc); either answer is final."""

    BINDINGS = [Binding("l,enter", "choose('learn')", "Learn"),
                Binding("s,escape", "choose('skip')", "Skip"),
                Binding("q", "app.quit", "Quit")]
    DEFAULT_CSS = """
    WelcomeScreen { align: center middle; }
    WelcomeScreen Vertical { width: 66; height: auto; border: thick $primary;
        background: $surface; padding: 1 2; }
    """

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text.assemble(
                ("Welcome to Solstis!", "bold"), "\n\n",
                "New to the game? A short guided game teaches the rules by playing "
                "them, step by step (about 5 minutes; 'solstis learn' opens it later).",
                "\n\nl / Enter: learn   s: skip to a game   q: quit\n\n",
                ("Either way, this question is not asked again.", "dim")))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

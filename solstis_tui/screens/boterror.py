"""A bot failed: say so and offer to go on with a fallback move (never die)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class BotErrorScreen(ModalScreen[str]):
    """Enter continues with the fallback move; r asks the bot again."""

    BINDINGS = [Binding("enter", "choose('fallback')", "Continue"),
                Binding("r", "choose('retry')", "Retry")]
    DEFAULT_CSS = """
    BotErrorScreen { align: center middle; }
    BotErrorScreen Vertical { width: 70; height: auto; border: thick $error;
        background: $surface; padding: 1 2; }
    """

    def __init__(self, message: str, fallback: str) -> None:
        super().__init__()
        self.message = message
        self.fallback = fallback

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text.assemble(("The bot ran into a problem.", "bold"), "\n\n",
                                       self.message))
            yield Static(f"\nEnter: continue with a fallback move ({self.fallback})\n"
                         "r: ask the bot again", markup=False)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

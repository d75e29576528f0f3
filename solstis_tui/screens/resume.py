"""Questions asked by a key at start: continue the saved game? (and the base of others)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class Question(ModalScreen[str]):
    """A boxed text answered by a key; subclasses bind keys to ``choose('word')``, and the
    screen dismisses with that word."""

    DEFAULT_CSS = """
    Question { align: center middle; }
    Question Vertical { width: 66; height: auto; border: thick $primary;
        background: $surface; padding: 1 2; }
    """

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.text)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


class ContinueScreen(Question):
    """Dismisses with 'continue' (c / Enter) or 'new' (n / Esc). ``new`` names the game the
    command-line options asked for, which would replace the saved one."""

    BINDINGS = [Binding("c,enter", "choose('continue')", "Continue"),
                Binding("n,escape", "choose('new')", "New game"),
                Binding("q", "app.quit", "Quit")]

    def __init__(self, summary: str, new: str = "") -> None:
        self.summary = summary
        asked = ("\n\nYour options ask for a new game: ", new,
                 ". Starting it replaces the saved game.") if new else ()
        keys = "c / Enter: continue it   n: start the new game   q: quit" if new else \
            "c / Enter: continue   n: new game   q: quit"
        super().__init__(Text.assemble(("Continue your last game?", "bold"), "\n\n", summary,
                                       *asked, "\n\n", keys))

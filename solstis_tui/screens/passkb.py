"""Hot-seat: hide the board between two people's turns."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

#: The key that shows the next player's board. The game screen binds no lowercase "s" (its
#: piles are capitals), and Enter and space, which confirm a move, do nothing here: a
#: confirm pressed twice, or typed ahead, never reveals the other player's hand.
SHOW_KEY = "s"


class PassScreen(Screen[None]):
    """A blank screen saying whose turn it is; s (and only s) shows that player's board."""

    BINDINGS = [Binding(SHOW_KEY, "ready", "Show my hand"),
                Binding("enter,space", "not_ready", show=False),
                Binding("q", "app.quit", "Quit")]
    DEFAULT_CSS = """
    PassScreen { align: center middle; background: $background; }
    PassScreen Static { width: auto; height: auto; padding: 1 4; border: thick $accent;
        text-align: center; text-style: bold; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player_name = name

    def compose(self) -> ComposeResult:
        yield Static(self._text())

    def _text(self, note: str = "") -> Text:
        return Text(f"Pass the keyboard to {self.player_name}.\n\n"
                    f"{self.player_name}: press {SHOW_KEY} when the other player looks "
                    f"away.{note}")

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_not_ready(self) -> None:
        """Enter or space: the last player's confirm, pressed once too often; say so."""
        self.query_one(Static).update(self._text(
            f"\n\n(Enter does not show the hand here: press {SHOW_KEY}.)"))

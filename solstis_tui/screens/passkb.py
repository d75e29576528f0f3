"""Hot-seat: hide the board between two people's turns."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static


class PassScreen(Screen[None]):
    """A blank screen saying whose turn it is; Enter shows that player's board."""

    BINDINGS = [Binding("enter,space", "ready", "Ready"), Binding("q", "app.quit", "Quit")]
    DEFAULT_CSS = """
    PassScreen { align: center middle; background: $background; }
    PassScreen Static { width: auto; height: auto; padding: 1 4; border: thick $accent;
        text-align: center; text-style: bold; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player_name = name

    def compose(self) -> ComposeResult:
        yield Static(f"Pass the keyboard to {self.player_name}.\n\n"
                     f"{self.player_name}: press Enter when the other player looks away.",
                     markup=False)

    def action_ready(self) -> None:
        self.dismiss(None)

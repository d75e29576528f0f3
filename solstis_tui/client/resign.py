"""Asking before a resignation: one stray key must not give a game away."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class ResignScreen(ModalScreen[bool]):
    """Returns True on ``y`` (resign), False on any other key (play on)."""

    DEFAULT_CSS = """
    ResignScreen { align: center middle; }
    ResignScreen Vertical { width: 60; height: auto; border: round $error;
        background: $surface; padding: 0 1; }
    """

    def __init__(self, rated: bool = False) -> None:
        super().__init__()
        self.rated = rated

    def compose(self) -> ComposeResult:
        counts = " and counts in your rating" if self.rated else ""
        with Vertical():
            yield Static(f"Resign this game? It ends now as your loss{counts}.",
                         markup=False)
            yield Static("y resigns · any other key plays on", markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(event.key == "y")

"""A one-line box for a new name (``n`` in the lobby; for players the host knows by their
key or account: their former names stay theirs)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ..wire.protocol import MAX_NAME


class RenameScreen(ModalScreen[str | None]):
    """Returns the name typed (stripped, never empty) on Enter, or None on Esc."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    RenameScreen { align: center middle; }
    RenameScreen Vertical { width: 64; height: auto; border: round $accent;
        background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Your new name (your former names stay yours) · Enter changes it · "
                         "Esc cancels", markup=False)
            yield Input(max_length=4 * MAX_NAME, id="new-name")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)

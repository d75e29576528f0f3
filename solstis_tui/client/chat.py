"""A one-line box for a chat message to everyone at the table (online play), under the
last lines said there."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ..wire.protocol import MAX_CHAT


class ChatScreen(ModalScreen[str | None]):
    """Returns the text typed (stripped, never empty) on Enter, or None on Esc."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    ChatScreen { align: center bottom; }
    ChatScreen Vertical { width: 76; height: auto; border: round $accent;
        background: $surface; padding: 0 1; margin-bottom: 2; }
    """

    #: How many of the last lines said the box shows above the input.
    SHOWN = 6

    def __init__(self, history: list[str] | None = None) -> None:
        super().__init__()
        self.history = list(history or [])

    def compose(self) -> ComposeResult:
        with Vertical():
            if self.history:  # people's words: text, never markup
                yield Static("\n".join(self.history[-self.SHOWN:]), id="chat-history",
                             markup=False)
            yield Static(f"Say to the table (up to {MAX_CHAT} characters) · Enter sends · "
                         "Esc cancels", markup=False)
            yield Input(max_length=MAX_CHAT, id="chat-text")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss(text or None)

    def action_cancel(self) -> None:
        self.dismiss(None)

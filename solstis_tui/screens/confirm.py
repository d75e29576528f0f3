"""Asking before a step that cannot be taken back (resigning, leaving a table for good,
quitting with a practice game that is not kept): one stray key must not give a game
away."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class ConfirmScreen(ModalScreen[bool]):
    """``question``, then ``answers`` (what y and the other keys do); returns True on ``y``,
    False on any other key, or, given ``only``, False on those keys alone (the others
    are ignored: a key typed for something else answers nothing)."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen Vertical { width: 60; height: auto; border: round $error;
        background: $surface; padding: 0 1; }
    """

    def __init__(self, question: str, answers: str, only: frozenset[str] | None = None) -> None:
        super().__init__()
        self.question = question
        self.answers = answers
        self.only = only

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, markup=False)
            yield Static(self.answers, markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if event.key == "y" or self.only is None or event.key in self.only:
            self.dismiss(event.key == "y")

"""The first run's offer: learn the game with the tutorial, or skip to a game."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding

from .resume import Question


class WelcomeScreen(Question):
    """Dismisses with 'learn' (l / Enter) or 'skip' (s / Esc); either answer is final."""

    BINDINGS = [Binding("l,enter", "choose('learn')", "Learn"),
                Binding("s,escape", "choose('skip')", "Skip"),
                Binding("q", "app.quit", "Quit")]

    def __init__(self) -> None:
        super().__init__(Text.assemble(
            ("Welcome to Solstis!", "bold"), "\n\n",
            "New to the game? A short guided game teaches the rules by playing them, step "
            "by step (about 5 minutes; 'solstis learn' opens it later).",
            "\n\nl / Enter: learn   s: skip to a game   q: quit\n\n",
            ("Learn or skip: either way, this question is not asked again.", "dim")))

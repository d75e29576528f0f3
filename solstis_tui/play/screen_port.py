"""What a game's controller asks of the screen that shows it: the ``ScreenPort``.

The controller decides and the screen draws and runs: a redraw, the log, the autosave, a
bot's search or a hint found away from the screen, a timer, a dialog. Tests implement it
with a port that records.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from solstis_tui.ai.base import Chooser

from ..core import Observation
from .pacing import Cancellable


class ScreenPort(Protocol):
    """What the controller asks of the screen that shows it."""

    def redraw(self) -> None:
        """Draw the board and the prompt again (``board()``, ``prompt()``)."""

    def redraw_prompt(self) -> None:
        """Draw the prompt line again (``prompt()``)."""

    def log_lines(self, lines: list[str], reset: bool) -> None:
        """Add narrated lines to the game log (after clearing it, with ``reset``)."""

    def save(self) -> None:
        """Keep the game as it stands (the autosave)."""

    def game_over(self, obs: Observation) -> None:
        """Show the finished game (the score sheet and what next)."""

    def pass_keyboard(self, name: str) -> None:
        """Ask for the keyboard to go to ``name``; then call the controller's ``passed``."""

    def think(self, token: int, bot: Chooser, obs: Observation,
              cancel: threading.Event) -> None:
        """Run ``bot`` on ``obs`` away from the screen; then ``BotTurns.done`` or
        ``BotTurns.failed`` with ``token`` (on the screen's thread)."""

    def find_hint(self, token: int, obs: Observation, cancel: threading.Event) -> None:
        """Find the hint for ``obs`` away from the screen (``hints.answer``, stopping once
        ``cancel`` is set); then the controller's ``hint_ready`` (or ``hint_failed``) with
        ``token``."""

    def later(self, seconds: float, callback: Callable[[], None]) -> Cancellable:
        """Call ``callback`` on the screen's thread after ``seconds``."""

    def bot_error(self, message: str, fallback: str) -> None:
        """Say a bot failed; then ``BotTurns.after_error`` with the person's choice."""

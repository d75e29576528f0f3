"""What the game screen asks of the application it runs in (so it never imports the app).

``SolstisApp`` (and ``OnlineApp``) implement ``AppServices``; the game screen reaches them
through ``self.app``, typed by this protocol.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ..core import Decision, Observation
from ..play.session_view import SessionView

if TYPE_CHECKING:
    from ..coach.hints import Answer


class AppServices(Protocol):
    """The screens, saves and bot rankings the game screen opens or asks for."""

    ascii_mode: bool

    def show_end(self, session: SessionView, obs: Observation) -> None: ...

    def show_review(self, session: SessionView) -> None: ...

    def pass_keyboard(self, name: str, callback: Callable[[object], None]) -> None: ...

    def bot_error(self, message: str, fallback: str,
                  callback: Callable[[str | None], None]) -> None: ...

    def show_help(self, decision: Decision | None = None, keys: str = "",
                  variant: str = "base", deciding: str = "") -> None: ...

    def show_log(self, lines: list[str]) -> None: ...

    def show_spirits(self, obs: Observation) -> None: ...

    def open_new_game(self) -> None: ...

    def autosave(self, session: SessionView) -> None: ...

    def judge_hint(self, obs: Observation, names: tuple[str, str],
                   cancel: threading.Event | None = None) -> Answer: ...

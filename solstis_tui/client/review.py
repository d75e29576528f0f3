"""Reviewing a game played at the host: its record, fetched once the game is over, opened
on the screen ``solstis review FILE`` opens for a record.

``open_review`` is the one place the online app reaches that screen: the rest of the
client knows only a ``GameRecord`` and the seat reviewed.
"""

from __future__ import annotations

import threading
from typing import Any

from textual.app import App

from ..core import Move, Observation
from ..local.bot_process import BotProcess
from ..local.session import STRONGEST
from ..records import GameRecord


def open_review(app: App[Any], record: GameRecord, seat: int | None) -> None:
    """Open the review of ``record`` on ``app``, from ``seat``'s side (0 or 1; None: a
    game the player watched). The review's bot judges each decision from the observation
    its player had then (see ``screens.review``)."""
    from ..records_cli import session_of
    from ..screens.review import ReviewScreen

    ranker: Ranker | None = getattr(app, "ranker", None)
    if ranker is None:
        ranker = Ranker()
        app.ranker = ranker  # type: ignore[attr-defined]
    app.push_screen(ReviewScreen(session_of(record), ranker.rank_moves))


class Ranker:
    """The strongest bot, in a process of its own, ranking the review's positions (made
    when the first review opens; ``close`` ends it)."""

    def __init__(self, spec: str = STRONGEST) -> None:
        self.spec = spec
        self.bot: BotProcess | None = None

    def rank_moves(self, obs: Observation, seconds: float,
                   cancel: threading.Event | None = None) -> list[tuple[Move, float]]:
        """The bot's ranking of ``obs``'s legal moves, best first (values capped so none
        beats a move ranked above it); BotFailed if its process failed."""
        from solstis_tui.ai.base import Budget, capped

        if self.bot is None:
            self.bot = BotProcess(self.spec, 12345, solo=True)
        return capped(list(self.bot.rank(obs, Budget(seconds=seconds), cancel, fresh=True)))

    def close(self) -> None:
        if self.bot is not None:
            self.bot.close()
            self.bot = None

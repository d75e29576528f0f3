"""The game log as one game screen narrates it, a turn at a time.

``GameLog`` knows how far the log has been narrated and narrates what happened since
(``words.narrate``) to the screen's log (``ScreenPort.log_lines``), as the seat the screen
shows (``viewer``) reads it. A tile played, a second chance or spirits drawn wait while
more of the same turn may follow, so that a turn reads as one. The events it narrates are
made once for each state of the game and seat shown (``SessionView.shown_log``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.events import Event, Played, SecondChance, SpiritsDrawn
from ..words.narrate import narrate, turn_summary
from .screen_port import ScreenPort
from .session_view import SessionView

#: Log events held back while more of the same turn may follow (narrated together).
MERGEABLE = (Played, SecondChance, SpiritsDrawn)


class GameLog:
    """The log of ``session`` on the screen behind ``port``."""

    def __init__(self, session: SessionView, port: ScreenPort, viewer: Callable[[], int],
                 game_over: Callable[[], bool]) -> None:
        self.session = session
        self.port = port
        self.viewer = viewer
        """The seat whose view the screen shows now."""
        self.game_over = game_over
        """Whether the game is over (then a turn that may go on is narrated too)."""
        self.narrated = 0
        """How many of the shown log's events are narrated on screen."""
        self._events: tuple[tuple[int, int], tuple[Event, ...]] | None = None
        """The shown log, made once for each state of the game and seat (a cache)."""

    def events(self) -> tuple[Event, ...]:
        """The log the screen narrates (``SessionView.shown_log`` of its ``viewer``)."""
        key = (self.session.version, self.viewer())
        if self._events is None or self._events[0] != key:
            self._events = (key, self.session.shown_log(key[1]))
        return self._events[1]

    def reset(self) -> None:
        """Clear the screen's log and narrate the whole game again."""
        self.narrated = 0
        self.port.log_lines([], reset=True)
        self.update()

    def update(self) -> None:
        """Narrate what happened since the log was last brought up to date (a turn that
        may go on waits, unless the game is over)."""
        s, viewer = self.session, self.viewer()
        events = self.events()
        end = len(events)
        if not self.game_over() and end > self.narrated and \
                isinstance(events[end - 1], MERGEABLE):
            end -= 1
        if end <= self.narrated:
            return
        reader = None if s.is_hotseat or s.is_watch else viewer  # a shared screen: nobody's
        lines = narrate(events[self.narrated:end], s.name, viewer=reader)
        self.narrated = end
        self.port.log_lines(lines, reset=False)

    def last_turn(self) -> str:
        """The other player's latest turn in one line (in watch mode, the latest turn of
        either): it stays in sight however far the log has scrolled."""
        viewer = self.viewer()
        other = None if self.session.is_watch else 1 - viewer
        return turn_summary(self.events(), self.session.name, other, viewer=viewer)

"""The controller of a game played at the host: nothing decides here but the person's keys.

Bots and the other player decide at the host, which sends each new state; the screen
passes it on with ``host_update``. There is no undo, no hint and no review online.
"""

from __future__ import annotations

from typing import Protocol

from ..session_view import SessionView
from .controller import PlayController, Prompt
from .words import asked


class RemoteTable(SessionView, Protocol):
    """A table at the host as the client sees it (``client.remote.RemoteSession``)."""

    table: str
    seat: int | None

    @property
    def is_spectator(self) -> bool: ...

    def connected(self, player: int) -> bool: ...

    def in_lobby(self, player: int) -> bool: ...

    def seat_empty(self, player: int) -> bool: ...


class OnlineController(PlayController):
    """One table at the host, from the person's seat (or a watcher's)."""

    session: RemoteTable

    def viewer(self) -> int:
        return self.session.seat if self.session.seat is not None else 0

    def game_label(self) -> str:
        """The host's table id (the seed stays at the host: it would reveal the deal)."""
        return f"table {self.session.table}"

    def start_bot(self) -> None:
        """Bots and the other player decide at the host: wait for its next state."""
        self.thinking_since = None

    def after_move(self) -> None:
        """The move went to the host; its state comes back (``host_update``)."""
        self.error = ""
        self.update_log()
        self.port.redraw()

    def host_update(self) -> None:
        """A new state arrived from the host."""
        self.decision_key = None
        self.update_log()
        self.advance()

    def undo_offered(self) -> bool:
        return False

    def undo(self) -> None:
        self.say_error("online games have no undo")

    def hint(self) -> None:
        self.say_error("online games have no hints")

    def review(self) -> bool:
        self.say_error("review your games offline")
        return False

    def prompt(self) -> Prompt:
        s = self.session
        game = s.observation(self.viewer())
        if game.is_over or s.human_to_play:
            return super().prompt()
        who = s.name(game.to_play)
        doing = asked(game.decision, of_you=False)
        headline = f"Watching: {who} is to {doing}" if s.is_spectator else \
            f"Waiting for {who}: {doing}"
        detail = "o claim if out of time · c chat · x resign · q leaves the table · v log · ? help"
        if s.is_spectator:
            detail = "c chat · q leaves the table · v log · e spirits · ? help"
        if s.seat_empty(game.to_play):
            headline = "Waiting for someone to join the table"
            detail = "c chat · q leaves the table · v log · e spirits · ? help"
        elif s.in_lobby(game.to_play):
            detail = f"{who} went back to the lobby; waiting for them to come back · " + detail
        elif not s.connected(game.to_play):
            detail = f"{who} lost the connection; waiting for them to reconnect · " + detail
        return Prompt(headline, detail, self.error)

"""The game screen in online mode: moves go to the host, the other seat plays there."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Protocol, cast

from textual.binding import Binding, BindingType

from ..play.online import OnlineController
from ..screens.game import GameScreen
from ..screens.services import AppServices
from ..session_view import SessionView
from .chat import ChatScreen
from .remote import RemoteSession
from .resign import ResignScreen


class OnlineServices(AppServices, Protocol):
    """What the online game screen asks of ``OnlineApp`` besides the game screen's needs."""

    def send_chat(self, text: str) -> None: ...

    @property
    def chat_lines(self) -> list[str]: ...

    def back_to_lobby(self, leave: bool = True) -> None: ...

    def resign(self) -> None: ...

    def claim(self) -> None: ...


class OnlineGameScreen(GameScreen):
    """The game screen for a table at the host (``OnlineController``)."""

    CSS_PATH = [str(Path(__file__).resolve().parent.parent / "screens" / "game.tcss")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "chat", "Chat"),
        Binding("x", "resign", "Resign"),
        Binding("o", "claim", "Claim on time", show=False),
        # Offline-only keys stay (they explain themselves) but leave the footer.
        Binding("u", "undo", "Undo", show=False),
        Binding("t", "hint", "Hint", show=False),
        Binding("n", "new_game", "New", show=False),
    ]
    play: OnlineController

    def make_controller(self, session: SessionView, pace: float) -> OnlineController:
        return OnlineController(session, self, pace)

    @property
    def remote(self) -> RemoteSession:
        return cast(RemoteSession, self.play.session)

    @property
    def online_app(self) -> OnlineServices:
        return cast(OnlineServices, self.app)

    def host_update(self) -> None:
        """A new state arrived from the host."""
        self.play.host_update()

    def action_chat(self) -> None:
        """Type a line for everyone at the table; the host sends it round."""
        self.app.push_screen(ChatScreen(self.online_app.chat_lines), self._send_chat)

    def _send_chat(self, text: str | None) -> None:
        if text:
            self.online_app.send_chat(text)

    def action_resign(self) -> None:
        """Give the game up, once the person says yes (a stray key resigns nothing)."""
        remote = self.remote
        obs = remote.obs
        if remote.is_spectator:
            self.play.say_error("only the players can resign; a watcher leaves with q")
        elif obs is None or obs.is_over:
            self.play.say_error("the game is over")
        elif any(remote.seat_empty(p) for p in (0, 1)):
            self.play.say_error("nobody has joined yet: q leaves the table")
        else:
            rated = remote.rated
            self.app.push_screen(ResignScreen(rated), self._resign_answered)

    def action_claim(self) -> None:
        """Claim the game when the player to move is out of time (the host checks)."""
        if self.remote.is_spectator:
            self.play.say_error("only the players can claim a game on time")
        else:
            self.online_app.claim()

    def _resign_answered(self, yes: bool | None) -> None:
        if yes:
            self.online_app.resign()

    def action_new_game(self) -> None:
        self.online_app.back_to_lobby()

    def action_quit_game(self) -> None:
        self.online_app.back_to_lobby()

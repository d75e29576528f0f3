"""The game screen in online mode: moves go to the host, the other seat plays there."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Protocol, cast

from textual.binding import Binding, BindingType

from ..play.online import BAR_WIDTH, OnlineController, loss_words
from ..play.session_view import SessionView
from ..play.table_header import ClockFace
from ..screens.confirm import ConfirmScreen
from ..screens.game import GameScreen
from ..screens.services import AppServices
from ..widgets.topbar import TopBar
from ..widgets.view import asciify
from .chat import ChatScreen
from .remote import RemoteSession


class OnlineServices(AppServices, Protocol):
    """What the online game screen asks of ``OnlineApp`` besides the game screen's needs."""

    def send_chat(self, text: str) -> None: ...

    @property
    def chat_lines(self) -> list[str]: ...

    def back_to_lobby(self, leave: bool = True) -> None: ...

    def resign(self) -> None: ...

    def claim(self) -> None: ...

    def leave_for_good(self) -> None: ...


class OnlineGameScreen(GameScreen):
    """The game screen for a table at the host (``OnlineController``)."""

    CSS_PATH = [str(Path(__file__).resolve().parent.parent / "screens" / "game.tcss")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "chat", "Chat"),
        # Resigning is in the footer only for a player whose game is played (check_action)
        Binding("x", "resign", "Resign"),
        Binding("x", "resign_unavailable", "Resign", show=False),
        Binding("o", "claim", "Claim on time", show=False),
        # Leaving for good is in the footer only where it does more than q (see check_action)
        Binding("f", "leave_for_good", "Leave"),
        Binding("f", "leave_for_good_unavailable", "Leave for good", show=False),
        Binding("q", "quit_game", "Lobby"),
        Binding("e", "spirits", "Spirits", show=False),  # room for f in an 80-column footer
        # Offline-only keys stay (they explain themselves) but leave the footer.
        Binding("u", "undo", "Undo", show=False),
        Binding("t", "hint", "Hint", show=False),
        Binding("n", "new_game", "New", show=False),
    ]
    play: OnlineController
    shown_clock: ClockFace | None = None
    painted_width = 0
    """The top bar's width when it was last painted (its line is fitted to it)."""

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
        self.refresh_bindings()  # f acts or not (the game may have ended)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``f`` is in the footer only while leaving for good does more than ``q``; ``x``
        only while there is a game of the player's to resign (not to a watcher, nor once
        the game is over). Pressed anyway, either says why not."""
        if action in ("leave_for_good", "leave_for_good_unavailable") and not self.too_small:
            return self.play.leave_for_good_offered() == (action == "leave_for_good")
        if action in ("resign", "resign_unavailable") and not self.too_small:
            return self.why_not_resign() is None if action == "resign" else \
                self.why_not_resign() is not None
        return super().check_action(action, parameters)

    def why_not_resign(self) -> str | None:
        """Why there is nothing to resign here (None: there is: a player's game, both seats
        taken, not over)."""
        remote = self.remote
        obs = remote.obs
        if remote.is_spectator:
            return "only the players can resign; a watcher leaves with q"
        if obs is None or obs.is_over:
            return "the game is over"
        if any(remote.seat_empty(p) for p in (0, 1)):
            return "nobody has joined yet: f gives the table up (q keeps it)"
        return None

    def paint_top_bar(self) -> None:
        """The players with their ratings, and the move clock (the bank beside it, where
        the line has room) at the right end."""
        clock = self.shown_clock = self.play.move_clock()
        bar = self.query_one(TopBar)
        self.painted_width = width = bar.size.width or BAR_WIDTH
        face = clock.fitting(width - 1 - len(self.play.players_text())) if clock else ""
        text = self.play.top_bar(width - (len(face) + 1 if face else 0))
        if self.sapp.ascii_mode:
            text, face = asciify(text), asciify(face)
        bar.say(text, face, clock is not None and clock.urgent)

    def _tick(self) -> None:
        super()._tick()
        self.keep_top_bar()

    def on_resize(self) -> None:  # (Textual calls GameScreen's too)
        self.call_after_refresh(self.keep_top_bar)

    def keep_top_bar(self) -> None:
        """Count the move clock down between the host's states (the top bar changes once
        a second, the prompt when the time runs out), and fit the bar to a new width."""
        if not self.is_mounted:
            return
        clock, shown = self.play.move_clock(), self.shown_clock
        if clock != shown or self.query_one(TopBar).size.width != self.painted_width:
            self.paint_top_bar()
            if (clock is not None and clock.out) != (shown is not None and shown.out):
                self.redraw_prompt()

    def action_chat(self) -> None:
        """Type a line for everyone at the table; the host sends it round."""
        self.app.push_screen(ChatScreen(self.online_app.chat_lines), self._send_chat)

    def _send_chat(self, text: str | None) -> None:
        if text:
            self.online_app.send_chat(text)

    def action_resign(self) -> None:
        """Give the game up, once the person says yes (a stray key resigns nothing)."""
        why_not = self.why_not_resign()
        if why_not is not None:
            self.play.say_error(why_not)
            return
        self.app.push_screen(ConfirmScreen(
            f"Resign this game? It ends now{loss_words(self.remote)}.",
            "y resigns · any other key plays on"), self._resign_answered)

    def action_resign_unavailable(self) -> None:
        """``x`` where there is nothing to resign: the prompt says why."""
        self.play.say_error(self.why_not_resign() or "")

    def action_claim(self) -> None:
        """Claim the game when the player to move is out of time (the host checks)."""
        if self.remote.is_spectator:
            self.play.say_error("only the players can claim a game on time")
        else:
            self.online_app.claim()

    def _resign_answered(self, yes: bool | None) -> None:
        if yes:
            self.online_app.resign()

    def action_leave_for_good(self) -> None:
        """Give the seat up (the table, before anyone joined; the game, as a loss), once
        the person says yes. ``q`` goes back to the lobby and keeps the seat."""
        self.app.push_screen(ConfirmScreen(
            self.play.leave_question(), "y leaves for good · any other key stays"),
            self._leave_answered)

    def action_leave_for_good_unavailable(self) -> None:
        """``f`` where it would do no more than ``q``: the prompt says why."""
        self.play.say_error(self.play.why_not_leave_for_good())

    def _leave_answered(self, yes: bool | None) -> None:
        if yes and self.play.leave_for_good_offered():
            self.online_app.leave_for_good()

    def action_new_game(self) -> None:
        self.online_app.back_to_lobby()

    def action_quit_game(self) -> None:
        self.online_app.back_to_lobby()

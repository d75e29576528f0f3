"""The game screen in online mode: moves go to the host, the other seat plays there."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, cast

from textual.binding import Binding

from ..screens.game import GameScreen
from ..screens.services import AppServices
from ..widgets.prompt import PromptLine
from .chat import ChatScreen
from .remote import RemoteSession


class OnlineServices(AppServices, Protocol):
    """What the online game screen asks of ``OnlineApp`` besides the game screen's needs."""

    def send_chat(self, text: str) -> None: ...

    def back_to_lobby(self, leave: bool = True) -> None: ...


class OnlineGameScreen(GameScreen):
    """Like the local game screen, but nothing decides here except the person's keys."""

    CSS_PATH = str(Path(__file__).resolve().parent.parent / "screens" / "game.tcss")
    BINDINGS = [
        Binding("c", "chat", "Chat"),
        # Offline-only keys stay (they explain themselves) but leave the footer.
        Binding("u", "undo", "Undo", show=False),
        Binding("t", "hint", "Hint", show=False),
        Binding("n", "new_game", "New", show=False),
    ]
    session: RemoteSession

    @property
    def online_app(self) -> OnlineServices:
        return cast(OnlineServices, self.app)

    def viewer(self) -> int:
        return self.session.seat if self.session.seat is not None else 0

    def game_label(self) -> str:
        """The host's table id (the seed stays at the host: it would reveal the deal)."""
        return f"table {self.session.table}"

    def start_bot(self) -> None:
        """Bots and the other player decide at the host; this screen waits for states."""
        self.thinking_since = None

    def after_move(self) -> None:
        self.error = ""
        self.update_log()
        self.refresh_board()

    def host_update(self) -> None:
        """A new state arrived from the host."""
        self.decision_key = None
        self.update_log()
        self.advance()

    def update_prompt(self) -> None:
        s = self.session
        if not self.is_mounted or self.view is None or s.obs is None:
            return
        game = s.obs
        if game.is_over or s.human_to_play:
            super().update_prompt()
            return
        who = s.name(game.to_play)
        prompt = game.decision.prompt if game.decision else ""
        prompt = prompt.replace("your opponent", "the opponent").replace("your ", "their ")
        if s.is_spectator:
            headline = f"Watching: {who} is to {prompt}"
        else:
            headline = f"Waiting for {who}: {prompt}"
        detail = "c chat · q leaves the table · v log · e spirits · ? help"
        if not s.connected(game.to_play):
            detail = f"{who} lost the connection; waiting for them to reconnect · " + detail
        self.query_one(PromptLine).say(headline, detail, self.error, -1, self.sapp.ascii_mode)

    def action_chat(self) -> None:
        """Type a line for everyone at the table; the host sends it round."""
        self.app.push_screen(ChatScreen(), self._send_chat)

    def _send_chat(self, text: str | None) -> None:
        if text:
            self.online_app.send_chat(text)

    def action_undo(self) -> None:
        self.error = "online games have no undo"
        self.update_prompt()

    def action_hint(self) -> None:
        self.error = "online games have no hints"
        self.update_prompt()

    def action_review(self) -> None:
        self.error = "review your games offline"
        self.update_prompt()

    def action_new_game(self) -> None:
        self.online_app.back_to_lobby()

    def action_quit_game(self) -> None:
        self.online_app.back_to_lobby()

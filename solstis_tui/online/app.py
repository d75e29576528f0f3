"""``solstis online``: the app as a client of the game host (lobby, then the game screen)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from textual import events
from textual.app import SystemCommand
from textual.notifications import SeverityLevel
from textual.screen import Screen

from ..app import SolstisApp
from ..core import Move
from .client import KEEP_ALIVE_SECONDS, HostClient, HostError
from .names import without_controls
from .protocol import VERSION, encode
from .remote import RemoteSession


class OnlineApp(SolstisApp):
    """Play at a game host. Nothing here opens a shell or writes files on the host machine."""

    CSS_PATH = str(Path(__file__).resolve().parent.parent / "app.tcss")
    keep_alive_seconds = KEEP_ALIVE_SECONDS

    def __init__(self, *, socket: Path | None = None, tcp: tuple[str, int] | None = None,
                 name: str | None = None, code: str | None = None, **kwargs: Any) -> None:
        super().__init__(autosave=False, **kwargs)
        self.socket, self.tcp = socket, tcp
        self.wanted_name, self.wanted_code = name, code
        self.client: HostClient | None = None
        self.player_name: str | None = None
        self.lobby = None
        self.remote: RemoteSession | None = None

    # ------------------------------------------------------------------ start
    def on_mount(self, event: events.Mount) -> None:
        from solstis_tui.themes import DEFAULT_THEME

        from .lobby import LobbyScreen

        event.prevent_default()  # not the local game SolstisApp starts on mount

        self.theme = self.theme_name if self.theme_name in self.available_themes else \
            DEFAULT_THEME
        self.lobby = LobbyScreen(name_known=bool(self.wanted_name or self.wanted_code))
        self.push_screen(self.lobby)
        if self.wanted_name or self.wanted_code:
            self._connect()

    def _connect(self) -> None:
        """Connect once a name or code is known: the host wants hello soon after."""
        self.run_worker(self._network(), name="host", group="host", exclusive=True)

    async def _network(self) -> None:
        last: dict[str, Any] = {}  # the host's last word: why it closed, if it said
        try:
            self.client = await HostClient.connect(self.socket, self.tcp)
            self.run_worker(self.client.keep_alive(self.keep_alive_seconds), name="keep-alive",
                            group="keep-alive", exclusive=True)
            if self.wanted_name or self.wanted_code:
                self.hello(self.wanted_name, self.wanted_code)
            while True:
                last = await self.client.receive()
                try:
                    self.on_host_message(last)
                except (KeyError, TypeError, AttributeError, ValueError, IndexError):
                    # a host that breaks the protocol costs the connection, never the app
                    kind = str(last.get("type"))[:20]
                    self.client.writer.close()
                    self.lost(f"the game host sent a {kind!r} message this program cannot "
                              "read; disconnected")
                    return
        except HostError as exc:
            said = last.get("message") if last.get("type") == "error" else None
            self.lost(f"{exc}: {said}" if isinstance(said, str) else str(exc))
        except (OSError, ValueError) as exc:
            self.lost(f"the connection to the game host failed ({exc})")

    def on_unmount(self) -> None:
        if self.client is not None:
            self.client.writer.close()
            self.client = None

    def lost(self, why: str) -> None:
        """The host is gone or was never there: say so (once the lobby is up)."""
        if self.client is not None:
            self.client.writer.close()  # hang up too: the host waits for it
        self.client = None
        self.call_after_refresh(self._say_lost, why)

    def _say_lost(self, why: str) -> None:
        if self.lobby is not None:
            self.lobby.say(f"{why}\nPress q to quit.")
        self.show_message("Disconnected", f"{why}\nYour seats are kept at the host: come "
                          "back with your resume code.")

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """A toast. Its text (chat, names, the host's words) is shown as written: unlike
        Textual's default, never read as markup."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    # ------------------------------------------------------------------ sending
    def send(self, message: dict[str, Any]) -> None:
        if self.client is None:
            self.notify("not connected to the game host", severity="error")
            return
        self.client.writer.write(encode(message))

    def hello(self, name: str | None = None, code: str | None = None) -> None:
        if self.client is None and self.player_name is None:  # connect first, then say it
            self.wanted_name, self.wanted_code = name, code
            self._connect()
            return
        message: dict[str, Any] = {"type": "hello", "version": VERSION}
        if code:
            message["code"] = code
        else:
            message["name"] = name
        if self.client is not None and self.client.token:  # a TCP host asks for its token
            message["token"] = self.client.token
        self.send(message)

    def create(self, variant: str, opponent: str, seat: int | None) -> None:
        message: dict[str, Any] = {"type": "create", "variant": variant, "opponent": opponent}
        if seat is not None:
            message["seat"] = seat
        self.send(message)

    def join(self, table: str) -> None:
        self.send({"type": "join", "table": table})

    def watch(self, table: str) -> None:
        self.send({"type": "watch", "table": table})

    def send_move(self, move: Move, seq: int) -> None:
        if self.remote is not None:
            self.send({"type": "move", "table": self.remote.table, "move": str(move),
                       "seq": seq})

    def send_chat(self, text: str) -> None:
        if self.remote is not None:
            self.send({"type": "chat", "table": self.remote.table, "text": text})

    # ------------------------------------------------------------------ receiving
    def on_host_message(self, message: dict[str, Any]) -> None:
        message = without_controls(message)  # no escape code from the wire reaches the screen
        kind = message.get("type")
        if kind == "welcome":
            self.player_name = message["name"]
            self.lobby.welcome(message["name"], message["code"])
            self.lobby.show_page(message)
        elif kind == "tables":
            self.lobby.show_page(message)
        elif kind in ("joined", "watching"):
            self.remote = RemoteSession(message["table"], self.send_move)
        elif kind == "state":
            self._state(message)
        elif kind == "chat":
            self.notify(f"{message.get('name')}: {message.get('text')}")
        elif kind == "error":
            self._error(message.get("message", "error"))
        elif kind == "closed":
            if self.remote is not None and self.remote.table == message.get("table"):
                self.back_to_lobby(leave=False)  # the table is gone: say why in the lobby
            self._error(str(message.get("message", "the host closed the table")))

    def _state(self, message: dict[str, Any]) -> None:
        remote = self.remote
        if remote is None or remote.table != message.get("table"):
            return
        remote.update(message)
        from .game_screen import OnlineGameScreen

        if self.game_screen is None or self.game_screen.session is not remote:
            while len(self.screen_stack) > 2:
                self.pop_screen()
            self.game_screen = OnlineGameScreen(remote, pace=0)
            self.push_screen(self.game_screen)
        elif self.game_screen.is_mounted:
            self.game_screen.host_update()

    def _error(self, text: str) -> None:
        screen = self.game_screen
        if screen is not None and screen.is_mounted and self.screen is screen:
            screen.error = text
            screen.update_prompt()
        elif self.lobby is not None:
            if self.player_name is None:  # hello refused (name taken, unknown code...)
                self.lobby.ask_name()
            self.lobby.say(text)

    # ------------------------------------------------------------------ navigation
    def back_to_lobby(self, leave: bool = True) -> None:
        """Back to the lobby's page, leaving the table (``leave``) unless it is gone."""
        if self.remote is not None and leave:
            self.send({"type": "leave", "table": self.remote.table})
        self.remote = None
        if self.game_screen is not None:
            self.game_screen = None
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.lobby.ask_page()  # the page the player was on

    def open_new_game(self) -> None:
        self.back_to_lobby()

    def _end_chosen(self, session: Any, choice: str | None) -> None:
        if choice == "quit":
            self.exit()
        elif choice:
            self.back_to_lobby()

    def autosave(self, session: Any) -> None:
        """Online games are saved by the host."""

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.title not in ("Screenshot", "New game", "Undo", "Hint", "Review game"):
                yield command
        yield SystemCommand("Lobby", "Leave this table for the lobby", self.back_to_lobby)

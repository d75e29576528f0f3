"""``solstis online``: the app as a client of the game host (lobby, then the game screen).

It is the application shell (``ShellApp``) with the host as its source of games: the
connection (``HostLink``), the lobby, a ``RemoteSession`` for the table open, and each host
reply read once and handed to its handler here (``REPLIES``), which routes it to the screen
it concerns. What follows a game (its end dialog, a rematch, reviews) is
``FinishedGames``'s."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.notifications import SeverityLevel
from textual.screen import Screen

from ..core import Move, Observation
from ..play.session_view import SessionView
from ..shell import ShellApp
from ..widgets.gamelog import chat_line
from ..wire import replies
from ..wire.names import without_controls
from ..wire.replies import parse_reply
from .client import KEEP_ALIVE_SECONDS, HostClient
from .finished_games import FinishedGames
from .host_link import HostLink
from .lobby import LobbyScreen
from .new_table import create_message
from .rating_notices import RatingNotices
from .remote import RemoteSession
from .review import JUDGES, open_review
from .table_keys import TABLE_KEYS

if TYPE_CHECKING:
    from ..coach.analysis import Effort
    from ..coach.hints import Answer
    from ..screens.services import AppServices
    from ..wire.tls import TlsTarget


#: Chat lines kept for the chat box's history.
CHAT_KEPT = 50


class OnlineApp(ShellApp):
    """Play at a game host. Nothing here opens a shell or writes files on the host machine."""

    keep_alive_seconds = KEEP_ALIVE_SECONDS
    more_keys = TABLE_KEYS
    #: The analysis board's judge: its effort (None: the analysis's) and processes.
    review_effort: Effort | None = None
    review_workers: int = JUDGES

    def __init__(self, *, socket: Path | None = None, tcp: tuple[str, int] | None = None,
                 name: str | None = None, code: str | None = None,
                 theme_name: str | None = None, ascii_mode: bool = False,
                 ssh_key: str | None = None, tls: TlsTarget | None = None) -> None:
        super().__init__(theme_name=theme_name, ascii_mode=ascii_mode)
        self.link = HostLink(socket=socket, tcp=tcp, tls=tls, ssh_key=ssh_key, name=name,
                             code=code)
        self.player_name: str | None = None
        self.lobby = LobbyScreen(name_known=bool(name or code or ssh_key))
        self.remote: RemoteSession | None = None
        self.chat_lines: list[str] = []
        """What was said at the tables, oldest first (the last ``CHAT_KEPT`` lines)."""
        self.notices = RatingNotices()
        """What the tables' games do to the ratings, said once a table."""
        self.finished = FinishedGames(self)
        """The end dialog, the rematch offered either way, and reviews."""

    # ------------------------------------------------------------------ the connection
    def open_first_screen(self) -> None:
        """The lobby; with a name or code already given, connect and say hello at once."""
        self.push_screen(self.lobby)
        if self.link.named():
            self._connect()

    def _connect(self) -> None:
        """Connect once a name or code is known: the host wants hello soon after."""
        self.run_worker(self._network(), name="host", group="host", exclusive=True)

    async def _network(self) -> None:
        """The connection's life, in a worker: each message to ``on_host_message``."""
        self.lost(await self.link.run(self.on_host_message, self._keep_alive))

    def _keep_alive(self, client: HostClient) -> None:
        self.run_worker(client.keep_alive(self.keep_alive_seconds), name="keep-alive",
                        group="keep-alive", exclusive=True)

    @property
    def client(self) -> HostClient | None:
        """The connection to the host (None: none now)."""
        return self.link.client

    def on_unmount(self) -> None:
        self.link.hang_up()

    def lost(self, why: str) -> None:
        """The host is gone or was never there: say so (once the lobby is up)."""
        self.link.hang_up()  # hang up too: the host waits for it
        self.call_after_refresh(self._say_lost, why)

    def _say_lost(self, why: str) -> None:
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
        if not self.link.post(message):
            self._not_connected()

    def hello(self, name: str | None = None, code: str | None = None) -> None:
        """Say who this is (``HostLink.hello``), connecting first if need be."""
        if self.client is None and self.player_name is None:  # connect first, then say it
            self.link.wanted = (name, code)
            self._connect()
        elif not self.link.hello(name, code):
            self._not_connected()

    def _not_connected(self) -> None:
        self.notify("not connected to the game host", severity="error")

    def create(self, variant: str, opponent: str, seat: int | None,
               rated: bool = False, clock: int | None = None,
               bank: int | None = None, days: int = 0) -> None:
        """A new table at the host (``new_table.create_message``)."""
        self.send(create_message(variant, opponent, seat, rated, clock, bank, days))

    def join(self, table: str) -> None:
        self.send({"type": "join", "table": table})

    def watch_table(self, table: str) -> None:
        self.send({"type": "watch", "table": table})

    def send_move(self, move: Move, seq: int) -> None:
        if self.remote is not None:
            self.send({"type": "move", "table": self.remote.table, "move": str(move),
                       "seq": seq})

    def resign(self) -> None:
        """Give up the game at this table: the host ends it as this player's loss."""
        if self.remote is not None:
            self.send({"type": "resign", "table": self.remote.table})

    def claim(self) -> None:
        """Claim the game: the host ends it if the player to move is out of time."""
        if self.remote is not None:
            self.send({"type": "claim", "table": self.remote.table})

    def leave_for_good(self) -> None:
        """Give up the seat at this table for good (the host closes a table nobody joined
        yet, and ends a game in play as this player's loss), and go back to the lobby."""
        if self.remote is not None:
            self.send({"type": "leave", "table": self.remote.table, "for_good": True})
            self.back_to_lobby(leave=False)

    def show_my_games(self) -> None:
        """The player's finished games at the host (``FinishedGames.show_my_games``)."""
        self.finished.show_my_games()

    def fetch_record(self, game: str) -> None:
        """Ask the host for the record of the finished game ``game``, to review it."""
        self.finished.fetch_record(game)

    def send_chat(self, text: str) -> None:
        if self.remote is not None:
            self.send({"type": "chat", "table": self.remote.table, "text": text})

    # ------------------------------------------------------------------ receiving
    def on_host_message(self, message: dict[str, Any]) -> None:
        """A message from the host, read once into its typed reply (``parse_reply``:
        ReplyError, which ends the connection, for one that is not what its type says),
        to its kind's handler (``REPLIES``); a kind this client does not know is passed
        by."""
        message = without_controls(message)  # no escape code from the wire reaches the screen
        reply = parse_reply(message)
        handler = REPLIES.get(str(message.get("type")))
        if reply is not None and handler is not None:
            reply_to = message.get("id")
            getattr(self, handler)(reply, reply_to if isinstance(reply_to, int) else None)

    def _got_welcome(self, reply: replies.Welcome, reply_to: int | None) -> None:
        self.player_name = reply.name
        self.lobby.welcome(reply.name, reply.code, reply.rating)
        self.lobby.show_page(reply.page, reply_to)

    def _got_tables(self, reply: replies.Tables, reply_to: int | None) -> None:
        if reply.rating is not None:  # it changes after a rated game
            self.lobby.rated(reply.rating)
        self.lobby.show_page(reply.page, reply_to)

    def _got_renamed(self, reply: replies.Renamed, _reply_to: int | None) -> None:
        self.player_name = reply.name
        self.lobby.renamed(reply.name)

    def _got_page(self, reply: replies.HostReply, _reply_to: int | None) -> None:
        """A player's page, the leaderboard or the player's games: to its screen, if it
        is still the one shown."""
        from .leaders import LeadersScreen
        from .my_games import MyGamesScreen
        from .player_page import PlayerScreen

        screen = {replies.Player: PlayerScreen, replies.Leaders: LeadersScreen,
                  replies.Games: MyGamesScreen}[type(reply)]
        if isinstance(self.screen, screen):
            self.screen.show(reply.wire())

    def _got_seated(self, reply: replies.Joined | replies.Watching,
                    _reply_to: int | None) -> None:
        self.finished.offers.gone(reply.table)  # an offer accepted: its table is this one
        self.remote = RemoteSession(reply.table, self.send_move)
        self.remote.may_review = isinstance(reply, replies.Joined) or reply.record

    def _got_chat(self, reply: replies.ChatLine, _reply_to: int | None) -> None:
        self.chat(str(reply.name), reply.text)

    def _got_rematch_sent(self, _reply: replies.RematchOffered,
                          _reply_to: int | None) -> None:
        self.notify("Rematch offered: the new table waits for the other player to "
                    "accept it.", title="Rematch")

    def _got_error(self, reply: replies.Error, _reply_to: int | None) -> None:
        self.say_error(reply.message)

    def _got_closed(self, reply: replies.Closed, _reply_to: int | None) -> None:
        self.finished.offers.gone(reply.table)
        if self.remote is not None and self.remote.table == reply.table:
            if self.reviewing():  # the review stays open
                self.remote, self.game_screen, self.finished.table_gone = None, None, True
            else:
                self.back_to_lobby(leave=False)  # the table is gone: say why there
        self.say_error(reply.message)

    def chat(self, name: str, text: str) -> None:
        """A chat line: a toast titled "Chat", and kept in the game log (in chat's own
        column, see gamelog) and in the chat box's history (a toast alone was gone after
        five seconds). Nothing a person types or is called can make it read like the
        game's own lines."""
        line = f"{name}: {text}"
        self.chat_lines = [*self.chat_lines, line][-CHAT_KEPT:]
        self.notify(line, title="Chat")
        if self.game_screen is not None:
            self.game_screen.log_lines([chat_line(name, text)], reset=False)

    def _state(self, reply: replies.State, _reply_to: int | None) -> None:
        remote = self.remote
        if remote is None or remote.table != reply.table:
            return
        remote.update(reply.wire())
        for said in self.notices.news(remote):
            self.notify(said, title="Ratings", timeout=30)
        from .game_screen import OnlineGameScreen

        screen = self.game_screen
        if not isinstance(screen, OnlineGameScreen) or screen.session is not remote:
            while len(self.screen_stack) > 2:
                self.pop_screen()
            self.game_screen = screen = OnlineGameScreen(remote, pace=0)
            self.push_screen(screen)
        elif screen.is_mounted:
            screen.host_update()

    def _record(self, reply: replies.Record, _reply_to: int | None) -> None:
        """A game's record from the host: it opens on the review screen, one at a time."""
        record = self.finished.record_came(reply)
        if record is not None:
            open_review(self, record, reply.seat if reply.seat in (0, 1) else None,
                        self.finished.review_closed, judged=reply.analysis)

    def reviewing(self) -> bool:
        """Whether a game's review is open (on top or under a dialog)."""
        from ..screens.review import ReviewScreen

        return any(isinstance(screen, ReviewScreen) for screen in self.screen_stack)

    @property
    def table_gone(self) -> bool:
        """The table closed under its review: the lobby comes once it is closed."""
        return self.finished.table_gone

    def _rematch_offered(self, reply: replies.RematchOffer, _reply_to: int | None) -> None:
        """The other player offers a rematch: kept until answered, and said where the
        player is (``offers``)."""
        self.finished.offers.came(reply)

    def say_error(self, text: str) -> None:
        """The host's refusal (or what this program could not read) where the player is:
        on the page asked for, at the table, or in the lobby."""
        from .my_games import MyGamesScreen
        from .player_page import PlayerScreen

        if isinstance(self.screen, PlayerScreen | MyGamesScreen):
            self.screen.refused(text)
            return
        screen = self.game_screen
        if screen is not None and screen.is_mounted and self.screen is screen:
            screen.play.say_error(text)
        else:
            if self.player_name is None:  # hello refused (name taken, unknown code...)
                self.lobby.ask_name()
            self.lobby.say(text)

    # ------------------------------------------------------------------ navigation
    def back_to_lobby(self, leave: bool = True) -> None:
        """Back to the lobby's page, leaving the table (``leave``) unless it is gone. A
        rematch offered at that table and not answered is declined: its maker is told, and
        does not wait on."""
        if self.remote is not None and leave:
            if self.finished.offers.at(self.remote.table) is not None:
                self.finished.offers.answer(False)
            self.send({"type": "leave", "table": self.remote.table})
        self.remote = None
        self.game_screen = None
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.lobby.ask_page()  # the page the player was on

    # ------------------------------------------------------------------ game screen services
    def show_end(self, session: SessionView, obs: Observation) -> None:
        """The finished game's end dialog (``FinishedGames.show_end``)."""
        self.finished.show_end(session, obs)

    def review_game(self) -> None:
        """Fetch this table's finished game's record from the host, to review it."""
        self.finished.review_game()

    def open_new_game(self) -> None:
        """New games are made in the lobby."""
        self.back_to_lobby()

    def autosave(self, session: SessionView) -> None:
        """Online games are saved by the host."""

    def show_review(self, session: SessionView) -> None:
        """r at the end of a game: its review, from the record the host keeps."""
        self.review_game()

    def judge_hint(self, obs: Observation, names: tuple[str, str],
                   cancel: threading.Event | None = None) -> Answer:
        """No judge here either (online games have no hints): no hint."""
        from ..coach.hints import Answer

        return Answer([], "")

    # ------------------------------------------------------------------ palette
    def textual_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's commands but Screenshot: it writes a file on the machine this app runs
        on, which is the host's for a player over SSH."""
        for command in super().textual_commands(screen):
            if command.title != "Screenshot":
                yield command

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Lobby", "Leave this table for the lobby", self.back_to_lobby)


if TYPE_CHECKING:
    def _provides_app_services(app: OnlineApp) -> AppServices:
        return app  # mypy checks that the game screen finds what it asks for here


#: Each kind of host message and the app's method that handles it.
REPLIES: dict[str, str] = {
    "welcome": "_got_welcome",
    "tables": "_got_tables",
    "renamed": "_got_renamed",
    "player": "_got_page",
    "leaders": "_got_page",
    "games": "_got_page",
    "joined": "_got_seated",
    "watching": "_got_seated",
    "state": "_state",
    "chat": "_got_chat",
    "record": "_record",
    "rematch_offer": "_rematch_offered",
    "rematch_offered": "_got_rematch_sent",
    "error": "_got_error",
    "closed": "_got_closed",
}

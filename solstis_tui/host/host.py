"""The game host: an asyncio server that owns every table and validates every move.

Each client gets only its own seat's observation (a watcher gets both hands hidden), every
table is saved atomically after every change, and a restarted host carries on where it
stopped. Bots play their seats in worker processes (see botpool).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import secrets
import ssl
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from solstis_tui.ai.registry import make_solo_bot

from ..wire import replies
from ..wire.messages import (
    AtTable,
    Chat,
    Claim,
    Create,
    Decline,
    FetchRecord,
    Hello,
    Join,
    Leaders,
    Leave,
    ListTables,
    Message,
    MyGames,
    Ping,
    PlayerPage,
    PlayMove,
    Rematch,
    Rename,
    Resign,
    Status,
    Watch,
    parse,
)
from ..wire.protocol import VERSION, LineReader, ProtocolError, decode, message_kind
from .admission import Door
from .after_game import AfterGame
from .analyst import Analyst
from .botpool import BotFactory, BotPool, Bots
from .connection import Connection, Whereabouts, start_server
from .crowding import OVERFLOW, OVERFLOW_HELLO_SECONDS, Crowd
from .database import Unreadable
from .fleet import FleetPool, FleetSettings
from .host_bots import BotSeats
from .hostlock import FileLock, StartRefused, claim_data_dir, claim_socket
from .housekeeping import Housekeeping
from .identity import ATTACH_FILE, BANS_FILE, Attachments, Bans, Trust, is_owner
from .limits import ACCEPT_BURST, Limits
from .lobby_push import LobbyPush
from .players import PlayerRegistry
from .quotas import Quotas, identity
from .ratings import Ratings
from .standings import Standings
from .table_keeper import TableKeeper
from .table_messages import Reply, TableMessages
from .tables import (
    Table,
    TableStore,
    restart_clocks,
)
from .views import LOBBY, presence

#: A message handler: the connection and its typed message (see ``Host._handlers``).
Handler = Callable[[Connection, Any], Awaitable[Reply]]
M = TypeVar("M", bound=AtTable)
#: Internal errors kept in ``Host.internal_errors`` (the newest; the log has every one).
MAX_KEPT_ERRORS = 100

log = logging.getLogger("solstis.host")


class Host:
    """Owns the tables; ``serve_unix`` / ``serve_tcp`` / ``serve_tls`` start listening."""

    def __init__(
        self,
        data_dir: Path,
        *,
        bot_seconds: float = 1.0,
        limits: Limits | None = None,
        bot_factory: BotFactory = make_solo_bot,
        bot_workers: int | None = None,
        trust: Trust | None = None,
        clock: Callable[[], float] = time.time,
        bot_cluster: FleetSettings | None = None,
        judge_games: bool = False,
        judge_effort: object | None = None,
    ) -> None:
        """``bot_factory`` makes a bot from a tier and a seed in the worker processes: a
        module-level function, since it is sent to them by reference. With ``bot_cluster``
        bots decide on that Dask fleet, through a gateway process (``fleet``), and in the
        local pool when it cannot answer in time. With ``judge_games`` each finished game
        is judged once, at the lowest priority (``analyst``; ``judge_effort``: the
        coach's ``Effort``, default its store's)."""
        self.data_dir = data_dir
        self.clock = clock  # the move clock's time (tests set it)
        self.limits = limits or Limits()
        self.store = TableStore(data_dir / "tables")
        self.players = PlayerRegistry(data_dir,
                                      expire_seconds=self.limits.player_expire_seconds,
                                      guest_seconds=self.limits.guest_expire_seconds)
        self.ratings = Ratings(data_dir, self.limits.rated_games_per_pair_per_day)
        self.storage_errors: list[str] = []
        self.standings = Standings(self.ratings, self.players, self.storage_errors,
                                   bot_seconds, clock=lambda: self.clock())
        self.locks: list[FileLock] = []
        trust = trust or Trust()
        if trust.bans is None or trust.bans.file.path is None:
            trust.bans = Bans(data_dir / BANS_FILE)
        if trust.attachments is None or trust.attachments.file.path is None:
            trust.attachments = Attachments(data_dir / ATTACH_FILE)
        self.door = Door(self.players, self.limits, self.storage_errors, trust)
        self.tables: dict[str, Table] = {}
        self.conns: set[Connection] = set()
        self.crowd = Crowd(self.conns, self.tables, self.limits.connection_cap())
        self.where = Whereabouts()  # who is at each table, kept as connections move
        local = BotPool(bot_workers, bot_factory)
        self.bots: Bots = local if bot_cluster is None else FleetPool(bot_cluster, local)
        self.analyst = Analyst(data_dir, self.ratings.record_text, on=judge_games,
                               effort=judge_effort)
        self.keeper = TableKeeper(self.tables, self.conns, self.store, self.door,
                                  self.standings, self.analyst, self.limits,
                                  lambda: self.clock(), self.where)
        self.lobby_push = LobbyPush(self.conns, self.keeper.lobby_order,
                                    self.standings.rating_text, self.limits.page_size)
        self.keeper.lobby_moved = self.lobby_push.changed
        self._pushing: asyncio.Task[None] | None = None
        self.bot_seats = BotSeats(self.bots, bot_seconds, self.tables, self.keeper.commit,
                                  self.keeper.after_change)
        self.quotas = Quotas(self.limits, self.tables, self.players, self.bots)
        self.create_lock = asyncio.Lock()  # a table's caps are checked and it is added as one
        self.servers: list[asyncio.AbstractServer] = []
        self.problems: list[str] = []
        self.internal_errors: list[str] = []
        self.save_locks = self.keeper.save_locks
        self.housekeeping = Housekeeping(self.limits, self.tables, self.conns, self.save_locks,
                                         self.store, self.players, self.keeper.lobby_changed,
                                         self.standings.forfeit, self.keeper.record_again,
                                         lambda: self.clock(), where=self.where)
        self.keeper.schedule = self.bot_seats.schedule
        self.keeper.prune = self.housekeeping.prune_finished
        self._expiry: asyncio.Task[None] | None = None
        self.after_game = AfterGame(self.keeper, self.quotas, self.ratings, self.door,
                                    self.create_lock, lambda conn, table:
                                    self.table_messages.join(conn, table))
        self.table_messages = TableMessages(self.keeper, self.quotas, self.standings,
                                            self.players, self.door, self.create_lock,
                                            self.after_game.remember_watcher)
        self.handlers = self._handlers()

    # ------------------------------------------------------------------ lifecycle
    def load(self) -> None:
        """Claim the data dir (StartRefused if another host has it or it is not writable),
        then read the tables and the players; unreadable files are kept aside (``problems``)."""
        notes: list[str] = []
        if not self.locks:
            self.locks.append(claim_data_dir(self.data_dir, notes))
        tables, problems = self.store.load_all()
        self.problems = notes + problems
        self.tables.clear()  # in place: the bots and the housekeeping share it
        self.tables.update((t.id, t) for t in tables)
        self.keeper.lobby_changed()
        try:
            self.players.load()
            self.ratings.open()
        except OSError as exc:
            raise StartRefused(f"cannot read the players ({exc})") from None
        except Unreadable as exc:
            raise StartRefused(str(exc)) from None
        finally:
            self.problems += self.players.problems
        for table in self.tables.values():  # finished before a stop, not yet recorded
            if table.game.is_over:
                self.standings.record_at_start(table)
        now = self.clock()
        restart_clocks(self.tables.values(), now, self.store.last_alive())
        self._note_alive(now)

    async def serve_unix(self, path: Path, mode: int = 0o600, group: int | None = None) -> None:
        """Listen on ``path`` (for ``group`` too if given); StartRefused if another host
        has this data dir or socket."""
        if not self.locks:
            self.load()
        self.locks.append(await claim_socket(path, group))
        old = os.umask(0o177)
        try:
            server = await start_server(asyncio.start_unix_server, self.limits.backlog,
                                        client_connected_cb=self._client, path=str(path))
        finally:
            os.umask(old)
        os.chmod(path, mode)
        if group is not None:
            os.chown(path, -1, group)
        self._started(server)

    async def serve_tcp(self, host: str, port: int, token: str | None = None) -> int:
        """Listen on loopback TCP; every hello there must carry ``token`` (a new secret one
        if not given: see ``door.tcp_token``), since any local user can connect."""
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the host listens on loopback only (127.0.0.1 or ::1)")
        if not self.locks:
            self.load()
        self.door.tcp_token = token or self.door.tcp_token or secrets.token_urlsafe(32)
        server = await start_server(asyncio.start_server, self.limits.backlog,
                                    client_connected_cb=self._client, host=host, port=port)
        self._started(server)
        return int(server.sockets[0].getsockname()[1])

    async def serve_tls(self, host: str, port: int, context: ssl.SSLContext) -> int:
        """Listen for TLS clients (SSH front ends on other machines) on ``host``: no token;
        a front-end certificate says who may state a key (see identity); the port."""
        if not self.locks:
            self.load()
        server = await start_server(asyncio.start_server, self.limits.backlog, host=host,
                                    port=port, client_connected_cb=functools.partial(
                                        self._client, tls=context))
        self._started(server)
        return int(server.sockets[0].getsockname()[1])

    def _started(self, server: asyncio.AbstractServer) -> None:
        self.servers.append(server)
        if self._expiry is None:
            self._expiry = asyncio.get_running_loop().create_task(self.housekeeping.run())
            self._pushing = asyncio.get_running_loop().create_task(self.lobby_push.run())
        self.bots.start()
        self.analyst.start()
        for table in self.tables.values():
            self.bot_seats.schedule(table)

    def _note_alive(self, now: float) -> None:
        """``TableStore.note_alive``; a disk that refuses costs only that note (a restart
        then gives correspondence deadlines that passed since an hour more)."""
        try:
            self.store.note_alive(now)
        except OSError as exc:
            log.warning("could not note that the host runs: %s", exc)

    async def close(self) -> None:
        if self.locks:  # it ran: a restart knows the deadlines that passed till now
            self._note_alive(self.clock())
        for server in self.servers:
            server.close()
        for conn in list(self.conns):
            conn.writer.close()
        for task in (self._expiry, self._pushing):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        await self.bot_seats.close()
        await self.analyst.stop()
        for server in self.servers:
            await server.wait_closed()
        await self.players.close()
        self.ratings.close()
        for lock in self.locks:
            lock.release()

    # ------------------------------------------------------------------ connections
    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                      tls: ssl.SSLContext | None = None) -> None:
        conn = Connection(writer, self.limits, self.where)
        conn.handshaking = tls is not None  # no plain text to a TLS client, even "busy"
        crowd = self.crowd
        if crowd.taken() >= crowd.cap:
            crowd.make_room()
        if crowd.taken() >= crowd.cap + OVERFLOW:
            conn.push(replies.Error("busy", crowd.full()))
            crowd.refusing += 1  # a few linger so the client reads why; the rest just close
            try:
                await conn.hang_up(reader, linger=0 if crowd.refusing > ACCEPT_BURST else 1)
            finally:
                crowd.refusing -= 1
            return
        if crowd.taken() >= crowd.cap:
            conn.hello_by = min(conn.hello_by, conn.last_message + OVERFLOW_HELLO_SECONDS)
            conn.overflow = True  # stays only if its hello finds it a place (_hello)
        self.conns.add(conn)
        lines = LineReader()
        try:
            if tls is not None and not await conn.start_tls(tls):
                return  # counted as a silent connection until then
            while not conn.closed:
                when, why = conn.deadline()
                try:
                    async with asyncio.timeout_at(when):
                        data = await reader.read(65536)
                except TimeoutError:
                    conn.push(replies.Error("timeout", why))
                    break
                if not data:
                    break
                for line in lines.feed(data):
                    if not conn.allow():
                        conn.push(replies.Error("flood", "too many messages; disconnected"))
                        conn.closed = True
                        break
                    conn.heard()
                    await self._handle_line(conn, line)
                    await conn.drained()
                    if conn.closed:
                        break
        except (ConnectionError, OSError):
            pass
        finally:
            conn.closed = True
            crowd.closing += 1  # still open while it hangs up: counted against the cap
            self.conns.discard(conn)
            try:
                await self._gone(conn)
                await conn.hang_up(reader)
            finally:
                conn.forget()
                crowd.closing -= 1

    async def _handle_line(self, conn: Connection, line: bytes | None) -> None:
        msg_id, closing = None, False
        try:
            if line is None:
                raise ProtocolError("too_big", "message longer than the 64 KiB limit")
            raw = decode(line)
            msg_id = raw.get("id") if isinstance(raw.get("id"), (int, str)) else None
            reply = await self._dispatch(conn, parse(raw))  # parsed once, here
        except ProtocolError as exc:
            reply = replies.Error(exc.code, exc.message)
            closing = exc.close
        except Exception as exc:  # a bug must cost one reply, never the host
            log.exception("internal error on a %r message", message_kind(line))
            self.internal_errors.append(f"{type(exc).__name__}: {exc}")
            del self.internal_errors[:-MAX_KEPT_ERRORS]  # the log has them all
            reply = replies.Error("internal", "the host failed on that")
        if reply is not None:
            conn.push(reply, msg_id)
        conn.closed = conn.closed or closing

    async def _gone(self, conn: Connection) -> None:
        """Tell the tables where this was the player's last connection that the player
        left, and, if it was their last connection to the host, the tables they had left
        for the lobby that the connection is gone now (a watcher leaving changes nothing
        anyone is shown)."""
        if conn.probe:
            return  # nobody was told it came
        still = presence(self.conns)
        self.lobby_push.changed()  # their seats show them away now
        tables = set(conn.seated)
        if conn.code is not None and (LOBBY, conn.code) not in still:
            tables.update(t.id for t in self.tables.values()
                          if t.seat_of(conn.code) is not None and not t.game.is_over)
        for table_id in tables:
            table = self.tables.get(table_id)
            if table is not None and (table_id, conn.code) not in still:
                await self.keeper.broadcast(table)

    # ------------------------------------------------------------------ messages
    def _handlers(self) -> dict[type[Message], Handler]:
        """Each message type's handler; those of a message that names a table get the table
        (``no_table`` if there is none by that id)."""
        tables = self.table_messages
        return {
            Ping: self._ping,
            Hello: self._hello,
            ListTables: self._list,
            Leaders: self._leaders,
            PlayerPage: self._player,
            Rename: tables.rename,
            Create: tables.create,
            Join: self._at_table(lambda conn, table, _msg: tables.join(conn, table)),
            Watch: self._at_table(tables.watch),
            Leave: self._at_table(tables.leave),
            Resign: self._at_table(lambda conn, table, _msg: tables.resign(conn, table)),
            Claim: self._at_table(lambda conn, table, _msg: tables.claim(conn, table)),
            Chat: self._at_table(tables.chat),
            PlayMove: self._at_table(tables.move),
            MyGames: self.after_game.games,
            FetchRecord: self.after_game.record,
            Rematch: self._at_table(self.after_game.rematch),
            Decline: self._at_table(self.after_game.decline),
            Status: self._status,
        }

    def _at_table(self, handler: Callable[[Connection, Table, M], Awaitable[Reply]]
                  ) -> Callable[[Connection, M], Awaitable[Reply]]:
        async def at_table(conn: Connection, msg: M) -> Reply:
            table = self.tables.get(msg.table)
            if table is None:
                raise ProtocolError("no_table", f"there is no table {msg.table!r}")
            return await handler(conn, table, msg)
        return at_table

    async def _dispatch(self, conn: Connection, msg: Message) -> Reply:
        if conn.code is None and not isinstance(msg, (Ping, Hello, Status)):
            raise ProtocolError("hello_first", "say hello first")
        reply = await self.handlers[type(msg)](conn, msg)
        if isinstance(msg, (Create, Join, Watch, Rematch)):
            conn.lobby_offset = None  # at a table now: no lobby pushed to it
        return reply

    async def _ping(self, conn: Connection, msg: Ping) -> Reply:
        return replies.Pong()

    async def _status(self, conn: Connection, msg: Status) -> Reply:
        if not is_owner(conn.writer.get_extra_info("socket")):
            raise ProtocolError("not_allowed", "the host's status is for the account it runs "
                                "as, over its Unix socket ('solstis host status')")
        return replies.Status(self.status())

    def status(self) -> dict[str, Any]:
        """Connections, tables (open, being played, finished) and the bots' figures."""
        playing = sum(1 for t in self.tables.values()
                      if not t.game.is_over and not any(seat.is_open for seat in t.seats))
        finished = sum(1 for t in self.tables.values() if t.game.is_over)
        return {"connections": len(self.conns), "tables": len(self.tables),
                "playing": playing, "finished": finished,
                "bot_tables": self.quotas.bot_tables(),
                "bot_table_capacity": self.quotas.bot_capacity(),
                "bots": self.bots.stats(), "bot_seats": self.bot_seats.stats(),
                "storage_errors": len(self.storage_errors),
                "internal_errors": len(self.internal_errors)}

    async def _list(self, conn: Connection, msg: ListTables) -> Reply:
        conn.lobby_offset, conn.lobby_sent = msg.offset, b""  # pushed again as it changes
        return replies.Tables(self.keeper.lobby_page(conn.code, msg.offset),
                              self.standings.rating_text(identity(conn)))

    async def _leaders(self, conn: Connection, msg: Leaders) -> Reply:
        return replies.Leaders(await self.standings.leaders(identity(conn), msg.offset,
                                                            msg.pool))

    async def _player(self, conn: Connection, msg: PlayerPage) -> Reply:
        return replies.Player(await self.standings.player_page(identity(conn), msg.name))

    def _welcome(self, conn: Connection, code: str, seated: list[Table]) -> replies.Welcome:
        """The answer to a player's hello: who they are, the lobby's first page, their
        tables."""
        return replies.Welcome(conn.name or "", code, self.standings.rating_text(identity(conn)),
                               VERSION, self.keeper.lobby_page(conn.code),
                               [t.id for t in seated])

    async def _hello(self, conn: Connection, msg: Hello) -> None:
        if conn.overflow and msg.code is None and msg.ssh_key is None:
            raise ProtocolError("busy", self.crowd.full(), close=True)  # a new name: no game
        code = await self.door.admit(conn, msg)
        if conn.who.guest and sum(c.who.guest for c in self.conns if c is not conn
                                  and not c.closed) >= self.limits.guest_connections:
            conn.code = conn.name = None
            raise ProtocolError("busy", f"the {self.limits.guest_connections} places for "
                                "guests are taken: try again later, or ask the host's owner "
                                "to add your key", close=True)
        others = sum(c.code == conn.code for c in self.conns if c is not conn and not c.closed)
        if others >= self.limits.connections_per_player:
            conn.code = conn.name = None
            raise ProtocolError("too_many", f"you are connected {others} times here already: "
                                "close another window first", close=True)
        seated = [t for t in self.tables.values() if t.seat_of(conn.code) is not None]
        if msg.probe:  # only asking what waits: seated nowhere, nobody told
            conn.probe = True
            conn.push(self._welcome(conn, code, seated))
            return
        if conn.overflow:
            self.crowd.find_place(conn, any(not t.game.is_over for t in seated))
        conn.seated.update(t.id for t in seated)
        conn.lobby_offset = 0  # the lobby is where a client starts
        conn.push(self._welcome(conn, code, seated))
        self.lobby_push.changed()  # their seats show them back
        for table in seated:
            await self.keeper.broadcast(table)
            await conn.drained()

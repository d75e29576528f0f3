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
import random
import secrets
import ssl
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from solstis_tui.ai.registry import BOT_TIERS, make_solo_bot

from ..core import EndReason, IllegalMove
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
from .connection import Connection, start_server
from .crowding import OVERFLOW, OVERFLOW_HELLO_SECONDS, displaceable, oldest_silent
from .database import Unreadable
from .fleet import FleetPool, FleetSettings
from .host_bots import BotSeats
from .hostlock import FileLock, StartRefused, claim_data_dir, claim_socket
from .housekeeping import Housekeeping
from .identity import ATTACH_FILE, BANS_FILE, Attachments, Bans, Trust, is_owner
from .limits import ACCEPT_BURST, Limits, TokenBucket, per_minute
from .players import PlayerRegistry
from .ratings import Ratings
from .standings import Standings
from .tables import (
    Seat,
    Table,
    TableStore,
    end_game,
    new_table,
    restart_clocks,
)
from .views import LOBBY, LobbyOrder, audience, lobby_page, presence, state_message

#: What a message handler answers the client (None: nothing, or it pushed its replies).
Reply = dict[str, Any] | None
#: A message handler: the connection and its typed message (see ``Host._handlers``).
Handler = Callable[[Connection, Any], Awaitable[Reply]]
M = TypeVar("M", bound=AtTable)
#: Allowances kept before those used up by nobody now are forgotten.
MAX_ALLOWANCES = 10_000
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
        self.max_connections = self.limits.connection_cap()
        self.refusing = 0  # connections being refused right now
        self.closing = 0  # connections hanging up (see Connection.hang_up)
        self.tables: dict[str, Table] = {}
        self.conns: set[Connection] = set()
        local = BotPool(bot_workers, bot_factory)
        self.bots: Bots = local if bot_cluster is None else FleetPool(bot_cluster, local)
        self.bot_seats = BotSeats(self.bots, bot_seconds, self.tables, self._commit,
                                  self._after_change)
        #: allowances per identity and kind (chat lines, new tables): token buckets
        self.allowances: dict[tuple[str, str], TokenBucket] = {}
        self.create_lock = asyncio.Lock()  # a table's caps are checked and it is added as one
        self.servers: list[asyncio.AbstractServer] = []
        self.problems: list[str] = []
        self.internal_errors: list[str] = []
        self.save_locks: dict[str, asyncio.Lock] = {}
        self._lobby: LobbyOrder | None = None  # the lobby's order (see lobby_page)
        self.housekeeping = Housekeeping(self.limits, self.tables, self.conns, self.save_locks,
                                         self.store, self.players, self.lobby_changed,
                                         self.standings.forfeit, self._record_again,
                                         lambda: self.clock())
        self._expiry: asyncio.Task[None] | None = None
        self.analyst = Analyst(data_dir, self.ratings.record_text, on=judge_games,
                               effort=judge_effort)
        self.after_game = AfterGame(self)
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
        self._lobby = None
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
        restart_clocks(self.tables.values(), self.clock())

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
        self.bots.start()
        self.analyst.start()
        for table in self.tables.values():
            self.bot_seats.schedule(table)

    async def close(self) -> None:
        for server in self.servers:
            server.close()
        for conn in list(self.conns):
            conn.writer.close()
        if self._expiry is not None:
            self._expiry.cancel()
            await asyncio.gather(self._expiry, return_exceptions=True)
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
        conn = Connection(writer, self.limits)
        conn.handshaking = tls is not None  # no plain text to a TLS client, even "busy"
        if self._places_taken() >= self.max_connections:
            self._make_room()
        if self._places_taken() >= self.max_connections + OVERFLOW:
            conn.push({"type": "error", "code": "busy", "message": self._full()})
            self.refusing += 1  # a few linger so the client reads why; the rest just close
            try:
                await conn.hang_up(reader, linger=0 if self.refusing > ACCEPT_BURST else 1)
            finally:
                self.refusing -= 1
            return
        if self._places_taken() >= self.max_connections:
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
                    conn.push({"type": "error", "code": "timeout", "message": why})
                    break
                if not data:
                    break
                for line in lines.feed(data):
                    if not conn.allow():
                        conn.push({"type": "error", "code": "flood",
                                         "message": "too many messages; disconnected"})
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
            self.closing += 1  # still open while it hangs up: counted against the cap
            self.conns.discard(conn)
            try:
                await self._gone(conn)
                await conn.hang_up(reader)
            finally:
                self.closing -= 1

    def _places_taken(self) -> int:
        """Connections counted against the cap (those hanging up included)."""
        return len(self.conns) + self.closing

    def _full(self) -> str:
        return (f"the host is full ({self.max_connections} players connected); try again "
                "in a few minutes")

    def _make_room(self) -> None:
        """The host is full: drop the oldest connection that has not said hello yet (a
        real client says hello as it connects), so that silent sockets lock nobody out."""
        oldest = oldest_silent(self.conns)
        if oldest is not None:
            self._drop(oldest, "timeout", "the host is full and you said no hello")

    def _drop(self, conn: Connection, code: str, why: str) -> None:
        conn.push({"type": "error", "code": code, "message": f"{why}; disconnected"})
        conn.drop()
        self.conns.discard(conn)

    def _find_place(self, conn: Connection, in_game: bool) -> None:
        """``conn`` came past the cap: a silent connection makes room if there is one;
        otherwise it stays only as a player coming back to a game (``in_game``), in the
        place of a connection ``displaceable`` names (busy, and closed, otherwise)."""
        conn.overflow = False
        if self._places_taken() > self.max_connections:
            self._make_room()
        if self._places_taken() <= self.max_connections:
            return  # someone left meanwhile, or a silent connection made room
        other = displaceable(self.conns, conn, self.tables) if in_game else None
        if other is None:
            conn.code = conn.name = None
            raise ProtocolError("busy", self._full(), close=True)
        self._drop(other, "busy", "the host is full and a player coming back to a game "
                   "needed a place")

    async def _handle_line(self, conn: Connection, line: bytes | None) -> None:
        msg_id, closing = None, False
        try:
            if line is None:
                raise ProtocolError("too_big", "message longer than the 64 KiB limit")
            raw = decode(line)
            msg_id = raw.get("id") if isinstance(raw.get("id"), (int, str)) else None
            reply = await self._dispatch(conn, parse(raw))  # parsed once, here
        except ProtocolError as exc:
            reply = {"type": "error", "code": exc.code, "message": exc.message}
            closing = exc.close
        except Exception as exc:  # a bug must cost one reply, never the host
            log.exception("internal error on a %r message", message_kind(line))
            self.internal_errors.append(f"{type(exc).__name__}: {exc}")
            del self.internal_errors[:-MAX_KEPT_ERRORS]  # the log has them all
            reply = {"type": "error", "code": "internal", "message": "the host failed on that"}
        if reply is not None:
            if msg_id is not None:
                reply["id"] = msg_id
            conn.push(reply)
        conn.closed = conn.closed or closing

    async def _gone(self, conn: Connection) -> None:
        """Tell the tables where this was the player's last connection that the player
        left, and, if it was their last connection to the host, the tables they had left
        for the lobby that the connection is gone now (a watcher leaving changes nothing
        anyone is shown)."""
        still = presence(self.conns)
        tables = set(conn.seated)
        if conn.code is not None and (LOBBY, conn.code) not in still:
            tables.update(t.id for t in self.tables.values()
                          if t.seat_of(conn.code) is not None and not t.game.is_over)
        for table_id in tables:
            table = self.tables.get(table_id)
            if table is not None and (table_id, conn.code) not in still:
                await self._broadcast(table)

    # ------------------------------------------------------------------ messages
    def _handlers(self) -> dict[type[Message], Handler]:
        """Each message type's handler; those of a message that names a table get the table
        (``no_table`` if there is none by that id)."""
        return {
            Ping: self._ping,
            Hello: self._hello,
            ListTables: self._list,
            Leaders: self._leaders,
            PlayerPage: self._player,
            Rename: self._rename,
            Create: self._create,
            Join: self._at_table(lambda conn, table, _msg: self._join(conn, table)),
            Watch: self._at_table(self._watch),
            Leave: self._at_table(self._leave),
            Resign: self._at_table(lambda conn, table, _msg: self._resign(conn, table)),
            Claim: self._at_table(lambda conn, table, _msg: self._claim(conn, table)),
            Chat: self._at_table(self._chat),
            PlayMove: self._at_table(self._move),
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
        return await self.handlers[type(msg)](conn, msg)

    async def _ping(self, conn: Connection, msg: Ping) -> Reply:
        return {"type": "pong"}

    async def _status(self, conn: Connection, msg: Status) -> Reply:
        if not is_owner(conn.writer.get_extra_info("socket")):
            raise ProtocolError("not_allowed", "the host's status is for the account it runs "
                                "as, over its Unix socket ('solstis host status')")
        return {"type": "status", **self.status()}

    def status(self) -> dict[str, Any]:
        """Connections, tables (open, being played, finished) and the bots' figures."""
        playing = sum(1 for t in self.tables.values()
                      if not t.game.is_over and not any(seat.is_open for seat in t.seats))
        finished = sum(1 for t in self.tables.values() if t.game.is_over)
        return {"connections": len(self.conns), "tables": len(self.tables),
                "playing": playing, "finished": finished,
                "bot_tables": self._bot_tables(), "bot_table_capacity": self._bot_capacity(),
                "bots": self.bots.stats(), "bot_seats": self.bot_seats.stats(),
                "storage_errors": len(self.storage_errors),
                "internal_errors": len(self.internal_errors)}

    async def _list(self, conn: Connection, msg: ListTables) -> Reply:
        return {"type": "tables", **self.lobby_page(conn.code, msg.offset),
                "rating": self.standings.rating_text(self._identity(conn))}

    async def _leaders(self, conn: Connection, msg: Leaders) -> Reply:
        return {"type": "leaders", **await self.standings.leaders(self._identity(conn),
                                                                   msg.offset)}

    async def _player(self, conn: Connection, msg: PlayerPage) -> Reply:
        return {"type": "player", **await self.standings.player_page(self._identity(conn),
                                                                     msg.name)}

    async def _watch(self, conn: Connection, table: Table, msg: Watch) -> Reply:
        cap = self.limits.watched_per_connection
        if table.id not in conn.watching and len(conn.watching) >= cap:
            raise ProtocolError("too_many", f"you watch {cap} tables already: leave one first")
        record = await self.after_game.remember_watcher(conn, table)  # may they read it?
        table = self.tables.get(table.id, table)
        conn.watching.add(table.id)
        conn.push({"type": "watching", "table": table.id, "record": record})
        conn.push(state_message(table, None, presence(self.conns),
                                self.standings.rating_text, self.clock()))
        return None

    async def _leave(self, conn: Connection, table: Table, msg: Leave) -> Reply:
        if msg.for_good:
            return await self._leave_for_good(conn, table)
        conn.seated.discard(table.id)
        conn.watching.discard(table.id)
        await self._broadcast(table)
        return {"type": "left", "table": table.id}

    async def _hello(self, conn: Connection, msg: Hello) -> None:
        if conn.overflow and msg.code is None and msg.ssh_key is None:
            raise ProtocolError("busy", self._full(), close=True)  # a new name has no game
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
        if conn.overflow:
            self._find_place(conn, any(not t.game.is_over for t in seated))
        conn.seated.update(t.id for t in seated)
        conn.push({"type": "welcome", "name": conn.name, "code": code,
                   "rating": self.standings.rating_text(self._identity(conn)),
                   "version": VERSION, **self.lobby_page(conn.code),
                         "seated": [t.id for t in seated]})
        for table in seated:
            await self._broadcast(table)
            await conn.drained()

    async def _create(self, conn: Connection, msg: Create) -> Reply:
        opponent, rated, clock = msg.opponent, msg.rated, msg.clock
        if opponent != "friend" and opponent not in BOT_TIERS:  # the host's own tiers only
            raise ProtocolError("bad_message", f"opponent is 'friend' or one of {BOT_TIERS}")
        seat = random.randrange(2) if msg.seat is None else msg.seat
        if rated:
            self._check_rated(conn)
        seats = [Seat(), Seat()]
        seats[seat] = Seat(conn.name, conn.code, identity=self._identity(conn))
        if opponent != "friend":
            seats[1 - seat] = Seat(opponent.capitalize(), None, opponent, f"bot:{opponent}")
        async with self.create_lock:  # no second create can pass the caps during the save
            self._check_caps(conn, against_bot=opponent != "friend")
            self._spend(conn, "tables", self.limits.new_tables_per_minute,
                        "new tables a minute")
            table = new_table(msg.options, seats, rated, clock, self.clock(), msg.bank * 60.0)
            while table.id in self.tables:  # table ids are short: never reuse one
                table = new_table(msg.options, seats, rated, clock, self.clock(),
                                  msg.bank * 60.0)
            await self._save(table, "the new table")  # listed only once it is stored
            self.tables[table.id] = table
            self.lobby_changed()
        conn.seated.add(table.id)
        conn.push({"type": "joined", "table": table.id, "seat": seat})
        await self._broadcast(table)
        self.bot_seats.schedule(table)
        return None

    def _check_caps(self, conn: Connection, *, against_bot: bool | None) -> None:
        """Refuse one more table for this player (``against_bot`` None: a seat taken at an
        open table, which adds no open table) beyond the limits."""
        mine = [t for t in self.tables.values()
                if t.seat_of(conn.code) is not None and not t.game.is_over]
        if conn.who.guest:
            self._check_guest_caps(against_bot)
        if len(mine) >= self.limits.tables_per_player:
            raise ProtocolError("too_many", f"you already sit at {len(mine)} unfinished "
                                "tables here: finish one first")
        cap = self.limits.bot_tables_per_player
        if against_bot and sum(any(s.bot for s in t.seats) for t in mine) >= cap:
            raise ProtocolError("too_many", f"you already have {cap} unfinished games against "
                                "bots here: finish one first")
        if against_bot and self._bot_tables() >= self._bot_capacity():
            raise ProtocolError("busy", "the bots here are all busy with "
                                f"{self._bot_tables()} games: try again in "
                                f"{self.limits.bot_busy_retry_seconds // 60:g} minutes (or "
                                "play a friend meanwhile)")
        if against_bot is not False:
            return
        cap = self.limits.open_tables_per_player
        if sum(t.status() == "open" for t in mine) >= cap:
            raise ProtocolError("too_many", f"you already have {cap} tables waiting for a "
                                "player here: wait for someone to join one first")
        waiting = sum(t.status() == "open" for t in self.tables.values())
        if waiting >= self.limits.max_open_tables:
            raise ProtocolError("busy", f"{self.limits.max_open_tables} tables are already "
                                "waiting for a player here: join one of them, or try later")

    def _bot_tables(self) -> int:
        """Unfinished games against a bot, host-wide."""
        return sum(1 for t in self.tables.values()
                   if not t.game.is_over and any(seat.bot for seat in t.seats))

    def _bot_capacity(self) -> int:
        """Unfinished games against bots the host takes: the bot workers it has now (its
        own and the fleet's) times ``Limits.bot_tables_per_worker``."""
        return self.bots.capacity() * self.limits.bot_tables_per_worker

    async def _join(self, conn: Connection, table: Table) -> Reply:
        seat = table.seat_of(conn.code)
        if seat is None:
            if table.rated and any(s.is_open for s in table.seats):
                self._check_rated(conn)

            def sit(t: Table) -> None:
                free = [i for i, s in enumerate(t.seats)
                        if s.is_open and s.kept_for in (None, conn.code)]
                if not free:
                    kept = [s.name for s in t.seats if s.is_open and s.kept_for]
                    raise ProtocolError("table_full", f"the seat is kept for {kept[0]} (a "
                                        "rematch); you can watch" if kept else
                                        "both seats are taken; you can watch")
                free.sort(key=lambda i: t.seats[i].kept_for is None)  # a seat kept for you
                t.seats[free[0]] = Seat(conn.name, conn.code, identity=self._identity(conn))

            async with self.create_lock:
                self._check_caps(conn, against_bot=None)
                unrated = await self.standings.unrated_at(table, self._identity(conn),
                                                          self.tables.values())

                def sit_told(t: Table) -> None:
                    sit(t)
                    if unrated is not None and not any(s.is_open for s in t.seats):
                        t.unrated = unrated  # both are told before they play

                table = await self._commit(table, sit_told, "your seat")
            seat = table.seat_of(conn.code)
        conn.seated.add(table.id)
        conn.push({"type": "joined", "table": table.id, "seat": seat})
        await self._broadcast(table)
        return None

    def _spend(self, conn: Connection, what: str, per_minute_cap: float, said: str) -> None:
        """Take one from the identity's allowance of ``what`` (all of a key's or a Unix
        user's connections share one, all guests share one; the host's own account counts
        per player); ``too_many`` when it is used up."""
        who = conn.who.id or f"code:{conn.code}"
        if len(self.allowances) >= MAX_ALLOWANCES:  # forget those nobody is spending
            self.allowances = {k: b for k, b in self.allowances.items() if not b.full()}
        bucket = self.allowances.setdefault((who, what), per_minute(per_minute_cap))
        if not bucket.take():
            shared = " (all guests together)" if conn.who.guest else ""
            raise ProtocolError("too_many", f"at most {per_minute_cap:g} {said}{shared}: "
                                "wait a little")

    def _check_guest_caps(self, against_bot: bool | None) -> None:
        """Guests share their allowances: a guest can always come back under a new name,
        so caps per name would bound nothing."""
        guests = [t for t in self.tables.values() if not t.game.is_over and any(
            s.code is not None and self.players.identity_of(s.code) == "guest"
            for s in t.seats)]
        if len(guests) >= self.limits.guest_tables:
            raise ProtocolError("busy", f"guests sit at {len(guests)} unfinished tables here "
                                "already, all guests together: ask the host's owner to add "
                                "your key, or try later")
        cap = self.limits.guest_bot_tables
        if against_bot and sum(any(s.bot for s in t.seats) for t in guests) >= cap:
            raise ProtocolError("busy", f"guests play {cap} unfinished games against bots "
                                "here already, all guests together: try later")

    @staticmethod
    def _identity(conn: Connection) -> str | None:
        """Who ``conn`` is for ratings (None: a guest or the host's own account)."""
        return None if conn.who.guest else conn.who.id

    def _check_rated(self, conn: Connection) -> None:
        if self._identity(conn) is None:
            raise ProtocolError("unrated_only", "a rated table is for players the host knows "
                                "by their key or their account; "
                                + ("guests" if conn.who.guest else "this connection")
                                + " can play unrated tables")

    async def _rename(self, conn: Connection, msg: Rename) -> Reply:
        """A player who belongs to an identity takes another name; their former names stay
        theirs (see PlayerRegistry.rename), and their seats show the new one."""
        code, name = conn.code, msg.name
        if self._identity(conn) is None or code is None:
            raise ProtocolError("bad_name", "only players the host knows by their key or "
                                "their account can change their name")
        if self.players.name_taken(name, by_other_than=code):
            raise ProtocolError("name_taken", f"the name {name} is taken, or looks too much "
                                "like one that is: choose another")
        if self.door.trust.kept_for(name, conn.who) is not None:
            raise ProtocolError("name_taken", f"the name {name} is kept for a player the "
                                "host's owner added by key, or looks too much like it: "
                                "choose another")
        self._spend(conn, "rename", 1.0, "rename a minute")  # refused tries cost nothing
        try:
            await self.players.rename(code, name)
        except OSError as exc:
            raise self.door.refused(exc, "your new name") from None
        for other in self.conns:
            if other.code == code:
                other.name = name

        def rename_seat(t: Table) -> None:
            seat = t.seat_of(code)
            if seat is not None:
                t.seats[seat].name = name

        for table in [t for t in self.tables.values() if t.seat_of(code) is not None]:
            try:
                renamed = await self._commit(table, rename_seat, "your new name at that table")
            except ProtocolError:
                continue  # the table went, or the disk refused: that table keeps the old one
            await self._broadcast(renamed)
        self.lobby_changed()
        return {"type": "renamed", "name": name}

    async def _chat(self, conn: Connection, table: Table, msg: Chat) -> None:
        """A chat line (checked by its parser) to everyone at the table."""
        if table.id not in conn.seated | conn.watching:
            raise ProtocolError("not_here", "join or watch the table to chat")
        # only a line that is said uses up the allowance: a refused one changes nothing
        self._spend(conn, "chat", self.limits.chat_lines_per_minute, "chat lines a minute")
        for other in audience(self.conns, table):
            other.push({"type": "chat", "table": table.id, "name": conn.name,
                        "text": msg.text})
        return None

    async def _move(self, conn: Connection, table: Table, msg: PlayMove) -> Reply:
        seat = table.seat_of(conn.code)
        if seat is None or table.id not in conn.seated:
            raise ProtocolError("not_seated", "you do not play at this table")

        def play(t: Table) -> None:
            game = t.game
            if game.is_over:
                raise ProtocolError("over", "the game is over")
            if game.to_play != seat:
                raise ProtocolError("not_your_turn", "it is not your turn")
            if msg.seq is not None and msg.seq != len(game.history):
                raise ProtocolError("stale", "the game moved on; look again")
            try:
                game.play(msg.move)
            except (ValueError, IllegalMove) as exc:
                raise ProtocolError("illegal", str(exc)) from None

        await self._after_change(await self._commit(table, play, "that move"))
        return None

    async def _resign(self, conn: Connection, table: Table) -> dict[str, Any] | None:
        """The player gives up the game: it ends as their loss (recorded like any finished
        game, and counted in ratings at a rated table once both have played: before, it is
        an abandoned game, see ``Table.counts``)."""
        seat = table.seat_of(conn.code)
        if seat is None:
            raise ProtocolError("not_seated", "you do not play at this table")
        if table.status() == "open":
            raise ProtocolError("not_started", "nobody sits opposite you yet: leave the "
                                "table for good instead")
        await self._commit(table, lambda t: end_game(t, seat, EndReason.RESIGNED),
                           "your resignation")
        await self._after_change(table)
        return None

    async def _claim(self, conn: Connection, table: Table) -> dict[str, Any] | None:
        """The waiting player claims a game whose player to move ran out of time on the
        move clock: it ends as a loss for that player (rated tables count it if it was
        played: ``Table.counts``). No clock runs before both have made a first decision."""
        seat = table.seat_of(conn.code)
        if seat is None:
            raise ProtocolError("not_seated", "you do not play at this table")
        if table.game.is_over:
            raise ProtocolError("over", "the game is over")
        if table.status() == "open":
            raise ProtocolError("not_started", "nobody sits opposite you yet")
        if table.game.to_play == seat:
            raise ProtocolError("not_your_claim", "it is your own decision: play it")
        if table.seats[table.game.to_play].bot is not None:
            raise ProtocolError("not_your_claim", "a bot is deciding: it is never out of "
                                "time")
        if not table.clocks_run():
            waiting = "you have" if table.decisions(seat) == 0 else "the other player has"
            raise ProtocolError("too_early", "the clocks run only once both players have made "
                                f"a first decision in this game, and {waiting} not yet. "
                                "Not waiting? Leave the table for good: a game that ends "
                                "this early is abandoned and moves no rating")
        left = table.time_left(self.clock())
        if left > 0:
            raise ProtocolError("too_early", f"the other player has {left:.0f} seconds "
                                "left for this decision")
        loser = table.game.to_play
        await self._commit(table, lambda t: end_game(t, loser, EndReason.TIME), "your claim")
        await self._after_change(table)
        return None

    async def _leave_for_good(self, conn: Connection, table: Table) -> dict[str, Any]:
        """The player gives up their seat: at a table still waiting for a second player
        the seat opens again (nobody is left, so the table closes); during a game it is a
        resignation; after it, a plain leave."""
        seat = table.seat_of(conn.code)
        if seat is None:
            raise ProtocolError("not_seated", "you do not play at this table")
        if table.status() == "open":
            await self.close_open(table, f"{conn.name} left table {table.id} before anyone "
                                  "joined, so it was closed", "someone sat down at the table "
                                  "meanwhile; look again", but=conn)
        elif not table.game.is_over:
            await self._resign(conn, table)
        conn.seated.discard(table.id)
        conn.watching.discard(table.id)
        return {"type": "left", "table": table.id, "for_good": True}

    # ------------------------------------------------------------------ table updates
    async def _after_change(self, table: Table) -> None:
        """Tell everyone at ``table`` (as it now stands: looked up by its id, since a stored
        change puts a new Table in its place) about a change that is stored; a game that
        ended may make an older finished table go (``Housekeeping.prune_finished``)."""
        current = self.tables.get(table.id)
        if current is None:
            return  # it went meanwhile: nobody is at it any more
        table = current
        if table.game.is_over and await self.standings.record(table):
            self.analyst.submit(table.game_id)
        await self._broadcast(table)
        self.bot_seats.schedule(table)
        if table.game.is_over:
            self.housekeeping.prune_finished()

    async def _record_again(self, table: Table) -> bool:
        """Store a finished game's result the database refused before (housekeeping tries
        each round); once stored, everyone at the table and the lobby are told, as when it
        is stored at once (``_after_change``). True once stored."""
        if not await self.standings.record(table):
            return False
        self.analyst.submit(table.game_id)
        self.lobby_changed()
        await self._broadcast(table)
        return True

    async def _commit(self, table: Table, change: Callable[[Table], None], what: str, *,
                      active: bool = True) -> Table:
        """Make ``change`` to a copy of ``table`` (as it now stands: looked up by its id),
        store the copy, then put it in the table's place, and return it. The host's clock
        is read once: the table was active then (unless not ``active``: a watcher noted
        keeps no table alive), and a new decision's clock starts then. A
        ProtocolError from ``change``, or ``storage`` if the save failed, leaves the table
        as it was, in memory and on disk. The lock keeps a table's changes in order."""
        lock = self.save_locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            old = self.tables.get(table.id)
            if old is None:  # closed while this change waited
                raise ProtocolError("no_table", f"table {table.id} was closed")
            new = old.copy()
            change(new)
            now = self.clock()
            if active:
                new.last_active = now
            if (len(new.game.history), new.status()) != (len(old.game.history), old.status()):
                new.start_decision(old, now)  # a new decision: its clock starts
            await self._save(new, what)
            self.tables[table.id] = new  # nothing closes a table while its save holds the lock
            if new.status() != old.status():
                self.lobby_changed()
            return new

    async def close_open(self, table: Table, why: str, taken: str,
                         but: Connection | None = None) -> None:
        """Close ``table``, still open (nobody sat down since), and tell everyone at it
        but ``but`` ``why``. ProtocolError ``no_table`` if it went meanwhile, ``stale``
        (saying ``taken``) if a seat was taken meanwhile."""
        async with self.save_locks.setdefault(table.id, asyncio.Lock()):
            current = self.tables.get(table.id)
            if current is None:
                raise ProtocolError("no_table", f"table {table.id} was closed")
            if current.status() != "open":
                raise ProtocolError("stale", taken)
            del self.tables[table.id]
            self.lobby_changed()
            self.store.delete(table.id)
        self.save_locks.pop(table.id, None)
        for other in audience(self.conns, table):
            other.seated.discard(table.id)
            if other is not but:
                other.push({"type": "closed", "table": table.id, "message": why})

    async def _save(self, table: Table, what: str) -> None:
        """Save in a worker thread so the disk never stalls other tables; ``storage``
        error (saying what was not saved) if the disk refuses."""
        try:
            await asyncio.to_thread(self.store.write, table.id, self.store.snapshot(table))
        except OSError as exc:
            raise self.door.refused(exc, what) from None

    async def _broadcast(self, table: Table) -> None:
        present = presence(self.conns)
        for conn in audience(self.conns, table):
            seat = table.seat_of(conn.code) if table.id in conn.seated else None
            conn.push(state_message(table, seat, present, self.standings.rating_text,
                                    self.clock()))

    def lobby_changed(self) -> None:
        """A table came, went or changed status: the lobby's order is made afresh."""
        self._lobby = None

    def lobby_page(self, code: str | None, offset: int = 0) -> dict[str, Any]:
        """One page of the lobby for the player with ``code`` (see views). The order is
        kept between requests and sorted again only after a table came, went or changed
        its status (so a client listing often costs the host little)."""
        if self._lobby is None or len(self._lobby) != len(self.tables):
            self._lobby = LobbyOrder(self.tables)
        return lobby_page(self._lobby, self.conns, code, offset, self.limits.page_size,
                          self.standings.rating_text)

"""The game host: an asyncio server that owns every table and validates every move.

Each client gets only its own seat's observation (a watcher gets both hands hidden), every
table is saved atomically after every change, and a restarted host carries on where it
stopped. Bots play their seats in worker processes (see botpool).
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from solstis_tui.ai.registry import make_solo_bot

from ..core import IllegalMove, Move, Options
from ..core.rng import derive
from ..session import BOT_TIERS
from .admission import Door
from .botpool import BotFailed, BotPool, Decision, WorkerLost
from .connection import Connection, start_server
from .hostlock import FileLock, StartRefused, claim_data_dir, claim_socket
from .limits import ACCEPT_BURST, Limits
from .players import PlayerRegistry
from .protocol import (
    MAX_CHAT,
    VERSION,
    LineReader,
    ProtocolError,
    decode,
    field,
)
from .tables import Seat, Table, TableStore, new_table
from .views import LobbyOrder, connected, lobby_page, presence, state_message


class Host:
    """Owns the tables; ``serve_unix`` / ``serve_tcp`` start listening."""

    def __init__(
        self,
        data_dir: Path,
        *,
        bot_seconds: float = 1.0,
        limits: Limits | None = None,
        bot_factory: Callable[[str, int], Any] = make_solo_bot,
        bot_workers: int | None = None,
    ) -> None:
        """``bot_factory`` makes a bot from a tier and a seed in the worker processes: a
        module-level function, since it is sent to them by reference."""
        self.data_dir = data_dir
        self.limits = limits or Limits()
        self.store = TableStore(data_dir / "tables")
        self.players = PlayerRegistry(data_dir,
                                      expire_seconds=self.limits.player_expire_seconds)
        self.storage_errors: list[str] = []
        self.storage_retry = 5.0  # seconds before a bot whose move was refused decides again
        self.locks: list[FileLock] = []
        self.bot_seconds = bot_seconds
        self.door = Door(self.players, self.limits, self.storage_errors)
        self.max_connections = self.limits.connection_cap()
        self.refusing = 0  # connections being refused right now
        self.closing = 0  # connections hanging up (see Connection.hang_up)
        self.bots = BotPool(bot_workers, bot_factory)
        self.tables: dict[str, Table] = {}
        self.conns: set[Connection] = set()
        self.bot_tasks: dict[str, asyncio.Task] = {}
        self.closed = False
        self.create_lock = asyncio.Lock()  # a table's caps are checked and it is added as one
        self.servers: list[asyncio.AbstractServer] = []
        self.problems: list[str] = []
        self.internal_errors: list[str] = []
        self.save_locks: dict[str, asyncio.Lock] = {}
        self._lobby: LobbyOrder | None = None  # the lobby's order (see lobby_page)
        self._expiry: asyncio.Task | None = None

    # ------------------------------------------------------------------ lifecycle
    def load(self) -> None:
        """Claim the data dir (StartRefused if another host has it or it is not writable),
        then read the tables and the players; unreadable files are kept aside (``problems``)."""
        if not self.locks:
            self.locks.append(claim_data_dir(self.data_dir))
        tables, self.problems = self.store.load_all()
        self.tables = {t.id: t for t in tables}
        self._lobby = None
        try:
            self.players.load()
        except OSError as exc:
            raise StartRefused(f"cannot read the players ({exc})") from None
        self.problems += self.players.problems

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
        return server.sockets[0].getsockname()[1]

    def _started(self, server: asyncio.AbstractServer) -> None:
        self.servers.append(server)
        if self._expiry is None:
            self._expiry = asyncio.get_running_loop().create_task(self._expire_loop())
        for table in self.tables.values():
            self._schedule_bot(table)

    async def close(self) -> None:
        self.closed = True
        for server in self.servers:
            server.close()
        for conn in list(self.conns):
            conn.writer.close()
        tasks = [*self.bot_tasks.values(), *([self._expiry] if self._expiry else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.bots.close()
        for server in self.servers:
            await server.wait_closed()
        await self.players.close()
        for lock in self.locks:
            lock.release()

    # ------------------------------------------------------------------ connections
    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(writer, self.limits)
        if len(self.conns) + self.closing >= self.max_connections:
            self._make_room()
        if len(self.conns) + self.closing >= self.max_connections:
            conn.push({"type": "error", "code": "busy", "message":
                             f"the host is full ({self.max_connections} players connected); "
                             "try again in a few minutes"})
            self.refusing += 1  # a few linger so the client reads why; the rest just close
            try:
                await conn.hang_up(reader, linger=0 if self.refusing > ACCEPT_BURST else 1)
            finally:
                self.refusing -= 1
            return
        self.conns.add(conn)
        lines = LineReader()
        try:
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

    def _make_room(self) -> None:
        """The host is full: drop the oldest connection that has not said hello yet (a
        real client says hello as it connects), so that silent sockets lock nobody out."""
        silent = [c for c in self.conns if c.code is None and not c.closed]
        if silent:
            oldest = min(silent, key=lambda c: c.hello_by)
            oldest.push({"type": "error", "code": "timeout",
                         "message": "the host is full and you said no hello; disconnected"})
            oldest.drop()
            self.conns.discard(oldest)

    async def _handle_line(self, conn: Connection, line: bytes | None) -> None:
        msg_id, closing = None, False
        try:
            if line is None:
                raise ProtocolError("too_big", "message longer than the 64 KiB limit")
            message = decode(line)
            msg_id = message.get("id") if isinstance(message.get("id"), (int, str)) else None
            reply = await self._dispatch(conn, message)
        except ProtocolError as exc:
            reply = {"type": "error", "code": exc.code, "message": exc.message}
            closing = exc.close
        except Exception as exc:  # a bug must cost one reply, never the host
            self.internal_errors.append(f"{type(exc).__name__}: {exc}")
            reply = {"type": "error", "code": "internal", "message": "the host failed on that"}
        if reply is not None:
            if msg_id is not None:
                reply["id"] = msg_id
            conn.push(reply)
        conn.closed = conn.closed or closing

    async def _gone(self, conn: Connection) -> None:
        for table_id in conn.seated | conn.watching:
            table = self.tables.get(table_id)
            if table is not None:
                await self._broadcast(table)

    # ------------------------------------------------------------------ messages
    async def _dispatch(self, conn: Connection, msg: dict[str, Any]) -> dict | None:
        kind = msg["type"]
        if kind == "ping":
            return {"type": "pong"}
        if kind == "hello":
            return await self._hello(conn, msg)
        if conn.code is None:
            raise ProtocolError("hello_first", "say hello first")
        if kind == "list":
            offset = field(msg, "offset", int, default=0)
            if offset < 0:
                raise ProtocolError("bad_message", "list: 'offset' is 0 or more")
            return {"type": "tables", **self.lobby_page(conn.code, offset)}
        table_id = field(msg, "table", str, default=None, max_len=16)
        if kind == "create":
            return await self._create(conn, msg)
        table = self.tables.get(table_id) if table_id else None
        if table is None:
            raise ProtocolError("no_table", f"there is no table {table_id!r}")
        if kind == "join":
            return await self._join(conn, table)
        if kind == "watch":
            conn.watching.add(table.id)
            conn.push({"type": "watching", "table": table.id})
            conn.push(state_message(table, None, presence(self.conns)))
            return None
        if kind == "leave":
            conn.seated.discard(table.id)
            conn.watching.discard(table.id)
            await self._broadcast(table)
            return {"type": "left", "table": table.id}
        if kind == "chat":
            return await self._chat(conn, table, msg)
        return await self._move(conn, table, msg)

    async def _hello(self, conn: Connection, msg: dict[str, Any]) -> None:
        code = await self.door.admit(conn, msg)
        others = sum(c.code == conn.code for c in self.conns if c is not conn and not c.closed)
        if others >= self.limits.connections_per_player:
            conn.code = conn.name = None
            raise ProtocolError("too_many", f"you are connected {others} times here already: "
                                "close another window first", close=True)
        seated = [t for t in self.tables.values() if t.seat_of(conn.code) is not None]
        conn.push({"type": "welcome", "name": conn.name, "code": code,
                         "version": VERSION, **self.lobby_page(conn.code),
                         "seated": [t.id for t in seated]})
        for table in seated:
            conn.seated.add(table.id)
            await self._broadcast(table)
            await conn.drained()

    async def _create(self, conn: Connection, msg: dict[str, Any]) -> dict | None:
        try:
            options = Options.for_variant(field(msg, "variant", str, default="base", max_len=12))
        except ValueError as exc:
            raise ProtocolError("bad_message", str(exc)) from None
        opponent = field(msg, "opponent", str, default="friend", max_len=12)
        if opponent != "friend" and opponent not in BOT_TIERS:  # the host's own tiers only
            raise ProtocolError("bad_message", f"opponent is 'friend' or one of {BOT_TIERS}")
        seat = field(msg, "seat", int, default=random.randrange(2))
        if seat not in (0, 1):
            raise ProtocolError("bad_message", "seat is 0 or 1")
        seats = [Seat(), Seat()]
        seats[seat] = Seat(conn.name, conn.code)
        if opponent != "friend":
            seats[1 - seat] = Seat(opponent.capitalize(), None, opponent)
        async with self.create_lock:  # no second create can pass the caps during the save
            self._check_caps(conn, against_bot=opponent != "friend")
            table = new_table(options, seats)
            while table.id in self.tables:  # table ids are short: never reuse one
                table = new_table(options, seats)
            await self._save(table, "the new table")  # listed only once it is stored
            self.tables[table.id] = table
            self._lobby = None
        conn.seated.add(table.id)
        conn.push({"type": "joined", "table": table.id, "seat": seat})
        await self._broadcast(table)
        self._schedule_bot(table)
        return None

    def _check_caps(self, conn: Connection, *, against_bot: bool | None) -> None:
        """Refuse one more table for this player (``against_bot`` None: a seat taken at an
        open table, which adds no open table) beyond the limits."""
        mine = [t for t in self.tables.values()
                if t.seat_of(conn.code) is not None and not t.game.is_over]
        if len(mine) >= self.limits.tables_per_player:
            raise ProtocolError("too_many", f"you already sit at {len(mine)} unfinished "
                                "tables here: finish one first")
        cap = self.limits.bot_tables_per_player
        if against_bot and sum(any(s.bot for s in t.seats) for t in mine) >= cap:
            raise ProtocolError("too_many", f"you already have {cap} unfinished games against "
                                "bots here: finish one first")
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

    async def _join(self, conn: Connection, table: Table) -> dict | None:
        seat = table.seat_of(conn.code)
        if seat is None:
            def sit(t: Table) -> None:
                free = [i for i, s in enumerate(t.seats) if s.is_open]
                if not free:
                    raise ProtocolError("table_full", "both seats are taken; you can watch")
                t.seats[free[0]] = Seat(conn.name, conn.code)

            async with self.create_lock:
                self._check_caps(conn, against_bot=None)
                await self._commit(table, sit, "your seat")
            seat = table.seat_of(conn.code)
        conn.seated.add(table.id)
        conn.push({"type": "joined", "table": table.id, "seat": seat})
        await self._broadcast(table)
        return None

    async def _chat(self, conn: Connection, table: Table, msg: dict[str, Any]) -> None:
        if table.id not in conn.seated | conn.watching:
            raise ProtocolError("not_here", "join or watch the table to chat")
        text = field(msg, "text", str, max_len=MAX_CHAT).strip()
        if not text.isprintable():
            raise ProtocolError("bad_message", "chat takes printable text")
        for other in self._audience(table):
            other.push({"type": "chat", "table": table.id, "name": conn.name,
                              "text": text})
        return None

    async def _move(self, conn: Connection, table: Table, msg: dict[str, Any]) -> dict | None:
        seat = table.seat_of(conn.code)
        if seat is None or table.id not in conn.seated:
            raise ProtocolError("not_seated", "you do not play at this table")

        def play(t: Table) -> None:
            game = t.game
            if game.is_over:
                raise ProtocolError("over", "the game is over")
            if game.to_play != seat:
                raise ProtocolError("not_your_turn", "it is not your turn")
            seq = field(msg, "seq", int, default=None)
            if seq is not None and seq != len(game.history):
                raise ProtocolError("stale", "the game moved on; look again")
            text = field(msg, "move", str, max_len=40)
            try:
                game.play(Move.parse(text))
            except (ValueError, IllegalMove) as exc:
                raise ProtocolError("illegal", str(exc)) from None

        await self._commit(table, play, "that move")
        await self._after_change(table)
        return None

    # ------------------------------------------------------------------ table updates
    async def _after_change(self, table: Table) -> None:
        """Tell everyone at ``table`` about a change that is stored."""
        await self._broadcast(table)
        self._schedule_bot(table)

    async def _commit(self, table: Table, change: Callable[[Table], None], what: str) -> None:
        """Make ``change`` to ``table`` only once it is stored: it is made to a copy, the
        copy is saved, and then it is made to the table itself (so it must be deterministic).
        A ProtocolError from ``change``, or ``storage`` if the save failed, leaves the table
        as it was, in memory and on disk. The lock keeps a table's changes in order."""
        lock = self.save_locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            if self.tables.get(table.id) is not table:  # closed while this change waited
                raise ProtocolError("no_table", f"table {table.id} was closed")
            trial = Table(table.id, table.game.copy(), [replace(s) for s in table.seats],
                          table.created, time.time())
            change(trial)
            await self._save(trial, what)
            status = table.status()
            change(table)
            table.last_active = trial.last_active
            if table.status() != status:
                self._lobby = None

    async def _save(self, table: Table, what: str) -> None:
        """Save in a worker thread so the disk never stalls other tables; ``storage``
        error (saying what was not saved) if the disk refuses."""
        try:
            await asyncio.to_thread(self.store.write, table.id, self.store.snapshot(table))
        except OSError as exc:
            raise self.door.refused(exc, what) from None

    async def _bot_play(self, table: Table, move: Move) -> None:
        """Play a bot's move once it is stored; if the disk refuses, wait and let the bot
        loop ask again (the table is unchanged)."""
        seq = len(table.game.history)

        def play(t: Table) -> None:
            if len(t.game.history) != seq:
                raise ProtocolError("stale", "the game moved on")
            t.game.play(move)

        try:
            await self._commit(table, play, "a bot's move")
        except ProtocolError as exc:
            if exc.code == "storage":
                await asyncio.sleep(self.storage_retry)
            return
        await self._after_change(table)

    def _audience(self, table: Table) -> list[Connection]:
        return [c for c in self.conns if table.id in c.seated | c.watching and not c.closed]

    async def _broadcast(self, table: Table) -> None:
        present = presence(self.conns)
        for conn in self._audience(table):
            seat = table.seat_of(conn.code) if table.id in conn.seated else None
            conn.push(state_message(table, seat, present))

    def lobby_page(self, code: str | None, offset: int = 0) -> dict[str, Any]:
        """One page of the lobby for the player with ``code`` (see views). The order is
        kept between requests and sorted again only after a table came, went or changed
        its status (so a client listing often costs the host little)."""
        if self._lobby is None or len(self._lobby) != len(self.tables):
            self._lobby = LobbyOrder(self.tables.values())
        return lobby_page(self._lobby, self.conns, code, offset, self.limits.page_size)

    # ------------------------------------------------------------------ bots
    def _schedule_bot(self, table: Table) -> None:
        game = table.game
        if game.is_over or table.seats[game.to_play].bot is None:
            return
        task = self.bot_tasks.get(table.id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._bot_turns(table))
            self.bot_tasks[table.id] = task
            task.add_done_callback(
                lambda t: self.bot_tasks.pop(table.id) if self.bot_tasks.get(table.id) is t
                else None)

    async def _bot_turns(self, table: Table) -> None:
        """Play the table's bot seats through the worker pool; the loop only waits."""
        game = table.game
        while not game.is_over and table.seats[game.to_play].bot and not self.closed:
            seat = game.to_play
            seq = len(game.history)
            bot_seed = derive(game.seed, b"host-bot", seq * 2 + seat)  # reveals nothing
            decision = Decision(table.seats[seat].bot, bot_seed, game.observation(seat),
                                self.bot_seconds)
            move = None
            for _ in range(2):  # a lost worker is replaced: ask once more
                try:
                    move = Move.parse(await self.bots.decide(table.id, decision))
                    break
                except WorkerLost:
                    continue
                except (BotFailed, ValueError):
                    break
            if (self.closed or self.tables.get(table.id) is not table
                    or len(game.history) != seq):
                return
            if move not in game.legal_moves():  # a broken bot must not stop the table
                move = random.Random(bot_seed).choice(game.legal_moves())
            await self._bot_play(table, move)  # on a storage failure the loop asks again

    # ------------------------------------------------------------------ expiry
    async def _expire_loop(self) -> None:
        while True:
            shortest = min(self.limits.table_expire_seconds, self.limits.open_table_seconds)
            await asyncio.sleep(min(60.0, max(0.05, shortest / 4)))
            self.expire()
            self.prune_players()

    def prune_players(self, now: float | None = None) -> list[str]:
        """Forget resume codes unused for too long, except those of players who are
        connected or seated at a table."""
        keep = {s.code for t in self.tables.values() for s in t.seats if s.code}
        keep |= {c.code for c in self.conns if c.code}
        return self.players.prune(now, keep)

    def expire(self, now: float | None = None) -> list[str]:
        """Drop tables nobody is connected to that have been idle too long, and tables
        still waiting for a second player ``open_table_seconds`` after they were made."""
        now = time.time() if now is None else now
        wait = self.limits.open_table_seconds
        gone = []
        present = presence(self.conns)
        for table in list(self.tables.values()):
            humans = [s for s, c in zip(table.seats, connected(table, present), strict=True)
                      if s.bot is None and s.code and c]
            waited = table.status() == "open" and now - table.created > wait
            idle = now - table.last_active > self.limits.table_expire_seconds
            if not waited and (humans or not idle):
                continue
            lock = self.save_locks.get(table.id)
            if lock is not None and lock.locked():
                continue  # a save is landing: the next round takes it
            why = (f"nobody took the open seat at table {table.id} in {wait / 60:g} minutes"
                   if waited else f"table {table.id} had no move and no player for "
                   f"{self.limits.table_expire_seconds / 3600:g} hours")
            for conn in self._audience(table):
                conn.push({"type": "closed", "table": table.id,
                           "message": f"{why}, so it was closed"})
                conn.seated.discard(table.id)
                conn.watching.discard(table.id)
            del self.tables[table.id]
            self._lobby = None
            self.save_locks.pop(table.id, None)
            self.store.delete(table.id)
            gone.append(table.id)
        return gone

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
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from ai.registry import make_bot

from ..core import IllegalMove, Move, Options
from ..core.observation import observe
from ..core.observation_json import observation_to_dict
from ..session import BOT_TIERS
from .botpool import MAX_BOT_TABLES_PER_PLAYER, BotFailed, BotPool, Decision, WorkerLost
from .connection import Connection, start_server
from .hostlock import FileLock, StartRefused, claim_data_dir, claim_socket
from .limits import ACCEPT_BURST, Limits, per_minute
from .listing import lobby_page
from .names import BadName, name_key, normalize_name
from .players import EXPIRE_SECONDS, PlayerRegistry
from .protocol import (
    MAX_CHAT,
    MAX_NAME,
    VERSION,
    LineReader,
    ProtocolError,
    decode,
    field,
)
from .tables import Seat, Table, TableStore, new_table


class Host:
    """Owns the tables; ``serve_unix`` / ``serve_tcp`` start listening."""

    def __init__(
        self,
        data_dir: Path,
        *,
        bot_seconds: float = 1.0,
        expire_seconds: float = 24 * 3600,
        rate: float = 20.0,
        burst: float = 60.0,
        limits: Limits | None = None,
        bot_factory: Callable[[str, int], Any] = make_bot,
        bot_workers: int | None = None,
        max_bot_tables: int = MAX_BOT_TABLES_PER_PLAYER,
        player_expire_seconds: float = EXPIRE_SECONDS,
    ) -> None:
        self.data_dir = data_dir
        self.store = TableStore(data_dir / "tables")
        self.players = PlayerRegistry(data_dir, expire_seconds=player_expire_seconds)
        self.storage_errors: list[str] = []
        self.storage_retry = 5.0  # seconds before a bot's refused move is tried again
        self.locks: list[FileLock] = []
        self.tcp_token: str | None = None
        self.bot_seconds, self.expire_seconds = bot_seconds, expire_seconds
        self.rate, self.burst = rate, burst
        self.limits = limits or Limits()
        self.max_connections = self.limits.connection_cap()
        self.refusing = 0  # connections being refused right now
        self.closing = 0  # connections hanging up (see Connection.hang_up)
        self.new_names = per_minute(self.limits.new_names_per_minute)
        self.code_failures = per_minute(self.limits.code_failures_per_minute)
        self.bot_factory = bot_factory
        self.bots = BotPool(bot_workers, bot_factory)  # module-level factory: it is pickled
        self.max_bot_tables = max_bot_tables
        self.tables: dict[str, Table] = {}
        self.conns: set[Connection] = set()
        self.bot_tasks: dict[str, asyncio.Task] = {}
        self.cancel = threading.Event()
        self.servers: list[asyncio.AbstractServer] = []
        self.problems: list[str] = []
        self.internal_errors: list[str] = []
        self.save_locks: dict[str, asyncio.Lock] = {}
        self._expiry: asyncio.Task | None = None

    # ------------------------------------------------------------------ lifecycle
    def load(self) -> None:
        """Claim the data dir (StartRefused if another host has it or it is not writable),
        then read the tables and the players; unreadable files are kept aside (``problems``)."""
        if not self.locks:
            self.locks.append(claim_data_dir(self.data_dir))
        tables, self.problems = self.store.load_all()
        self.tables = {t.id: t for t in tables}
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
        if not given: see ``tcp_token``), since any local user can connect."""
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the host listens on loopback only (127.0.0.1 or ::1)")
        if not self.locks:
            self.load()
        self.tcp_token = token or self.tcp_token or secrets.token_urlsafe(32)
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
        self.cancel.set()
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
        conn = Connection(writer, self.rate, self.burst, self.limits)
        if len(self.conns) + self.closing >= self.max_connections:
            await conn.send({"type": "error", "code": "busy", "message":
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
                    await conn.send({"type": "error", "code": "timeout", "message": why})
                    break
                if not data:
                    break
                for line in lines.feed(data):
                    if not conn.allow():
                        await conn.send({"type": "error", "code": "flood",
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
            await conn.send(reply)
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
            await conn.send({"type": "watching", "table": table.id})
            await self._send_state(conn, table, None)
            return None
        if kind == "leave":
            conn.seated.discard(table.id)
            conn.watching.discard(table.id)
            await self._broadcast(table)
            return {"type": "left", "table": table.id}
        if kind == "chat":
            return await self._chat(conn, table, msg)
        return await self._move(conn, table, msg)

    async def _hello(self, conn: Connection, msg: dict[str, Any]) -> dict:
        if field(msg, "version", int) != VERSION:
            raise ProtocolError("version", f"this host speaks protocol version {VERSION}")
        if conn.code is not None:
            raise ProtocolError("bad_message", "hello was already said")
        self._check_token(conn, msg)
        code = field(msg, "code", str, default=None, max_len=32)
        if code is not None:
            self._check_code_budget()
            if self.players.lookup(code) is None:  # unknown, or expired
                raise self._wrong_code(conn)
            name = self.players[code]
            if self.players.is_legacy(code):  # an old 32-bit code: exchanged once, for good
                try:
                    code = await self.players.exchange(code)
                except OSError as exc:
                    raise self._storage_error(exc, "your new resume code") from None
            self.players.touch(code)
        else:
            try:  # padding and invisible characters may make the raw text longer
                name = normalize_name(field(msg, "name", str, max_len=4 * MAX_NAME))
            except BadName as exc:
                raise ProtocolError("bad_name", str(exc)) from None
            if self.players.key_taken(name_key(name)):
                raise ProtocolError("name_taken", f"the name {name} is taken: choose another "
                                    "(or type your #code to come back as yourself)")
            if not self.new_names.take():
                raise ProtocolError("busy", "many new players arrived just now: try again in "
                                    "a minute (or type your #code to come back as yourself)")
            try:
                code = await self.players.register(name)
            except OSError as exc:
                raise self._storage_error(exc, "your name") from None
        conn.code, conn.name = self.players.seat_code(code), name  # code: what seats know
        seated = [t for t in self.tables.values() if t.seat_of(conn.code) is not None]
        await conn.send({"type": "welcome", "name": name, "code": code,
                         "version": VERSION, **self.lobby_page(conn.code),
                         "seated": [t.id for t in seated]})
        for table in seated:
            conn.seated.add(table.id)
            await self._broadcast(table)
            await conn.drained()
        return None

    def _check_code_budget(self) -> None:
        """Refuse every resume code while too many wrong ones were tried host-wide."""
        if not self.code_failures.ready():
            raise ProtocolError("busy", "too many wrong resume codes were tried here just now: "
                                "try again in a minute", close=True)

    def _wrong_code(self, conn: Connection) -> ProtocolError:
        """Count a wrong resume code against the connection and the host."""
        self.code_failures.take()
        conn.code_failures += 1
        if conn.code_failures >= self.limits.code_failures_per_connection:
            return ProtocolError("unknown_code", "that resume code is not known here; too many "
                                 "wrong codes, disconnected", close=True)
        return ProtocolError("unknown_code", "that resume code is not known here")

    async def _create(self, conn: Connection, msg: dict[str, Any]) -> dict | None:
        mine = [t for t in self.tables.values()
                if t.seat_of(conn.code) is not None and not t.game.is_over]
        if len(mine) >= self.limits.tables_per_player:
            raise ProtocolError("too_many", f"you already sit at {len(mine)} unfinished "
                                "tables here: finish one first")
        try:
            options = Options.for_variant(field(msg, "variant", str, default="base", max_len=12))
        except ValueError as exc:
            raise ProtocolError("bad_message", str(exc)) from None
        opponent = field(msg, "opponent", str, default="friend", max_len=12)
        if opponent != "friend" and opponent not in BOT_TIERS:
            raise ProtocolError("bad_message", f"opponent is 'friend' or one of {BOT_TIERS}")
        if opponent == "friend" and sum(t.status() == "open" for t in self.tables.values()
                                        ) >= self.limits.max_open_tables:
            raise ProtocolError("busy", f"{self.limits.max_open_tables} tables are already "
                                "waiting for a player here: join one of them, or try later")
        if opponent != "friend" and sum(
                t.seat_of(conn.code) is not None and not t.game.is_over
                and any(s.bot for s in t.seats) for t in self.tables.values()
        ) >= self.max_bot_tables:
            raise ProtocolError("too_many", f"you already have {self.max_bot_tables} unfinished "
                                "games against bots here: finish one first")
        seat = field(msg, "seat", int, default=random.randrange(2))
        if seat not in (0, 1):
            raise ProtocolError("bad_message", "seat is 0 or 1")
        seats = [Seat(), Seat()]
        seats[seat] = Seat(conn.name, conn.code)
        if opponent != "friend":
            seats[1 - seat] = Seat(opponent.capitalize(), None, opponent)
        table = new_table(options, seats)
        while table.id in self.tables:  # table ids are short: never reuse one
            table = new_table(options, seats)
        await self._save(table, "the new table")  # listed only once it is stored
        self.tables[table.id] = table
        conn.seated.add(table.id)
        await conn.send({"type": "joined", "table": table.id, "seat": seat})
        await self._broadcast(table)
        self._schedule_bot(table)
        return None

    async def _join(self, conn: Connection, table: Table) -> dict | None:
        seat = table.seat_of(conn.code)
        if seat is None:
            def sit(t: Table) -> None:
                free = [i for i, s in enumerate(t.seats) if s.is_open]
                if not free:
                    raise ProtocolError("table_full", "both seats are taken; you can watch")
                t.seats[free[0]] = Seat(conn.name, conn.code)

            await self._commit(table, sit, "your seat")
            seat = table.seat_of(conn.code)
        conn.seated.add(table.id)
        await conn.send({"type": "joined", "table": table.id, "seat": seat})
        await self._broadcast(table)
        return None

    async def _chat(self, conn: Connection, table: Table, msg: dict[str, Any]) -> None:
        if table.id not in conn.seated | conn.watching:
            raise ProtocolError("not_here", "join or watch the table to chat")
        text = field(msg, "text", str, max_len=MAX_CHAT).strip()
        if not text.isprintable():
            raise ProtocolError("bad_message", "chat takes printable text")
        for other in self._audience(table):
            await other.send({"type": "chat", "table": table.id, "name": conn.name,
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
            trial = Table(table.id, table.game.copy(), [replace(s) for s in table.seats],
                          table.created, time.time())
            change(trial)
            await self._save(trial, what)
            change(table)
            table.last_active = trial.last_active

    async def _save(self, table: Table, what: str) -> None:
        """Save in a worker thread so the disk never stalls other tables; ``storage``
        error (saying what was not saved) if the disk refuses."""
        try:
            await asyncio.to_thread(self.store.write, table.id, self.store.snapshot(table))
        except OSError as exc:
            raise self._storage_error(exc, what) from None

    def _storage_error(self, exc: OSError, what: str) -> ProtocolError:
        self.storage_errors.append(f"{what}: {exc}")
        return ProtocolError("storage", f"the host could not save {what} (its disk refused: "
                             f"{exc.strerror or exc}); nothing changed")

    def _check_token(self, conn: Connection, msg: dict[str, Any]) -> None:
        """Over TCP (open to every local user) a hello must carry the host's token."""
        sock = conn.writer.get_extra_info("socket")
        if sock is None or sock.family == socket.AF_UNIX:
            return
        token = field(msg, "token", str, default="", max_len=128)
        if not self.tcp_token or not secrets.compare_digest(token, self.tcp_token):
            raise ProtocolError("bad_token", "this host needs its token on TCP (see the file "
                                "'tcp-token' in its data folder)")

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

    def _connected(self, table: Table) -> list[bool]:
        seated = [c for c in self.conns if table.id in c.seated and not c.closed]
        return [seat.bot is not None or any(c.code == seat.code for c in seated)
                for seat in table.seats]

    async def _broadcast(self, table: Table) -> None:
        for conn in self._audience(table):
            seat = table.seat_of(conn.code) if table.id in conn.seated else None
            await self._send_state(conn, table, seat)

    async def _send_state(self, conn: Connection, table: Table, seat: int | None) -> None:
        game = table.game
        obs = observe(game, seat, spectator=False) if seat is not None else observe(
            game, 0, spectator=True)
        connected = self._connected(table)
        await conn.send({
            "type": "state",
            "table": table.id,
            "seat": seat,
            "seats": [{"name": s.name, "bot": s.bot, "connected": connected[i]}
                      for i, s in enumerate(table.seats)],
            "scores": [game.score(0).total, game.score(1).total],
            "observation": observation_to_dict(obs),
        })

    def lobby_page(self, code: str | None, offset: int = 0) -> dict[str, Any]:
        """One page of the lobby for the player with ``code`` (see listing)."""
        return lobby_page(self.tables.values(), self.conns, code, offset,
                          self.limits.page_size)

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
        while not game.is_over and table.seats[game.to_play].bot and not self.cancel.is_set():
            seat = game.to_play
            seq = len(game.history)
            decision = Decision(table.seats[seat].bot, seq * 2 + seat, game.observation(seat),
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
            if (self.cancel.is_set() or self.tables.get(table.id) is not table
                    or len(game.history) != seq):
                return
            if move not in game.legal_moves():  # a broken bot must not stop the table
                move = random.Random(seq).choice(game.legal_moves())
            await self._bot_play(table, move)  # on a storage failure the loop asks again

    # ------------------------------------------------------------------ expiry
    async def _expire_loop(self) -> None:
        while True:
            shortest = min(self.expire_seconds, self.limits.open_table_seconds)
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
        for table in list(self.tables.values()):
            humans = [c for i, c in enumerate(self._connected(table))
                      if table.seats[i].bot is None and table.seats[i].code and c]
            waited = table.status() == "open" and now - table.created > wait
            if not waited and (humans or now - table.last_active <= self.expire_seconds):
                continue
            lock = self.save_locks.get(table.id)
            if lock is not None and lock.locked():
                continue  # a save is landing: the next round takes it
            why = (f"nobody took the open seat at table {table.id} in {wait / 60:g} minutes"
                   if waited else f"table {table.id} had no move and no player for "
                   f"{self.expire_seconds / 3600:g} hours")
            for conn in self._audience(table):
                conn.push({"type": "closed", "table": table.id,
                           "message": f"{why}, so it was closed"})
                conn.seated.discard(table.id)
                conn.watching.discard(table.id)
            del self.tables[table.id]
            self.save_locks.pop(table.id, None)
            self.store.delete(table.id)
            gone.append(table.id)
        return gone

"""The game host: an asyncio server that owns every table and validates every move.

Each client gets only its own seat's observation (a watcher gets both hands hidden), every
table is saved atomically after every change, and a restarted host carries on where it
stopped. Bots play their seats in worker threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ai.registry import make_bot

from ..core import IllegalMove, Move, Options
from ..core.observation import observe
from ..core.observation_json import observation_to_dict
from ..saves import write_atomic
from ..session import BOT_TIERS
from .protocol import (
    MAX_CHAT,
    MAX_NAME,
    VERSION,
    LineReader,
    ProtocolError,
    decode,
    encode,
    field,
)
from .tables import Seat, Table, TableStore, new_table

MAX_TABLES_PER_PLAYER = 5


class Connection:
    """One client: who it is, where it sits, and its message allowance."""

    def __init__(self, writer: asyncio.StreamWriter, rate: float, burst: float) -> None:
        self.writer = writer
        self.code: str | None = None
        self.name: str | None = None
        self.seated: set[str] = set()
        self.watching: set[str] = set()
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()
        self.closed = False

    def allow(self) -> bool:
        """Spend one message of the allowance; False once the client floods."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        self.tokens -= 1
        return self.tokens >= 0

    async def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            self.writer.write(encode(message))
            await asyncio.wait_for(self.writer.drain(), timeout=10)
        except (TimeoutError, OSError, RuntimeError):
            self.closed = True


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
        bot_factory: Callable[[str, int], Any] = make_bot,
    ) -> None:
        self.data_dir = data_dir
        self.store = TableStore(data_dir / "tables")
        self.players_path = data_dir / "players.json"
        self.bot_seconds, self.expire_seconds = bot_seconds, expire_seconds
        self.rate, self.burst = rate, burst
        self.bot_factory = bot_factory
        self.tables: dict[str, Table] = {}
        self.players: dict[str, str] = {}
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
        tables, self.problems = self.store.load_all()
        self.tables = {t.id: t for t in tables}
        try:
            self.players = json.loads(self.players_path.read_text())
        except (OSError, ValueError):
            self.players = {}

    async def serve_unix(self, path: Path, mode: int = 0o600) -> None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        old = os.umask(0o177)
        try:
            server = await asyncio.start_unix_server(self._client, path=str(path))
        finally:
            os.umask(old)
        os.chmod(path, mode)
        self._started(server)

    async def serve_tcp(self, host: str, port: int) -> int:
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the host listens on loopback only (127.0.0.1 or ::1)")
        server = await asyncio.start_server(self._client, host=host, port=port)
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
        for server in self.servers:
            await server.wait_closed()

    # ------------------------------------------------------------------ connections
    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(writer, self.rate, self.burst)
        self.conns.add(conn)
        lines = LineReader()
        try:
            while not conn.closed:
                data = await reader.read(65536)
                if not data:
                    break
                for line in lines.feed(data):
                    if not conn.allow():
                        await conn.send({"type": "error", "code": "flood",
                                         "message": "too many messages; disconnected"})
                        conn.closed = True
                        break
                    await self._handle_line(conn, line)
        except (ConnectionError, OSError):
            pass
        finally:
            conn.closed = True
            self.conns.discard(conn)
            writer.close()
            await self._gone(conn)

    async def _handle_line(self, conn: Connection, line: bytes | None) -> None:
        msg_id = None
        try:
            if line is None:
                raise ProtocolError("too_big", "message longer than the 64 KiB limit")
            message = decode(line)
            msg_id = message.get("id") if isinstance(message.get("id"), (int, str)) else None
            reply = await self._dispatch(conn, message)
        except ProtocolError as exc:
            reply = {"type": "error", "code": exc.code, "message": exc.message}
        except Exception as exc:  # a bug must cost one reply, never the host
            self.internal_errors.append(f"{type(exc).__name__}: {exc}")
            reply = {"type": "error", "code": "internal", "message": "the host failed on that"}
        if reply is not None:
            if msg_id is not None:
                reply["id"] = msg_id
            await conn.send(reply)

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
            return {"type": "tables", "tables": self.listing()}
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
        code = field(msg, "code", str, default=None, max_len=32)
        if code is not None:
            if code not in self.players:
                raise ProtocolError("unknown_code", "that resume code is not known here")
            name = self.players[code]
        else:
            name = field(msg, "name", str, max_len=MAX_NAME).strip()
            if not name or not name.isprintable():
                raise ProtocolError("bad_message", "a name needs printable characters")
            code = secrets.token_hex(4)
            self.players[code] = name
            write_atomic(self.players_path, json.dumps(self.players))
        conn.code, conn.name = code, name
        seated = [t for t in self.tables.values() if t.seat_of(code) is not None]
        await conn.send({"type": "welcome", "name": name, "code": code,
                         "version": VERSION, "tables": self.listing(),
                         "seated": [t.id for t in seated]})
        for table in seated:
            conn.seated.add(table.id)
            await self._broadcast(table)
        return None

    async def _create(self, conn: Connection, msg: dict[str, Any]) -> dict | None:
        mine = [t for t in self.tables.values()
                if t.seat_of(conn.code) is not None and not t.game.is_over]
        if len(mine) >= MAX_TABLES_PER_PLAYER:
            raise ProtocolError("too_many", "finish or abandon a game first")
        try:
            options = Options.for_variant(field(msg, "variant", str, default="base", max_len=12))
        except ValueError as exc:
            raise ProtocolError("bad_message", str(exc)) from None
        opponent = field(msg, "opponent", str, default="friend", max_len=12)
        if opponent != "friend" and opponent not in BOT_TIERS:
            raise ProtocolError("bad_message", f"opponent is 'friend' or one of {BOT_TIERS}")
        seat = field(msg, "seat", int, default=random.randrange(2))
        if seat not in (0, 1):
            raise ProtocolError("bad_message", "seat is 0 or 1")
        seats = [Seat(), Seat()]
        seats[seat] = Seat(conn.name, conn.code)
        if opponent != "friend":
            seats[1 - seat] = Seat(opponent.capitalize(), None, opponent)
        table = new_table(options, seats)
        self.tables[table.id] = table
        await self._save(table)
        conn.seated.add(table.id)
        await conn.send({"type": "joined", "table": table.id, "seat": seat})
        await self._broadcast(table)
        self._schedule_bot(table)
        return None

    async def _join(self, conn: Connection, table: Table) -> dict | None:
        seat = table.seat_of(conn.code)
        if seat is None:
            free = [i for i, s in enumerate(table.seats) if s.is_open]
            if not free:
                raise ProtocolError("table_full", "both seats are taken; you can watch")
            seat = free[0]
            table.seats[seat] = Seat(conn.name, conn.code)
            await self._save(table)
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
        game = table.game
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
        await self._after_change(table)
        return None

    # ------------------------------------------------------------------ table updates
    async def _after_change(self, table: Table) -> None:
        table.last_active = time.time()
        await self._save(table)
        await self._broadcast(table)
        self._schedule_bot(table)

    async def _save(self, table: Table) -> None:
        """Save in a worker thread so the disk never stalls other tables; the lock keeps
        a table's snapshots landing in order."""
        lock = self.save_locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            await asyncio.to_thread(self.store.write, table.id, self.store.snapshot(table))

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

    def listing(self) -> list[dict[str, Any]]:
        rows = []
        for table in sorted(self.tables.values(), key=lambda t: t.created):
            connected = self._connected(table)
            rows.append({
                "table": table.id,
                "variant": table.variant,
                "status": table.status(),
                "turn": table.game.turn,
                "seats": [{"name": s.name, "bot": s.bot, "connected": connected[i]}
                          for i, s in enumerate(table.seats)],
                "watchers": sum(table.id in c.watching for c in self.conns),
            })
        return rows

    # ------------------------------------------------------------------ bots
    def _schedule_bot(self, table: Table) -> None:
        game = table.game
        if game.is_over or table.seats[game.to_play].bot is None:
            return
        task = self.bot_tasks.get(table.id)
        if task is None or task.done():
            self.bot_tasks[table.id] = asyncio.get_running_loop().create_task(
                self._bot_turns(table))

    async def _bot_turns(self, table: Table) -> None:
        from ai.base import Budget

        game = table.game
        while not game.is_over and table.seats[game.to_play].bot and not self.cancel.is_set():
            seat = game.to_play
            bot = self.bot_factory(table.seats[seat].bot, len(game.history) * 2 + seat)
            obs = game.observation(seat)
            seq = len(game.history)
            try:
                move = await asyncio.to_thread(
                    bot.choose, obs, Budget(seconds=self.bot_seconds), self.cancel)
            except Exception:  # a broken bot must not stop the table: play a legal move
                move = random.Random(seq).choice(obs.legal_moves)
            if self.tables.get(table.id) is not table or len(game.history) != seq:
                return
            if move not in game.legal_moves():
                move = random.Random(seq).choice(game.legal_moves())
            game.play(move)
            await self._after_change(table)

    # ------------------------------------------------------------------ expiry
    async def _expire_loop(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, max(0.05, self.expire_seconds / 4)))
            self.expire()

    def expire(self, now: float | None = None) -> list[str]:
        """Drop tables nobody is connected to that have been idle too long."""
        now = time.time() if now is None else now
        gone = []
        for table in list(self.tables.values()):
            humans = [c for i, c in enumerate(self._connected(table))
                      if table.seats[i].bot is None and table.seats[i].code and c]
            if not humans and now - table.last_active > self.expire_seconds:
                del self.tables[table.id]
                self.store.delete(table.id)
                gone.append(table.id)
        return gone

"""One client of the game host: who it is, where it sits, and what it may cost the host.

Sending never waits for the client: messages go to the connection's buffer, and a client
that leaves more than ``send_buffer`` bytes unread is dropped, so a client that does not
read never slows anyone else. Only the client's own request loop waits for it to read its
own replies (``drained``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import ssl
from collections.abc import Iterable
from typing import Any

from ..wire.protocol import encode
from ..wire.replies import HostReply
from ..wire.tls import frontend_name
from .identity import LOCAL, TlsPeer, Who
from .limits import ACCEPT_BURST, Limits, TokenBucket

LINGER_SECONDS = 2.0  # a closing connection waits this long for the client to hang up

log = logging.getLogger("solstis.host")


async def start_server(start: Any, backlog: int, **where: Any) -> asyncio.Server:
    """``start(**where)`` (``asyncio.start_unix_server`` or ``start_server``) with
    ``backlog`` connects allowed to wait in the kernel's queue. asyncio accepts as many
    connections per wake-up as the backlog it is given, so it gets ``ACCEPT_BURST`` (the
    host never holds many more descriptors than its cap) and the queue is deepened after."""
    server: asyncio.Server = await start(backlog=ACCEPT_BURST, **where)
    for sock in server.sockets:
        with socket.socket(fileno=os.dup(sock.fileno())) as same:
            same.listen(backlog)
    return server


class Whereabouts:
    """Which connections are at each table (seated or watching) and which have each
    resume code, kept as they change: telling a table's players costs the host what that
    table has, not what the host has (1,300 idle connections in the lobby cost a move
    nothing)."""

    def __init__(self) -> None:
        self.at_table: dict[str, set[Connection]] = {}
        self.by_code: dict[str, set[Connection]] = {}

    def audience(self, table_id: str) -> list[Connection]:
        """The live connections seated at or watching ``table_id``."""
        return [c for c in self.at_table.get(table_id, ()) if not c.closed]

    def of_code(self, code: str | None) -> list[Connection]:
        """The live connections of the player with ``code``."""
        return [c for c in self.by_code.get(code, ())
                if not c.closed and not c.probe] if code else []

    def _add(self, index: dict[str, set[Connection]], key: str, conn: Connection) -> None:
        index.setdefault(key, set()).add(conn)

    def _remove(self, index: dict[str, set[Connection]], key: str, conn: Connection) -> None:
        held = index.get(key)
        if held is not None:
            held.discard(conn)
            if not held:
                del index[key]


class TableIds(set[str]):
    """A connection's table ids (where it sits, or what it watches) that keep the host's
    ``Whereabouts`` told."""

    def __init__(self, conn: Connection) -> None:
        super().__init__()
        self.conn = conn

    def add(self, table_id: str) -> None:
        super().add(table_id)
        self.conn.where._add(self.conn.where.at_table, table_id, self.conn)

    def discard(self, table_id: object) -> None:
        super().discard(table_id)
        if isinstance(table_id, str) and not self.conn.at(table_id):
            self.conn.where._remove(self.conn.where.at_table, table_id, self.conn)

    def update(self, *ids: Iterable[str]) -> None:
        for some in ids:
            for table_id in some:
                self.add(table_id)


class Connection:
    """One client: its name and code once it said hello, its tables, and its allowances.
    ``where``: the host's index of who is where (a private one if not given)."""

    def __init__(self, writer: asyncio.StreamWriter, limits: Limits,
                 where: Whereabouts | None = None) -> None:
        self.writer = writer
        self.where = where or Whereabouts()
        self._code: str | None = None
        self.name: str | None = None
        self.who: Who = LOCAL  # set at hello (see identity)
        self.seated: set[str] = TableIds(self)
        self.watching: set[str] = TableIds(self)
        self.allowance = TokenBucket(limits.message_rate, limits.message_burst)
        self.send_buffer = limits.send_buffer
        # drain() waits while more than half the allowance is unread
        writer.transport.set_write_buffer_limits(high=max(1024, self.send_buffer // 2))
        self.idle_seconds = limits.idle_seconds
        now = asyncio.get_running_loop().time()
        self.hello_by = now + limits.hello_seconds
        self.last_message = now
        self.code_failures = 0
        self.overflow = False  # accepted past the cap: must find a place at hello
        self.closed = False
        self.tls: TlsPeer | None = None  # over TLS, once the handshake is done
        self.handshaking = False  # nothing is written before TLS is up (see start_tls)
        #: the lobby page this client looks at (its last ``list``; None: at a table), which
        #: the host pushes again when it changes (see lobby_push), and the last one pushed
        self.lobby_offset: int | None = None
        self.lobby_sent = b""
        #: only asking what waits for its player (a ``probe`` hello): seated nowhere, and
        #: nobody is told it came or went
        self.probe = False

    @property
    def code(self) -> str | None:
        """The seat code of the player once they said hello (None before)."""
        return self._code

    @code.setter
    def code(self, code: str | None) -> None:
        if self._code is not None:
            self.where._remove(self.where.by_code, self._code, self)
        self._code = code
        if code is not None:
            self.where._add(self.where.by_code, code, self)

    def at(self, table_id: str) -> bool:
        """Whether this connection sits at or watches ``table_id``."""
        return table_id in self.seated or table_id in self.watching

    def forget(self) -> None:
        """Take this connection, gone, out of the host's index of who is where."""
        for table_id in list(self.seated) + list(self.watching):
            self.where._remove(self.where.at_table, table_id, self)
        self.code = None

    async def start_tls(self, context: ssl.SSLContext) -> bool:
        """Do the TLS handshake (the client speaks first), within the time the connection
        has to say hello; False, and one line in the log, if it fails or takes too long.
        Meanwhile the connection is one without a hello, so a full host may drop it."""
        peer = self.writer.get_extra_info("peername")
        where = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else "a client"
        left = self.hello_by - asyncio.get_running_loop().time()
        self.handshaking = True
        try:
            await _handshake(self.writer, context, max(left, 0.1))
        except (OSError, TimeoutError) as exc:  # ssl.SSLError is an OSError
            if not self.closed:  # (a full host that dropped it has said why already)
                log.info("TLS handshake with %s failed: %s", where, _why(exc))
            self.closed = True
            self.writer.transport.abort()
            return False
        finally:
            self.handshaking = False
        self.writer.transport.set_write_buffer_limits(high=max(1024, self.send_buffer // 2))
        self.tls = TlsPeer(frontend_name(self.writer.get_extra_info("peercert")))
        return True

    def allow(self) -> bool:
        """Spend one message of the allowance; False once the client floods."""
        return self.allowance.take()

    def heard(self) -> None:
        """A whole message arrived: the idle clock starts again."""
        self.last_message = asyncio.get_running_loop().time()

    def deadline(self) -> tuple[float, str]:
        """When (event loop time) the connection closes if no message comes, and why."""
        idle = self.last_message + self.idle_seconds
        if self.code is None and self.hello_by < idle:
            return self.hello_by, "no hello in time; disconnected"
        return idle, f"nothing heard for {self.idle_seconds:g} seconds; disconnected"

    def push(self, reply: HostReply, reply_to: int | str | None = None) -> None:
        """Queue ``reply`` (``reply_to``: the ``id`` of the request it answers); a client
        already holding ``send_buffer`` unread bytes is dropped instead."""
        self.push_line(encode(reply.wire(reply_to)))

    def push_line(self, line: bytes) -> None:
        """Queue one encoded line of the wire (see ``push``)."""
        if self.closed or self.handshaking:
            return
        transport = self.writer.transport
        if transport.is_closing():
            self.closed = True
        elif transport.get_write_buffer_size() > self.send_buffer:
            self.drop()
        else:
            self.writer.write(line)

    async def hang_up(self, reader: asyncio.StreamReader, linger: float = LINGER_SECONDS) -> None:
        """Close so that the client still reads its last messages: end the host's side,
        read and drop what the client still sends for up to ``linger`` seconds (closing
        on unread input would reset the connection and lose them), then close."""
        writer = self.writer
        if writer.transport.is_closing():
            return
        if linger > 0 and writer.can_write_eof():
            with contextlib.suppress(OSError, RuntimeError, TimeoutError):
                writer.write_eof()
                async with asyncio.timeout(linger):
                    while await reader.read(65536):
                        pass
        writer.close()

    def drop(self) -> None:
        """Close at once, discarding what the client did not read."""
        self.closed = True
        self.writer.transport.abort()

    async def drained(self) -> None:
        """Wait while more than half of ``send_buffer`` is unread (the client's own replies
        pile up: its next request waits); a client that reads nothing for ``idle_seconds``
        is dropped."""
        if self.closed or self.writer.transport.get_write_buffer_size() <= \
                self.send_buffer // 2:
            return
        try:
            async with asyncio.timeout(self.idle_seconds):
                await self.writer.drain()
        except TimeoutError:
            self.drop()
        except (OSError, RuntimeError):
            self.closed = True


async def _handshake(writer: asyncio.StreamWriter, context: ssl.SSLContext,
                     timeout: float) -> None:
    """``writer.start_tls`` as the server; OSError if it fails. A connection closed during
    the handshake (by the host, to make room) makes asyncio end the handshake without an
    error and without a transport, on which ``start_tls`` then trips (CPython 3.11): that
    comes out as ConnectionAbortedError, and the writer keeps its closed transport."""
    raw = writer.transport
    try:
        await writer.start_tls(context, ssl_handshake_timeout=timeout)
    except AttributeError:
        if writer.transport is not None:
            raise
    if writer.transport is None:
        setattr(writer, "_transport", raw)  # noqa: B010 (a private field: see above)
        raise ConnectionAbortedError("closed during the TLS handshake")


def _why(exc: BaseException) -> str:
    """A failed handshake's reason in a few words (OpenSSL's, where it gave one)."""
    if isinstance(exc, ssl.SSLCertVerificationError) and exc.verify_message:
        return f"certificate refused ({exc.verify_message})"
    if isinstance(exc, ssl.SSLError) and exc.reason:
        return str(exc.reason)
    if isinstance(exc, ConnectionResetError | BrokenPipeError | EOFError):
        return "the client hung up"
    return str(exc) or type(exc).__name__

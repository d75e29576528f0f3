"""The client side of the host protocol: connect, say hello, send, receive."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import ssl
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..wire.paths import (
    TOKEN_FILE,
    NoSocketFolder,
    default_data_dir,
    default_socket,
    ignored_runtime_dir,
)
from ..wire.protocol import MAX_MESSAGE, VERSION, encode

if TYPE_CHECKING:
    from ..wire.tls import TlsTarget

KEEP_ALIVE_SECONDS = 60.0  # well inside the host's idle limit (see docs/protocol.md)
READ_LIMIT = 4 * MAX_MESSAGE  # the longest line a client reads from the host
CONNECT_TRIES = 5  # while the host's queue of waiting connects is full (about 3 s)
TLS_HANDSHAKE_SECONDS = 30.0  # a host that does not finish its handshake in this is lost


def read_token(path: Path | None = None) -> str | None:
    """The host's TCP token: ``$SOLSTIS_TOKEN``, else the first line of ``path`` (default
    ``$SOLSTIS_TOKEN_FILE``, else ``tcp-token`` in the host's default data folder)."""
    if os.environ.get("SOLSTIS_TOKEN"):
        return os.environ["SOLSTIS_TOKEN"].strip()
    if path is None and os.environ.get("SOLSTIS_TOKEN_FILE"):
        path = Path(os.environ["SOLSTIS_TOKEN_FILE"])
    if path is None:
        path = default_data_dir() / TOKEN_FILE
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


class HostError(Exception):
    """The host could not be reached, or it closed the connection."""


class HostClient:
    """One connection to a game host."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.name: str | None = None
        self.code: str | None = None
        self.token: str | None = None  # sent in hello; a TCP host asks for it
        self.ssh_key: str | None = None  # the key sshd logged this player in with

    @classmethod
    async def connect(cls, socket: Path | None = None, tcp: tuple[str, int] | None = None,
                      token: str | None = None, tls: TlsTarget | None = None) -> HostClient:
        """Connect over ``tls`` (a host on another machine), ``tcp`` (with ``token``, else
        ``read_token()``) or the Unix socket (default: the host's, ``default_socket()``)."""
        try:
            where = str(tls) if tls else f"{tcp[0]}:{tcp[1]}" if tcp else \
                str(socket or default_socket())
        except NoSocketFolder as exc:
            raise HostError(str(exc)) from None
        try:
            if tls is not None:
                reader, writer = await asyncio.open_connection(
                    tls.host, tls.port, ssl=tls.context, server_hostname=tls.host,
                    ssl_handshake_timeout=TLS_HANDSHAKE_SECONDS, limit=READ_LIMIT)
            elif tcp is not None:
                reader, writer = await asyncio.open_connection(*tcp, limit=READ_LIMIT)
            else:
                reader, writer = await cls._unix(where)
        except ssl.SSLCertVerificationError as exc:
            raise HostError(f"the game host at {where} did not prove it is that host "
                            f"({exc.verify_message or exc.reason}); nothing was sent") from None
        except OSError as exc:
            ignored = ignored_runtime_dir() if socket is None and tcp is None \
                and tls is None else None
            raise HostError(f"cannot reach the game host at {where} ({exc.strerror or exc}); "
                            "is `solstis host` running?"
                            + (f" ({ignored})" if ignored else "")) from None
        client = cls(reader, writer)
        if tcp is not None:
            client.token = token or read_token()
        return client

    @staticmethod
    async def _unix(path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """Connect to a Unix socket, waiting a little while the host's queue of waiting
        connects is full (asyncio takes that refusal for a connection without a peer)."""
        for attempt in range(CONNECT_TRIES):
            reader, writer = await asyncio.open_unix_connection(path, limit=READ_LIMIT)
            if writer.get_extra_info("peername") is not None:
                return reader, writer
            writer.close()
            await asyncio.sleep(0.1 * 2 ** attempt)
        raise HostError(f"the game host at {path} is too busy to answer; try again in a "
                        "minute")

    def post(self, message: dict[str, Any]) -> None:
        """Write ``message`` without waiting for it to leave (for a caller that cannot
        wait, e.g. a key handler)."""
        self.writer.write(encode(message))

    async def send(self, message: dict[str, Any]) -> None:
        self.post(message)
        await self.writer.drain()

    async def receive(self) -> dict[str, Any]:
        line = await self.reader.readline()
        if not line:
            raise HostError("the game host closed the connection")
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            raise HostError("the game host sent something that is not a message")
        return message

    async def receive_until(self, kind: str, **match: Any) -> dict[str, Any]:
        """Read messages until one of type ``kind`` (with the given fields) arrives."""
        while True:
            message = await self.receive()
            if message.get("type") == kind and all(message.get(k) == v
                                                   for k, v in match.items()):
                return message
            if message.get("type") == "error" and kind != "error":
                raise HostError(message.get("message", "error"))

    def hello_message(self, name: str | None = None, code: str | None = None,
                      probe: bool = False) -> dict[str, Any]:
        """The ``hello`` this client says (the only place one is made): the resume ``code``
        if given, else the ``name``, the token a TCP host asks for, and the SSH key the
        player logged in with (``solstis online --ssh-key``); with ``probe``, only asking
        what waits for the player (``solstis online --waiting``)."""
        message: dict[str, Any] = {"type": "hello", "version": VERSION}
        if probe:
            message["probe"] = True
        if code:
            message["code"] = code
        else:
            message["name"] = name
        if self.token:
            message["token"] = self.token
        if self.ssh_key:
            message["ssh_key"] = self.ssh_key
        return message

    async def hello(self, name: str | None = None, code: str | None = None) -> dict[str, Any]:
        """Say hello and wait for the welcome (HostError if the host refuses)."""
        await self.send(self.hello_message(name, code))
        welcome = await self.receive_until("welcome")
        self.name, self.code = welcome["name"], welcome["code"]
        return welcome

    async def keep_alive(self, every: float = KEEP_ALIVE_SECONDS) -> None:
        """Ping the host every ``every`` seconds until the connection closes, so that its
        idle limit never drops a player who is only thinking (or waiting)."""
        while not self.writer.is_closing():
            await asyncio.sleep(every)
            if self.writer.is_closing():
                return
            self.post({"type": "ping"})

    def hang_up(self) -> None:
        """Close the connection without waiting for it to close."""
        self.writer.close()

    async def close(self) -> None:
        self.hang_up()
        with contextlib.suppress(OSError, ConnectionError):
            await self.writer.wait_closed()

"""The client side of the host protocol: connect, say hello, send, receive."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from pathlib import Path
from typing import Any

from .protocol import MAX_MESSAGE, VERSION, encode


def default_socket() -> Path:
    """The host's socket: ``$SOLSTIS_SOCKET``, else ``solstis/host.sock`` in the user's
    runtime directory."""
    override = os.environ.get("SOLSTIS_SOCKET")
    if override:
        return Path(override)
    import warnings

    from platformdirs import user_runtime_dir

    with warnings.catch_warnings():  # no XDG_RUNTIME_DIR: platformdirs picks /tmp/runtime-*
        warnings.simplefilter("ignore")
        return Path(user_runtime_dir("solstis", appauthor=False)) / "host.sock"


class HostError(Exception):
    """The host could not be reached, or it closed the connection."""


class HostClient:
    """One connection to a game host."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.name: str | None = None
        self.code: str | None = None

    @classmethod
    async def connect(cls, socket: Path | None = None, tcp: tuple[str, int] | None = None
                      ) -> HostClient:
        try:
            if tcp is not None:
                reader, writer = await asyncio.open_connection(*tcp, limit=MAX_MESSAGE * 4)
            else:
                path = socket or default_socket()
                reader, writer = await asyncio.open_unix_connection(
                    str(path), limit=MAX_MESSAGE * 4)
        except OSError as exc:
            where = f"{tcp[0]}:{tcp[1]}" if tcp else str(socket or default_socket())
            raise HostError(f"cannot reach the game host at {where} ({exc.strerror or exc}); "
                            "is `solstis host` running?") from None
        return cls(reader, writer)

    async def send(self, message: dict[str, Any]) -> None:
        self.writer.write(encode(message))
        await self.writer.drain()

    async def receive(self) -> dict[str, Any]:
        line = await self.reader.readline()
        if not line:
            raise HostError("the game host closed the connection")
        return json.loads(line)

    async def receive_until(self, kind: str, **match: Any) -> dict[str, Any]:
        """Read messages until one of type ``kind`` (with the given fields) arrives."""
        while True:
            message = await self.receive()
            if message.get("type") == kind and all(message.get(k) == v
                                                   for k, v in match.items()):
                return message
            if message.get("type") == "error" and kind != "error":
                raise HostError(message.get("message", "error"))

    async def hello(self, name: str | None = None, code: str | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "hello", "version": VERSION}
        if code:
            message["code"] = code
        else:
            message["name"] = name
        await self.send(message)
        welcome = await self.receive_until("welcome")
        self.name, self.code = welcome["name"], welcome["code"]
        return welcome

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError, ConnectionError):
            await self.writer.wait_closed()

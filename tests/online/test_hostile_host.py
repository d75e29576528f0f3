"""A host that breaks the protocol (a fake one, or a bug) costs the connection, never the app."""

from __future__ import annotations

import asyncio
import json

import pytest

from solstis_tui.client.app import OnlineApp

from .test_online_app import wait_for

WELCOME = {"type": "welcome", "name": "Ann", "code": "c" * 22, "version": 2, "tables": [],
           "offset": 0, "total": 0, "seated": []}


@pytest.mark.parametrize("hostile", [
    b'{"type": "welcome"}',
    b"[1, 2]",
    b'{"type": "tables", "tables": 5}',
    b'{"type": "joined"}',
    b'{"type": "joined", "table": "t1", "seat": 0}\n'
    b'{"type": "state", "table": "t1", "seat": 0, "observation": "x"}',
    b"not json at all",
])
async def test_a_host_sending_nonsense_disconnects_without_crashing_the_app(tmp_path, hostile):
    async def fake_host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()  # the hello
        writer.write(json.dumps(WELCOME).encode() + b"\n" + hostile + b"\n")
        await writer.drain()
        await reader.read()  # until the app hangs up

    path = tmp_path / "fake.sock"
    server = await asyncio.start_unix_server(fake_host, path=str(path))
    app = OnlineApp(socket=path, name="Ann")
    async with server, app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.client is None and app.lobby.is_mounted
                       and "Press q" in str(app.lobby.query_one("#lobby-error").render()),
                       pilot)
        said = str(app.lobby.query_one("#lobby-error").render())
        assert "cannot read" in said or "not a message" in said
        assert app.is_running  # still there for the player to read why, and quit

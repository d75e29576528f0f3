"""A live game host on a Unix socket in a temporary directory, for each test."""

from __future__ import annotations

import pytest

from solstis_tui.online.client import HostClient
from solstis_tui.online.host import Host


def quick_bot(tier: str, seed: int):
    from ai.base import RandomBot

    return RandomBot(seed)


@pytest.fixture
async def host(tmp_path):
    host = Host(tmp_path / "data", bot_seconds=0.05, bot_factory=quick_bot)
    host.load()
    sock = tmp_path / "run" / "host.sock"
    await host.serve_unix(sock)
    host.socket_path = sock
    yield host
    await host.close()
    assert host.internal_errors == [], host.internal_errors


@pytest.fixture
def connect(host):
    clients: list[HostClient] = []

    async def _connect(name: str | None = "Ann", code: str | None = None) -> HostClient:
        client = await HostClient.connect(host.socket_path)
        clients.append(client)
        if name or code:
            await client.hello(name, code)
        return client

    yield _connect
    for client in clients:
        client.writer.close()

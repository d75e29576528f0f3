"""A live game host on a Unix socket in a temporary directory, for each test, and what
several test files share."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from solstis_tui.client.client import HostClient
from solstis_tui.host.host import Host


def quick_bot(tier: str, seed: int):
    from solstis_tui.ai.base import RandomBot

    return RandomBot(seed)


async def start_host(data: Path, sock: Path, **kwargs) -> Host:
    """A host on ``data`` listening on ``sock`` (``host.socket_path``); random bots unless
    ``bot_factory`` says otherwise."""
    kwargs.setdefault("bot_factory", quick_bot)
    host = Host(data, **kwargs)
    host.load()
    await host.serve_unix(sock)
    host.socket_path = sock
    return host


@pytest.fixture
def replies_come_or_the_test_fails(monkeypatch):
    """A safety net: a reply that never comes fails the test instead of hanging it."""
    receive = HostClient.receive

    async def receive_within(self: HostClient) -> dict:
        return await asyncio.wait_for(receive(self), 30)

    monkeypatch.setattr(HostClient, "receive", receive_within)


class Clock:
    """The host's time in a test: it moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def timed(tmp_path):
    """A host on the test's own clock (``host.test_clock``)."""
    clock = Clock()
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05, clock=clock)
    host.test_clock = clock
    yield host
    await host.close()
    assert host.internal_errors == [], host.internal_errors


@pytest.fixture
async def host(tmp_path):
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05)
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


@pytest.fixture
def fleet_files(tmp_path) -> tuple[str, str, str]:
    """Stand-ins for a fleet gateway's CA, certificate and key (the fake and scripted
    gateways read none of them)."""
    files = []
    for name in ("ca.pem", "gateway.pem", "gateway.key"):
        (tmp_path / name).write_text("-----BEGIN TEST-----\n", encoding="ascii")
        files.append(str(tmp_path / name))
    return files[0], files[1], files[2]


from .identities import keyed, peer  # noqa: E402, F401  (fixtures for every online test)

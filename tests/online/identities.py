"""Identities for host tests: SSH keys, a stand-in for the kernel's word on who connected
(``peer``), a host that trusts the players' account (``keyed``), and a raw hello."""

from __future__ import annotations

import base64

import pytest

from solstis_tui.client.client import HostClient
from solstis_tui.host import identity
from solstis_tui.host.identity import KeyRing, Trust, key_line
from solstis_tui.host.limits import Limits
from solstis_tui.host.ratings import result_of

from .conftest import start_host

PLAYERS_UID = 4242  # the players' shared account, as the kernel would report it
NOBODY = 65534


def a_key(seed: int) -> str:
    blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + bytes([seed]) * 32
    return "ssh-ed25519 " + base64.b64encode(blob).decode()


ANN, ANN_LAPTOP, BOB, STRANGER = a_key(1), a_key(2), a_key(3), a_key(4)


@pytest.fixture
def peer(monkeypatch):
    """The uid the kernel reports for the next connections (``peer.uid = ...``)."""

    class Peer:
        uid = PLAYERS_UID

    monkeypatch.setattr(identity, "peer_uid", lambda sock: Peer.uid)
    return Peer


@pytest.fixture
async def keyed(tmp_path, peer):
    """A host that trusts the players' account, with Ann's two keys and Bob's key."""
    keys = tmp_path / "authorized_keys"
    keys.write_text("\n".join([key_line(ANN, "Ann"), key_line(ANN_LAPTOP, "Ann"),
                               key_line(BOB, "Bob"), ""]))
    host = await start_host(tmp_path / "data", tmp_path / "host.sock",
                            trust=Trust(PLAYERS_UID, KeyRing(keys)),
                            limits=Limits(guest_connections=2))
    host.keys_path = keys
    yield host
    await close_all(host)


async def close_all(host) -> None:
    for client in getattr(host, "test_clients", []):
        await client.close()
    await host.close()
    assert host.internal_errors == []


async def hello(host, key: str | None = None, **fields) -> dict:
    """The host's answer to a hello (welcome or error); the connection stays open."""
    client = await HostClient.connect(host.socket_path)
    client.ssh_key = key
    host.test_clients = [*getattr(host, "test_clients", []), client]
    await client.send(client.hello_message(fields.get("name"), fields.get("code")))
    while True:
        message = await client.receive()
        if message["type"] in ("welcome", "error"):
            message["client"] = client
            return message


def settled(host, identity: str, games: int = 14) -> None:
    """Give ``identity`` a settled rating (no "?": deviation about 96) before the test: it
    drew ``games`` rated games with the greedy bot an hour ago (the host's time). A rated
    game between two provisional ratings is played unrated (docs/ratings.md): tests of a
    rated game between two people settle one of them first."""
    now = host.clock()
    for i in range(games):
        host.ratings.record_now(result_of(f"settle-{identity}-{i}", (identity, "bot:greedy"),
                                          None, finished=now - 3600 - i))
    assert not host.ratings.rating(identity).provisional


async def seated_at_a_rated_table(host, first: str, second: str,
                                  **create: object) -> tuple[dict, dict, str]:
    """Two keys at a rated friend table (``create``: more of its fields), the first in
    seat 0: their welcomes and the table."""
    ann, bob = await hello(host, first), await hello(host, second)
    await ann["client"].send({"type": "create", "variant": "base", "opponent": "friend",
                              "seat": 0, "rated": True, **create})
    table = (await ann["client"].receive_until("joined"))["table"]
    await bob["client"].send({"type": "join", "table": table})
    await bob["client"].receive_until("joined")
    return ann, bob, table

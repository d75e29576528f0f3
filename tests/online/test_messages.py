"""The host reads each message once, as a typed message, and stores each change once.

A message of a type the host does not know, or a move with a wrong field, is refused
before anything at a table changes; a stored move takes the host's time once; the lobby
shows each table as it stands after its moves (a stored change puts a new table in the old
one's place).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path

import pytest

from solstis_tui.client.client import HostClient

from .conftest import start_host
from .states import after, seated, state_where
from .test_host import start_friend_game
from .test_storage import first_legal, nothing_more, table_file

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


async def reply_to(client: HostClient, message_id: int) -> dict | None:
    """The host's reply to the message ``client`` just sent with ``message_id`` (None: it
    had none). A ping follows it, and the host answers a client's lines in order."""
    await client.send({"type": "ping", "id": "after"})
    while (message := await client.receive()).get("id") not in (message_id, "after"):
        pass
    return None if message["id"] == "after" else message


async def test_a_message_of_a_type_the_host_does_not_know_is_refused_and_plays_nothing(
        host, connect):
    ann, bob, table = await start_friend_game(connect)
    await state_where(bob, table, seated)
    move, seq = await first_legal(ann, table)
    before, on_disk = host.tables[table].to_dict(), table_file(host, table)
    # A misspelt type with a legal move in it: once, any type the host did not know
    # was played as a move.
    await ann.send({"type": "mvoe", "table": table, "move": move, "seq": seq, "id": 3})
    error = await reply_to(ann, 3)
    assert error is not None and (error["type"], error.get("code")) == ("error", "bad_type")
    assert error["message"] == "unknown message type 'mvoe'"
    assert host.tables[table].to_dict() == before
    assert table_file(host, table) == on_disk
    assert not [m for m in await nothing_more(bob) if m["type"] == "state"]


@pytest.mark.parametrize(("fields", "says"), [
    ({"seq": "0"}, "'seq' has the wrong type"),
    ({"seq": True}, "'seq' has the wrong type"),
    ({"move": 5}, "'move' has the wrong type"),
    ({"move": None}, "'move' is missing"),
    ({"move": "play " + "1" * 40}, "'move' is longer than 40 characters"),
    ({"table": 7}, "'table' has the wrong type"),
])
async def test_a_move_with_a_wrong_field_is_refused_before_the_table_changes(
        host, connect, fields, says):
    ann, bob, table = await start_friend_game(connect)
    await state_where(bob, table, seated)
    move, seq = await first_legal(ann, table)
    before, on_disk = host.tables[table].to_dict(), table_file(host, table)
    await ann.send({"type": "move", "table": table, "move": move, "seq": seq, **fields})
    error = await ann.receive_until("error")
    assert error["code"] == "bad_message" and says in error["message"]
    assert host.tables[table].to_dict() == before
    assert table_file(host, table) == on_disk
    assert not [m for m in await nothing_more(bob) if m["type"] == "state"]


async def test_a_move_in_notation_the_host_cannot_read_is_refused_as_illegal(host, connect):
    ann, bob, table = await start_friend_game(connect)
    await state_where(bob, table, seated)
    before = host.tables[table].to_dict()
    await ann.send({"type": "move", "table": table, "move": "h1"})
    error = await ann.receive_until("error")
    assert error["code"] == "illegal" and "unknown move 'h1'" in error["message"]
    assert host.tables[table].to_dict() == before


class Ticking:
    """A clock that moves on one second each time it is read: two readings never agree."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
async def ticking(tmp_path):
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05, clock=Ticking())
    yield host
    await host.close()
    assert host.internal_errors == [], host.internal_errors


async def test_a_stored_move_is_active_and_starts_the_next_decision_at_one_time(ticking):
    ann, bob = await HostClient.connect(ticking.socket_path), await HostClient.connect(
        ticking.socket_path)
    await ann.hello("Ann", None)
    await bob.hello("Bob", None)
    try:
        await ann.send({"type": "create", "opponent": "friend", "seat": 0})
        table = (await ann.receive_until("joined"))["table"]
        await bob.send({"type": "join", "table": table})
        await bob.receive_until("joined")
        move, seq = await first_legal(ann, table)
        await ann.send({"type": "move", "table": table, "move": move, "seq": seq})
        state = await state_where(bob, table, after(seq))
        assert len(state["observation"]["history"]) > seq
        stored = ticking.store.path(table).read_text()
        for seen in (ticking.tables[table].to_dict(), json.loads(stored)):
            assert seen["last_active"] == seen["decision_since"] > 1_000_000.0
    finally:
        ann.writer.close()
        bob.writer.close()


async def test_the_lobby_shows_each_table_as_it_stands_after_its_moves(host, connect):
    ann, bob, table = await start_friend_game(connect)
    await state_where(bob, table, seated)
    state = await state_where(ann, table, seated)
    await ann.send({"type": "list"})
    [row] = [r for r in (await ann.receive_until("tables"))["tables"] if r["table"] == table]
    assert row["turn"] == host.tables[table].game.turn
    turn = row["turn"]
    while state["observation"]["to_play"] == 0:  # Ann plays her turn out: Bob's turn
        obs = state["observation"]
        made = len(obs["history"])
        await ann.send({"type": "move", "table": table, "move": obs["legal_moves"][0],
                        "seq": made})
        state = await state_where(ann, table, after(made))
    await ann.send({"type": "list"})  # no table came, went or changed status meanwhile
    [row] = [r for r in (await ann.receive_until("tables"))["tables"] if r["table"] == table]
    assert row["turn"] == host.tables[table].game.turn != turn


def test_the_protocol_page_lists_exactly_the_message_types_the_host_reads():
    from solstis_tui.wire.messages import PARSERS

    page = (ROOT / "docs" / "protocol.md").read_text()
    table = page[page.index("## Client → host"):page.index("## Host → client")]
    listed = set(re.findall(r"^\| `(\w+)` \|", table, flags=re.MULTILINE))
    assert listed == set(PARSERS)


async def test_leaving_for_good_as_someone_sits_down_is_refused_and_changes_nothing(
        host, connect):
    """Ann leaves her open table for good while Bob's seat there is being stored: the
    table is no longer open when her turn comes, so it is not closed under Bob's feet."""
    ann = await connect("Ann")
    await ann.send({"type": "create", "opponent": "friend", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    loop = asyncio.get_running_loop()
    saving, ann_waits, go = asyncio.Event(), asyncio.Event(), threading.Event()
    write = host.store.write

    def slow_write(table_id: str, text: str) -> None:
        loop.call_soon_threadsafe(saving.set)
        go.wait(30)
        write(table_id, text)

    class Watched(asyncio.Lock):
        async def acquire(self) -> bool:
            if self.locked():
                ann_waits.set()
            return await super().acquire()

    host.save_locks[table] = Watched()
    host.store.write = slow_write
    bob = await connect("Bob")
    await bob.send({"type": "join", "table": table})
    await asyncio.wait_for(saving.wait(), 30)  # Bob's seat is being stored
    await ann.send({"type": "leave", "table": table, "for_good": True, "id": 9})
    await asyncio.wait_for(ann_waits.wait(), 30)  # Ann's leave waits for that save
    go.set()
    assert (await bob.receive_until("joined"))["seat"] == 1
    error = await reply_to(ann, 9)
    assert error is not None and (error["type"], error.get("code")) == ("error", "stale")
    assert "someone sat down" in error["message"]
    assert table in host.tables and host.tables[table].status() == "playing"
    assert host.store.path(table).exists()

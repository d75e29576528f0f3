"""The move clock: a player who never moves no longer holds a table. The seat-stalling
attack (join a victim's open tables and never move, so the victim gets too_many) fails:
once the clock runs out the victim claims each game and has their tables back. The
clock's time is the test's own (no wall clock)."""

from __future__ import annotations

import pytest

from .conftest import start_host
from .identities import ANN, BOB, hello
from .states import after, moves, over, seated, state_where

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def timed(tmp_path):
    clock = Clock()
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05, clock=clock)
    host.test_clock = clock
    yield host
    await host.close()
    assert host.internal_errors == [], host.internal_errors


@pytest.fixture
def connect_timed(timed):
    from solstis_tui.client.client import HostClient

    clients: list[HostClient] = []

    async def _connect(name: str) -> HostClient:
        client = await HostClient.connect(timed.socket_path)
        clients.append(client)
        await client.hello(name, None)
        return client

    yield _connect
    for client in clients:
        client.writer.close()


async def create(client, **fields) -> dict:
    await client.send({"type": "create", "opponent": "friend", **fields})
    while True:
        message = await client.receive()
        if message["type"] in ("joined", "error"):
            return message


async def test_seat_stalling_fails_once_the_victim_claims_the_stalled_games(
        timed, connect_timed):
    ann, mallory = await connect_timed("Ann"), await connect_timed("Mallory")
    stalled = []
    while True:  # Ann opens tables (seat 1: Mallory decides first); Mallory joins each
        reply = await create(ann, seat=1)
        if reply["type"] == "error":
            break
        await mallory.send({"type": "join", "table": reply["table"]})
        await mallory.receive_until("joined")
        stalled.append(reply["table"])
    assert reply["code"] == "too_many" and len(stalled) == 5  # the attack, as reported
    await ann.send({"type": "claim", "table": stalled[0]})  # Mallory still has time
    error = await ann.receive_until("error")
    assert error["code"] == "too_early" and "300 seconds" in error["message"]
    timed.test_clock.now += 299
    await ann.send({"type": "claim", "table": stalled[0]})
    assert (await ann.receive_until("error"))["code"] == "too_early"
    assert not any(timed.tables[t].game.is_over for t in stalled)
    timed.test_clock.now += 2  # Mallory never moved: her time is up on every table
    for table in stalled:
        await mallory.send({"type": "claim", "table": table})  # not hers to claim
        assert (await mallory.receive_until("error"))["code"] == "not_your_claim"
        await ann.send({"type": "claim", "table": table})
        obs = (await state_where(ann, table, over))["observation"]
        assert (obs["is_over"], obs["winner"], obs["end_reason"]) == (True, 1, "time")
    assert (await create(ann, seat=0))["type"] == "joined"  # Ann has her tables back


async def test_each_move_starts_the_clock_again_and_a_watcher_cannot_claim(
        timed, connect_timed):
    ann, bob = await connect_timed("Ann"), await connect_timed("Bob")
    table = (await create(ann, seat=0, clock=60))["table"]
    await bob.send({"type": "join", "table": table})
    await bob.receive_until("joined")
    state = await state_where(ann, table, seated)
    assert (state["clock"], state["time_left"]) == (60, 60)
    timed.test_clock.now += 50
    while state["observation"]["to_play"] == 0:  # Ann plays her turn out
        made = moves(state)
        await ann.send({"type": "move", "table": table, "seq": made,
                        "move": state["observation"]["legal_moves"][0]})
        state = await state_where(ann, table, after(made))
    timed.test_clock.now += 50  # 100 s since the table filled, 50 s since Ann's last move
    await ann.send({"type": "claim", "table": table})
    assert (await ann.receive_until("error"))["code"] == "too_early"
    timed.test_clock.now += 11
    await bob.send({"type": "claim", "table": table})  # Bob's own time is up, not Ann's
    assert (await bob.receive_until("error"))["code"] == "not_your_claim"
    eve = await connect_timed("Eve")
    await eve.send({"type": "watch", "table": table})
    timed.test_clock.now += 1000
    await eve.send({"type": "claim", "table": table})
    assert (await eve.receive_until("error"))["code"] == "not_seated"
    assert not timed.tables[table].game.is_over


@pytest.mark.parametrize("clock", [29, 301, "5", True])
async def test_a_clock_outside_the_limits_is_refused(timed, connect_timed, clock):
    ann = await connect_timed("Ann")
    reply = await create(ann, seat=0, clock=clock)
    assert reply["type"] == "error" and reply["code"] == "bad_message"
    assert timed.tables == {}


async def test_a_rated_game_claimed_on_time_counts(tmp_path, keyed):
    keyed.clock = clock = Clock()
    ann, bob = await hello(keyed, ANN), await hello(keyed, BOB)
    await ann["client"].send({"type": "create", "opponent": "friend", "seat": 1,
                              "rated": True, "clock": 30})
    table = (await ann["client"].receive_until("joined"))["table"]
    await bob["client"].send({"type": "join", "table": table})
    await bob["client"].receive_until("joined")
    clock.now += 31
    await ann["client"].send({"type": "claim", "table": table})
    state = await state_where(bob["client"], table, over)
    assert state["observation"]["end_reason"] == "time"
    assert keyed.ratings.rating("key:Ann").rating > 1500 > keyed.ratings.rating(
        "key:Bob").rating

"""The move clock: a player who never moves no longer holds a table. The seat-stalling
attack (join a victim's open tables and never move, so the victim gets too_many) fails:
the victim leaves those games at no cost, and once both have played, claims a game whose
clock ran out. A player who never made a decision never loses on time. The clock's time
is the test's own (no wall clock)."""

from __future__ import annotations

import random

import pytest

from solstis_tui.host.glicko2 import Rating

from .conftest import Clock, start_host
from .identities import ANN, BOB, hello, seated_at_a_rated_table, settled
from .states import after, deciding, over, seated, state_where
from .test_host import game_at, play_to_end

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


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


async def play_turn(host, client, table: str, seat: int) -> dict | None:
    """The player at ``seat`` answers their decisions (the first legal move each time)
    until the other is to decide; the last state they got (None: it was not their turn)."""
    state = None
    while (game := game_at(host, table)).to_play == seat and not game.is_over:
        made = len(game.history)
        await client.send({"type": "move", "table": table,
                           "move": str(game.legal_moves()[0])})
        state = await state_where(client, table, after(made))
    return state


async def test_seat_stalling_fails_the_victim_leaves_or_claims_once_the_clocks_run(
        timed, connect_timed):
    ann, mallory = await connect_timed("Ann"), await connect_timed("Mallory")
    stalled = []
    while True:  # Ann opens tables (seat 0: she decides first); Mallory joins each
        reply = await create(ann, seat=0)
        if reply["type"] == "error":
            break
        await mallory.send({"type": "join", "table": reply["table"]})
        await mallory.receive_until("joined")
        stalled.append(reply["table"])
    assert reply["code"] == "too_many" and len(stalled) == 5  # the attack, as reported
    for table in stalled:  # Ann plays her first turn; Mallory never moves
        await play_turn(timed, ann, table, 0)
    await ann.send({"type": "claim", "table": stalled[0]})  # no clock runs yet
    error = await ann.receive_until("error")
    assert error["code"] == "too_early" and "first decision" in error["message"]
    for table in stalled[1:]:  # so Ann leaves four of them for good at once
        await ann.send({"type": "leave", "table": table, "for_good": True})
        await ann.receive_until("left")
    assert (await create(ann, seat=1))["type"] == "joined"  # she plays elsewhere
    state = await play_turn(timed, mallory, stalled[0], 1)  # Mallory plays a turn there...
    assert state["time_left"] == 300  # ...so both clocks run, and hers is up 300 s on
    await play_turn(timed, ann, stalled[0], 0)
    await ann.send({"type": "claim", "table": stalled[0]})  # Mallory still has time
    error = await ann.receive_until("error")
    assert error["code"] == "too_early" and "300 seconds" in error["message"]
    timed.test_clock.now += 299
    await ann.send({"type": "claim", "table": stalled[0]})
    assert (await ann.receive_until("error"))["code"] == "too_early"
    timed.test_clock.now += 2
    await mallory.send({"type": "claim", "table": stalled[0]})  # not hers to claim
    assert (await mallory.receive_until("error"))["code"] == "not_your_claim"
    await ann.send({"type": "claim", "table": stalled[0]})
    obs = (await state_where(ann, stalled[0], over))["observation"]
    assert (obs["is_over"], obs["winner"], obs["end_reason"]) == (True, 0, "time")


async def test_each_move_starts_the_clock_again_and_a_watcher_cannot_claim(
        timed, connect_timed):
    ann, bob = await connect_timed("Ann"), await connect_timed("Bob")
    table = (await create(ann, seat=0, clock=60))["table"]
    await bob.send({"type": "join", "table": table})
    await bob.receive_until("joined")
    state = await state_where(ann, table, seated)
    assert (state["clock"], state["time_left"]) == (60, None)  # nobody has decided yet
    await play_turn(timed, ann, table, 0)
    timed.test_clock.now += 500  # Bob's first decision: no clock runs for it
    assert (await state_where(bob, table, deciding))["time_left"] is None
    await ann.send({"type": "claim", "table": table})
    assert (await ann.receive_until("error"))["code"] == "too_early"
    state = await play_turn(timed, bob, table, 1)
    assert (state["clock"], state["time_left"]) == (60, 60)  # both have: the clocks run
    timed.test_clock.now += 50
    await play_turn(timed, ann, table, 0)
    timed.test_clock.now += 50  # 100 s since Bob's last move, 50 s since Ann's
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


@pytest.mark.parametrize("creator_seat", [0, 1])
async def test_a_claim_against_a_player_who_never_decided_is_refused_and_rates_nothing(
        keyed, creator_seat):
    """The reported attack: Ann makes a rated table and walks away; Bob sits down and
    claims 31 s later. Ann's clock never started: the claim is refused, nobody's rating
    moves, and nothing is stored."""
    keyed.clock = clock = Clock()
    ann, bob = await hello(keyed, ANN), await hello(keyed, BOB)
    await ann["client"].send({"type": "create", "opponent": "friend", "seat": creator_seat,
                              "rated": True, "clock": 30})
    table = (await ann["client"].receive_until("joined"))["table"]
    await ann["client"].close()
    await bob["client"].send({"type": "join", "table": table})
    await bob["client"].receive_until("joined")
    state = await play_turn(keyed, bob["client"], table, 1 - creator_seat) or \
        await state_where(bob["client"], table, seated)  # at seat 0 he plays his turn first
    assert state["time_left"] is None
    clock.now += 31
    await bob["client"].send({"type": "claim", "table": table})
    error = await bob["client"].receive_until("error")
    assert error["code"] == "too_early" and "first decision" in error["message"]
    assert not keyed.tables[table].game.is_over
    assert keyed.ratings.rating("key:Ann") == Rating() and not keyed.ratings.is_recorded(table)


@pytest.mark.parametrize("clock", [29, 301, "5", True])
async def test_a_clock_outside_the_limits_is_refused(timed, connect_timed, clock):
    ann = await connect_timed("Ann")
    reply = await create(ann, seat=0, clock=clock)
    assert reply["type"] == "error" and reply["code"] == "bad_message"
    assert timed.tables == {}


async def test_a_rated_game_claimed_on_time_counts_once_both_have_played(tmp_path, keyed):
    keyed.clock = clock = Clock()
    settled(keyed, "key:Bob")
    bob_before = keyed.ratings.rating("key:Bob").rating
    bob, ann, table = await seated_at_a_rated_table(keyed, BOB, ANN, clock=30)
    await play_to_end(keyed, {0: bob["client"], 1: ann["client"]}, table, random.Random(6),
                      until=lambda state: state["counts"] and state["observation"]["to_play"] == 0)
    clock.now += 31
    await ann["client"].send({"type": "claim", "table": table})
    state = await state_where(bob["client"], table, over)
    assert state["observation"]["end_reason"] == "time"
    assert keyed.ratings.rating("key:Ann").rating > 1500
    assert keyed.ratings.rating("key:Bob").rating < bob_before


async def test_downtime_is_nobodys_time_so_a_claim_right_after_a_restart_is_refused(
        tmp_path):
    """The reported case: the host was down for 40 s during a 30 s decision. After the
    restart the player to move has at least the time they had when it stopped, and the
    opponent's claim at once is refused; the clock runs on from there."""
    from solstis_tui.client.client import HostClient

    clock = Clock()
    data, sock = tmp_path / "data", tmp_path / "run" / "host.sock"
    host = await start_host(data, sock, bot_seconds=0.05, clock=clock)
    ann, bob = await HostClient.connect(sock), await HostClient.connect(sock)
    await ann.hello("Ann")
    await bob.hello("Bob")
    table = (await create(ann, seat=0, clock=30))["table"]
    await bob.send({"type": "join", "table": table})
    await bob.receive_until("joined")
    for client, seat in ((ann, 0), (bob, 1), (ann, 0)):  # both play: Bob decides next
        await play_turn(host, client, table, seat)
    clock.now += 20  # Bob has 10 s left when the host stops, mid-decision
    code = ann.code
    for client in (ann, bob):
        await client.close()
    await host.close()
    clock.now += 40  # down for 40 s
    again = await start_host(data, sock, bot_seconds=0.05, clock=clock)
    try:
        ann = await HostClient.connect(sock)
        await ann.hello(None, code)  # Ann comes back
        state = await state_where(ann, table, seated)
        assert state["time_left"] >= 10
        assert state["bank_left"][1] >= 1200 - 20  # the bank too: at least what it held
        await ann.send({"type": "claim", "table": table})
        assert (await ann.receive_until("error"))["code"] == "too_early"
        assert not again.tables[table].game.is_over
        clock.now += 31  # the clock runs on after the restart
        await ann.send({"type": "claim", "table": table})
        obs = (await state_where(ann, table, over))["observation"]
        assert (obs["is_over"], obs["end_reason"], obs["winner"]) == (True, "time", 0)
        await ann.close()
    finally:
        await again.close()


async def test_slow_play_runs_out_of_bank_and_the_game_can_be_claimed(timed, connect_timed):
    """The reported case: moving just before each deadline could hold a table for 95
    minutes. Every decision's time comes out of the player's bank (5 s back for each tile
    played), and a player out of bank is out of time, whatever the move clock says."""
    ann, bob = await connect_timed("Ann"), await connect_timed("Bob")
    table = (await create(ann, seat=0, clock=300, bank=5))["table"]
    await bob.send({"type": "join", "table": table})
    await bob.receive_until("joined")
    await play_turn(timed, ann, table, 0)
    state = await play_turn(timed, bob, table, 1)  # both have moved: the clocks run
    assert (state["bank"], state["bank_left"], state["time_left"]) == (300, [300, 300], 300)
    timed.test_clock.now += 290  # Ann plays a tile 10 s before the move clock's deadline
    game = timed.tables[table].game
    made = len(game.history)
    await ann.send({"type": "move", "table": table, "move": str(game.legal_moves()[0])})
    await state_where(ann, table, after(made))  # Bob answers at once if it is his turn:
    state = await play_turn(timed, bob, table, 1) or await state_where(bob, table, after(made))
    assert state["bank_left"][0] == 300 - 290 + 5 and state["time_left"] == 300
    await bob.send({"type": "claim", "table": table})
    error = await bob.receive_until("error")
    assert error["code"] == "too_early" and "15 seconds" in error["message"]
    timed.test_clock.now += 16  # the move clock has 284 s left; the bank is empty
    await bob.send({"type": "claim", "table": table})
    obs = (await state_where(bob, table, over))["observation"]
    assert (obs["is_over"], obs["end_reason"], obs["winner"]) == (True, "time", 1)


@pytest.mark.parametrize("bank", [4, 61, "20", True])
async def test_a_bank_outside_the_limits_is_refused(timed, connect_timed, bank):
    ann = await connect_timed("Ann")
    reply = await create(ann, seat=0, bank=bank)
    assert reply["type"] == "error" and reply["code"] == "bad_message"
    assert timed.tables == {}


async def test_an_open_table_goes_by_the_hosts_own_clock(timed, connect_timed):
    """A table's times are the host's clock's (tests set it, as here): the housekeeping
    reads the same clock, so an open table goes only once that clock says nobody came."""
    ann = await connect_timed("Ann")
    table = (await create(ann, seat=0))["table"]
    wait = timed.limits.open_table_seconds
    timed.test_clock.now += wait - 1
    assert timed.housekeeping.expire() == [] and table in timed.tables
    timed.test_clock.now += 2
    assert timed.housekeeping.expire() == [table] and table not in timed.tables
    closed = await ann.receive_until("closed")
    assert closed["table"] == table and "nobody took the open seat" in closed["message"]

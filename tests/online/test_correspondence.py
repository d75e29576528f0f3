"""Correspondence games: days a move, a game that waits while both players are away, a
day clock claimed only when it is due, deadlines that survive a restart, the games that
wait for your move listed first, and a rating pool of their own. The host's time is the
test's own (no wall clock)."""

from __future__ import annotations

import random

import pytest

from solstis_tui.host.glicko2 import Rating
from solstis_tui.host.tables import RESTART_GRACE
from solstis_tui.wire.protocol import DAY

from .conftest import Clock, start_host
from .identities import ANN, BOB, seated_at_a_rated_table, settled
from .states import over, seated, state_where
from .test_host import play_to_end
from .test_move_clock import create, play_turn

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


async def connect(host, name: str):
    from solstis_tui.client.client import HostClient

    client = await HostClient.connect(host.socket_path)
    welcome = await client.hello(name, None)
    return client, welcome


async def two_at_a_table(host, days: int = 2) -> tuple:
    ann, _ = await connect(host, "Ann")
    bob, _ = await connect(host, "Bob")
    table = (await create(ann, seat=0, days=days))["table"]
    await bob.send({"type": "join", "table": table})
    await bob.receive_until("joined")
    return ann, bob, table


async def test_the_day_clock_runs_once_both_sit_and_a_claim_is_refused_until_it_is_due(timed):
    _ann, bob, table = await two_at_a_table(timed, days=2)
    state = await state_where(bob, table, seated)
    assert (state["days"], state["time_left"], state["bank_left"]) == (2, 2 * DAY, None)
    timed.test_clock.now += 2 * DAY - 60  # Ann, to move, still has a minute
    await bob.send({"type": "claim", "table": table})
    error = await bob.receive_until("error")
    assert error["code"] == "too_early" and "60 seconds" in error["message"]
    timed.test_clock.now += 61
    await bob.send({"type": "claim", "table": table})
    obs = (await state_where(bob, table, over))["observation"]
    assert (obs["winner"], obs["end_reason"]) == (1, "time")


async def test_each_move_gives_the_other_player_their_days_afresh(timed):
    ann, _bob, table = await two_at_a_table(timed, days=1)
    await state_where(ann, table, seated)
    timed.test_clock.now += 0.9 * DAY
    state = await play_turn(timed, ann, table, 0)
    assert state["time_left"] == DAY
    timed.test_clock.now += 0.5 * DAY  # Ann's own day was nearly used: Bob's is not
    await ann.send({"type": "claim", "table": table})
    error = await ann.receive_until("error")
    assert error["code"] == "too_early" and "12 hours" in error["message"]


async def test_a_correspondence_game_waits_while_both_players_are_away(timed):
    ann, bob, table = await two_at_a_table(timed, days=3)
    await state_where(ann, table, seated)
    await ann.close()
    await bob.close()
    live_expiry = timed.limits.table_expire_seconds
    timed.test_clock.now += 3 * DAY - 1  # days past the live game's time to come back
    await timed.housekeeping.forfeit_abandoned()
    assert timed.housekeeping.expire() == [] and table in timed.tables
    timed.test_clock.now += live_expiry  # days run out, and nobody claimed for a day more
    assert timed.housekeeping.expire() == [] and table in timed.tables
    timed.test_clock.now += 2
    assert table in timed.housekeeping.expire()


async def test_an_open_correspondence_table_waits_a_day_for_its_second_player(timed):
    ann, _ = await connect(timed, "Ann")
    table = (await create(ann, seat=0, days=7))["table"]
    timed.test_clock.now += timed.limits.open_table_seconds + 1  # a live table would go
    assert timed.housekeeping.expire() == []
    timed.test_clock.now += DAY
    assert timed.housekeeping.expire() == [table]


async def test_a_restart_keeps_each_deadline_and_gives_one_that_passed_an_hour(tmp_path):
    """A deadline is a date: a restart keeps it, and one that passed while the host ran
    stays passed; only one that passed while it was down gets an hour from the start."""
    clock = Clock()
    data, sock = tmp_path / "data", tmp_path / "run" / "host.sock"
    host = await start_host(data, sock, clock=clock)
    host.test_clock = clock
    ann, bob, passed = await two_at_a_table(host, days=1)
    clock.now += 1.5 * DAY  # Ann's day runs out while the host runs
    tables = {"passed": passed}
    for name, days in (("near", 1), ("far", 7)):
        tables[name] = (await create(ann, seat=0, days=days))["table"]
        await bob.send({"type": "join", "table": tables[name]})
        await bob.receive_until("joined")
    deadlines = {name: host.tables[t].deadline() for name, t in tables.items()}
    await host.close()
    clock.now += 2 * DAY  # the host was down for two days: near's day ran out meanwhile
    again = await start_host(data, sock, clock=clock)
    try:
        assert again.tables[tables["far"]].deadline() == deadlines["far"]  # a date, kept
        assert again.tables[tables["passed"]].deadline() == deadlines["passed"]  # claimable
        assert again.tables[tables["near"]].deadline() == clock.now + RESTART_GRACE
    finally:
        await again.close()


async def test_games_that_wait_for_your_move_come_first_and_the_welcome_counts_them(timed):
    ann, bob, waiting_for_ann = await two_at_a_table(timed)
    await state_where(ann, waiting_for_ann, seated)
    second = (await create(bob, seat=0, days=1))["table"]  # Bob to move there
    await ann.send({"type": "join", "table": second})
    await ann.receive_until("joined")
    open_one = (await create(ann, seat=0, days=1))["table"]  # nobody's move yet
    third = (await create(bob, seat=1, days=2))["table"]  # Ann will move first there
    await ann.send({"type": "join", "table": third})
    await ann.receive_until("joined")
    await ann.close()
    _client, welcome = await come_back(timed, ann)  # days later, by her resume code
    assert sorted(welcome["waiting"]) == sorted([waiting_for_ann, third])
    rows = [row["table"] for row in welcome["tables"]]
    assert set(rows[:2]) == {waiting_for_ann, third}
    assert set(rows[2:4]) == {second, open_one}


async def come_back(host, client):
    from solstis_tui.client.client import HostClient

    again = await HostClient.connect(host.socket_path)
    return again, await again.hello(None, client.code)


async def test_correspondence_games_are_rated_in_their_own_pool(tmp_path, keyed):
    keyed.clock = Clock()
    settled(keyed, "corr:key:Bob")
    live_before = keyed.ratings.rating("key:Ann")
    bob, ann, table = await seated_at_a_rated_table(keyed, BOB, ANN, days=1)
    states = await play_to_end(keyed, {0: bob["client"], 1: ann["client"]}, table,
                               random.Random(3))
    assert states[0]["observation"]["is_over"]
    assert keyed.ratings.rating("corr:key:Ann") != Rating()  # moved in its pool...
    assert keyed.ratings.rating("key:Ann") == live_before  # ...and only there
    await ann["client"].send({"type": "leaders", "pool": "correspondence"})
    board = await ann["client"].receive_until("leaders")
    assert board["pool"] == "correspondence"
    assert board["rating"] != board["other"] == "1500?"  # both pools: live untouched
    from solstis_tui.client.leaders import board_text

    assert "Your rating in live games: 1500?" in board_text(board)
    await ann["client"].send({"type": "player"})
    page = await ann["client"].receive_until("player")
    assert page["correspondence"]["rating"] != page["rating"]
    assert page["correspondence"]["games"] and not page["games"]


@pytest.mark.parametrize("days", [4, -1, "2", True])
async def test_a_pace_outside_the_choices_is_refused(timed, days):
    ann, _ = await connect(timed, "Ann")
    reply = await create(ann, seat=0, days=days)
    assert reply["type"] == "error" and reply["code"] == "bad_message"
    assert timed.tables == {}


async def test_waiting_says_in_one_line_how_many_games_wait_and_exits_by_it(timed):
    from solstis_tui.client.waiting import NONE, SOME, UNKNOWN, waiting_line

    ann, bob, table = await two_at_a_table(timed, days=1)  # Ann (seat 0) moves first
    await state_where(ann, table, seated)
    where = timed.socket_path
    assert await waiting_line(where, code=ann.code) == (
        SOME, "solstis: 1 game waits for your move.")
    assert await waiting_line(where, code=bob.code) == (
        NONE, "solstis: no game waits for your move.")
    players = len(timed.players.players())
    status, line = await waiting_line(where)  # nobody the host knows: it says so...
    assert status == UNKNOWN and "knows no player of yours yet" in line
    assert len(timed.players.players()) == players  # ...and makes no new player


@pytest.mark.parametrize(("asked", "status"), [("bash", 2), ("waiting; rm -rf ~", 2)])
def test_the_ssh_account_runs_nothing_but_the_lobby_or_waiting(monkeypatch, capsys, asked,
                                                               status):
    from solstis_tui.client.launch import online_main

    monkeypatch.setenv("SSH_ORIGINAL_COMMAND", asked)
    assert online_main(["--ssh-command"]) == status
    assert "nothing else" in capsys.readouterr().err


def test_waiting_refuses_a_name_that_would_make_a_new_player(capsys):
    from solstis_tui.client.launch import online_main

    assert online_main(["--waiting", "--name", "Cy"]) == 2
    assert "not by a name" in capsys.readouterr().err


async def test_a_bot_plays_a_correspondence_game_at_its_usual_speed(timed):
    ann, _ = await connect(timed, "Ann")
    table = (await create(ann, seat=0, days=7, opponent="random"))["table"]
    state = await state_where(ann, table, seated)
    assert state["time_left"] == 7 * DAY  # the day clock runs: the bot sat down
    made = len(timed.tables[table].game.history)
    await play_turn(timed, ann, table, 0)
    # the bot answers without any day passing (the host's clock stands still here)
    state = await state_where(ann, table, lambda s: (s["observation"]["to_play"] == 0
                              and len(s["observation"]["history"]) > made + 1)
                              or s["observation"]["is_over"])
    assert state["days"] == 7


async def test_a_correspondence_bot_game_counts_against_the_bots_capacity(timed):
    ann, _ = await connect(timed, "Ann")
    await create(ann, seat=0, days=7, opponent="random")
    await create(ann, seat=0, days=7, opponent="random")
    assert timed.quotas.bot_tables() == 2  # its bot answers at once: it is a bot game
    reply = await create(ann, seat=0, opponent="random")  # live: the two are the cap
    assert reply["type"] == "error" and reply["code"] == "too_many"


async def test_a_correspondence_rematch_is_offered_to_an_opponent_who_is_away(timed):
    ann, bob, table = await two_at_a_table(timed, days=1)
    await state_where(ann, table, seated)
    timed.test_clock.now += DAY + 1  # Ann's day ran out: Bob claims, then goes away
    await bob.send({"type": "claim", "table": table})
    await state_where(bob, table, over)
    await bob.close()
    await ann.send({"type": "rematch", "table": table})
    offered = await ann.receive_until("rematch_offered")
    assert timed.tables[offered["new"]].days == 1  # waiting in Bob's lobby, at one day


async def test_waiting_is_a_probe_nobody_at_the_table_hears_of(timed):
    import asyncio

    from solstis_tui.client.waiting import SOME, waiting_line

    ann, bob, table = await two_at_a_table(timed, days=1)
    await state_where(bob, table, seated)
    await ann.close()  # Ann, to move, is away
    async with asyncio.timeout(30):
        while len(timed.conns) > 1 or timed.crowd.closing:
            await asyncio.sleep(0.01)
    await bob.send({"type": "ping"})
    await bob.receive_until("pong")  # what Ann's leaving told Bob is read
    assert (await waiting_line(timed.socket_path, code=ann.code))[0] == SOME
    async with asyncio.timeout(30):
        while len(timed.conns) > 1 or timed.crowd.closing:
            await asyncio.sleep(0.01)
    await bob.send({"type": "ping"})
    seen = []
    while (message := await bob.receive())["type"] != "pong":
        seen.append(message["type"])
    assert "state" not in seen  # Ann's seat never showed her there and gone again

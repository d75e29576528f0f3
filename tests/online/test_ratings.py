"""Rated play: identified players and bots on one Glicko-2 scale, every finished rated game
recorded exactly once, with its rating changes, in the host's SQLite database."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sqlite3

import pytest

from solstis_tui.core import Options
from solstis_tui.host.glicko2 import Rating
from solstis_tui.host.hostlock import StartRefused
from solstis_tui.host.ratings import Ratings, bot_starts, result_of
from solstis_tui.host.standings import ABANDONED
from solstis_tui.host.tables import Seat, TableStore, new_table

from .conftest import start_host
from .identities import (
    ANN,
    BOB,
    PLAYERS_UID,
    STRANGER,
    hello,
    seated_at_a_rated_table,
    settled,
)
from .states import SAFETY, next_turn, over, state_where
from .test_host import play_to_end

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


async def rated_game(host, first: str, second: str) -> tuple[dict, dict, str]:
    """Two keys sit at a rated friend table and play it to the end; their welcomes and
    the table."""
    ann, bob, table = await seated_at_a_rated_table(host, first, second)
    host.final_states = await play_to_end(host, {0: ann["client"], 1: bob["client"]}, table,
                                          random.Random(3))
    return ann, bob, table


def stored(host, bots: bool = False) -> tuple[list, list]:
    """The rating rows (the people's, unless ``bots``) and the results of the tables
    played (not those that settled a rating before the test: see ``settled``)."""
    with sqlite3.connect(host.ratings.path) as db:
        ratings = db.execute("SELECT identity, games FROM ratings WHERE identity NOT LIKE "
                             "? ORDER BY identity", ("" if bots else "bot:%",)).fetchall()
        results = db.execute("SELECT table_id, counted FROM results WHERE table_id NOT "
                             "LIKE 'settle-%'").fetchall()
    return ratings, results


async def test_a_rated_game_moves_both_ratings_and_is_stored_with_its_result(keyed):
    settled(keyed, "key:Bob")  # played the bots before: his rating has settled
    bob_before = keyed.ratings.rating("key:Bob")
    ann, bob, table = await rated_game(keyed, ANN, BOB)
    assert ann["rating"] == "1500?"  # a newcomer: provisional
    assert bob["rating"] == str(round(bob_before.rating))
    winner = keyed.tables[table].game.winner
    after = {who: keyed.ratings.rating(f"key:{who}") for who in ("Ann", "Bob")}
    before = {"Ann": Rating(), "Bob": bob_before}
    if winner is not None:
        won, lost = ("Ann", "Bob") if winner == 0 else ("Bob", "Ann")
        assert after[won].rating > before[won].rating
        assert after[lost].rating < before[lost].rating
    assert stored(keyed) == ([("key:Ann", 1), ("key:Bob", 15)], [(table, 1)])
    for seat, who in enumerate(("Ann", "Bob")):  # the end: each seat's change, as shown
        delta = round(after[who].rating) - round(before[who].rating)
        mark = "?" if after[who].provisional else ""
        assert keyed.final_states[0]["seats"][seat]["change"] == \
            f"{delta:+d} → {round(after[who].rating)}{mark}"
    again = await hello(keyed, ANN)  # the lobby and the welcome show the new rating
    assert again["rating"] == f"{round(after['Ann'].rating)}?"
    row = next(r for r in again["tables"] if r["table"] == table)
    assert row["rated"] and [s["rating"] for s in row["seats"]] == [
        keyed.standings.rating_text(f"key:{w}") for w in ("Ann", "Bob")]


async def test_an_unrated_game_is_stored_with_its_result_and_moves_no_rating(keyed):
    ann, bob = await hello(keyed, ANN), await hello(keyed, BOB)
    await ann["client"].send({"type": "create", "variant": "base", "opponent": "friend",
                              "seat": 0})
    table = (await ann["client"].receive_until("joined"))["table"]
    await bob["client"].send({"type": "join", "table": table})
    await bob["client"].receive_until("joined")
    await ann["client"].send({"type": "resign", "table": table})
    ended = await state_where(bob["client"], table, over)  # the resignation, as Bob sees it
    assert ended["observation"]["winner"] == 1
    with sqlite3.connect(keyed.ratings.path) as db:
        rows = db.execute("SELECT table_id, player0, player1, score0, rated "
                          "FROM results").fetchall()
    assert rows == [(table, "key:Ann", "key:Bob", 0.0, 0)]
    assert stored(keyed)[0] == []  # nobody's rating moved
    assert await keyed.ratings.games_of("key:Bob") == []  # her page lists rated games


async def test_three_quick_resignations_between_friends_move_nobodys_rating(keyed):
    """The farming attack: a friend resigns three rated games at once, no move played.
    Each is an abandoned game, not a result: stored unrated, nobody's rating moves, and
    both players read why."""
    tables = []
    for _ in range(3):
        ann, bob, table = await seated_at_a_rated_table(keyed, ANN, BOB)
        await bob["client"].send({"type": "resign", "table": table})
        state = await state_where(ann["client"], table, over)
        assert state["observation"]["is_over"] and not state["counts"]
        assert [s["change"] for s in state["seats"]] == [ABANDONED] * 2
        assert "5 decisions" in ABANDONED
        tables.append(table)
    with sqlite3.connect(keyed.ratings.path) as db:
        rows = db.execute("SELECT table_id, rated FROM results ORDER BY table_id").fetchall()
    assert rows == sorted((t, 0) for t in tables)
    assert stored(keyed)[0] == []  # no rating row at all
    assert keyed.ratings.rating("key:Ann") == keyed.ratings.rating("key:Bob") == Rating()
    assert await keyed.ratings.games_of("key:Ann") == []
    leaders = await keyed.standings.leaders("key:Ann")
    assert leaders["place"] is None and leaders["rating"] == "1500?"


async def test_a_rated_table_left_before_anyone_played_is_forfeited_unrated(keyed):
    import time

    ann, bob, table = await seated_at_a_rated_table(keyed, ANN, BOB)
    for client in (ann["client"], bob["client"]):
        await client.close()
    while keyed.conns:
        await asyncio.sleep(0.01)
    later = time.time() + 25 * 3600
    await keyed.housekeeping.forfeit_abandoned(later)
    assert table in keyed.housekeeping.expire(later)
    with sqlite3.connect(keyed.ratings.path) as db:
        assert db.execute("SELECT table_id, rated FROM results").fetchall() == [(table, 0)]
    assert stored(keyed)[0] == [] and keyed.ratings.rating("key:Ann") == Rating()


async def test_a_bot_is_rated_on_the_same_scale_from_its_ladder_figure(keyed):
    starts = bot_starts()
    assert starts["bot:random"].rating < starts["bot:greedy"].rating \
        < starts["bot:minimax"].rating < starts["bot:mcts"].rating \
        < starts["bot:expert"].rating
    ann = await hello(keyed, ANN)
    await ann["client"].send({"type": "create", "variant": "base", "opponent": "greedy",
                              "seat": 0, "rated": True})
    table = (await ann["client"].receive_until("joined"))["table"]
    state = await ann["client"].receive_until("state", table=table)
    assert state["rated"] and state["seats"][1]["rating"] == str(
        round(starts["bot:greedy"].rating))
    obs = state["observation"]
    while not obs["is_over"]:  # Ann answers her decisions; the bot's seat plays itself
        made = len(obs["history"])
        if obs["legal_moves"]:
            await ann["client"].send({"type": "move", "table": table,
                                      "move": obs["legal_moves"][0], "seq": made})
        obs = (await state_where(ann["client"], table, next_turn(made)))["observation"]
    ratings, results = stored(keyed, bots=True)
    assert ratings == [("bot:greedy", 1), ("key:Ann", 1)] and results == [(table, 1)]
    assert keyed.ratings.rating("bot:greedy") != starts["bot:greedy"]


@pytest.mark.parametrize("who", ["guest", "local"])
async def test_a_rated_table_needs_two_identified_players(keyed, peer, who):
    if who == "local":
        peer.uid = os.getuid()
        somebody = await hello(keyed, name="Sam")
    else:
        somebody = await hello(keyed, STRANGER, name="Gus")
    client = somebody["client"]
    await client.send({"type": "create", "variant": "base", "opponent": "greedy",
                       "rated": True})
    assert (await client.receive_until("error"))["code"] == "unrated_only"
    assert keyed.tables == {}
    peer.uid = PLAYERS_UID
    ann = await hello(keyed, ANN)
    await ann["client"].send({"type": "create", "variant": "base", "opponent": "friend",
                              "rated": True})
    table = (await ann["client"].receive_until("joined"))["table"]
    await client.send({"type": "join", "table": table})
    refused = await client.receive_until("error")
    assert refused["code"] == "unrated_only" and "rated table" in refused["message"]
    assert keyed.tables[table].status() == "open"


VERSION_1 = """
CREATE TABLE ratings (identity TEXT PRIMARY KEY, rating REAL NOT NULL, rd REAL NOT NULL,
    vol REAL NOT NULL, games INTEGER NOT NULL DEFAULT 0, updated REAL NOT NULL);
CREATE TABLE results (table_id TEXT PRIMARY KEY, finished REAL NOT NULL,
    player0 TEXT NOT NULL, player1 TEXT NOT NULL, score0 REAL NOT NULL,
    counted INTEGER NOT NULL, before0 REAL, after0 REAL, before1 REAL, after1 REAL);
CREATE INDEX results_by_pair ON results (player0, player1, finished);
"""


async def test_a_ratings_file_of_the_version_before_unrated_results_keeps_its_games(
        tmp_path):
    old = VERSION_1
    with contextlib.closing(sqlite3.connect(tmp_path / "ratings.db")) as db:
        db.executescript(f"{old} PRAGMA user_version=1;")
        db.execute("INSERT INTO results VALUES ('t1', 1000.0, 'key:Ann', 'key:Bob', 1.0, 1, "
                   "1500, 1662, 1500, 1338)")
        db.commit()
    ratings = Ratings(tmp_path)
    ratings.open()
    try:
        assert await ratings.games_of("key:Ann") == [("key:Bob", 1.0, 1662)]
        assert ratings.is_recorded("t1")
    finally:
        ratings.close()


def test_the_same_two_people_count_at_most_three_times_a_day_but_a_bot_every_time(
        tmp_path):
    ratings = Ratings(tmp_path)
    ratings.open()
    try:
        for i in range(14):  # both settled against the greedy bot: every game counted
            for who in ("key:Ann", "key:Bob"):
                change = ratings.record_now(result_of(f"s{who}{i}", (who, "bot:greedy"),
                                                      None, finished=100.0 + i))
                assert change.counted
        changes = [ratings.record_now(result_of(f"t{i}", ("key:Ann", "key:Bob"), i % 2,
                                                finished=1000.0 + i)) for i in range(4)]
        assert [c.counted for c in changes] == [True, True, True, False]
        assert changes[3].after == changes[3].before
        assert changes[3].shown()[0] == \
            "not counted: 3 rated games a day between the same two players count"
        later = ratings.record_now(result_of("t9", ("key:Bob", "key:Ann"), 0,
                                             finished=1000.0 + 25 * 3600))
        assert later.counted  # a day later they count again (either seat order)
        newcomer = [ratings.record_now(result_of(f"c{i}", ("key:Cat", "key:Bob"), 0,
                                                 finished=2000.0 + i)) for i in range(2)]
        assert [c.counted for c in newcomer] == [True, False]  # one a day while provisional
    finally:
        ratings.close()


def test_recording_a_game_twice_changes_nothing_the_second_time(tmp_path):
    ratings = Ratings(tmp_path)
    ratings.open()
    result = result_of("t1", ("key:Ann", "bot:mcts"), 0, finished=1000.0)
    first = ratings.record_now(result)
    assert first is not None and ratings.record_now(result) is None
    ratings.close()
    again = Ratings(tmp_path)  # and after a restart
    again.open()
    try:
        assert again.record_now(result) is None
        assert again.rating("key:Ann") == first.after[0]
    finally:
        again.close()


async def test_a_rated_game_that_ended_before_a_crash_is_recorded_once_at_the_next_start(
        tmp_path):
    """The table file says the game is over; the result never reached the database (the
    host was killed in between): the next start records it, and the one after does not."""
    data = tmp_path / "data"
    store = TableStore(data / "tables")
    store.directory.mkdir(parents=True)
    table = new_table(Options(), [Seat("Ann", "c1", identity="key:Ann"),
                                  Seat("Bob", "c2", identity="key:Bob")], rated=True)
    table.unrated = ""  # told it counts when Bob sat down
    rand = random.Random(1)
    while not table.game.is_over:
        table.game.play(rand.choice(table.game.legal_moves()))
    store.save(table)
    for start in range(2):
        host = await start_host(data, tmp_path / f"h{start}.sock")
        try:
            assert stored(host) == ([("key:Ann", 1), ("key:Bob", 1)], [(table.id, 1)])
        finally:
            await host.close()


async def test_an_unreadable_ratings_file_is_kept_aside_and_the_host_refuses_to_start(
        tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "ratings.db").write_bytes(b"this is not a database, but it was someone's" * 100)
    with pytest.raises(StartRefused, match="is not a ratings database") as refused:
        await start_host(data, tmp_path / "h.sock")
    kept = [p.name for p in data.glob("ratings.db.corrupt-*")] + [
        p.name for p in data.glob("ratings.corrupt-*")]
    assert len(kept) == 1 and kept[0] in str(refused.value)
    assert not (data / "ratings.db").exists()



async def test_a_ratings_file_that_cannot_be_opened_now_is_left_where_it_is(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "ratings.db").mkdir()  # not a file at all: sqlite cannot open it
    with pytest.raises(StartRefused, match="cannot be opened now"):
        await start_host(data, tmp_path / "h.sock")
    assert (data / "ratings.db").is_dir() and not list(data.glob("*corrupt*"))


def test_the_change_reads_as_a_person_reads_it():
    from solstis_tui.client.remote import rating_news

    seats = [{"name": "Ann", "change": "+14 → 1594"}, {"name": "Greedy", "change": "-9 → 1441"}]
    assert rating_news(seats, 0) == "Rated game: you +14 → 1594 · Greedy -9 → 1441"
    assert rating_news(seats, None) == "Rated game: Ann +14 → 1594 · Greedy -9 → 1441"
    assert rating_news([{"name": "Ann"}, {"name": "Bob"}], 0) is None


async def test_a_rated_game_nobody_came_back_to_is_lost_by_whoever_left_it(keyed):
    import time

    settled(keyed, "key:Bob")
    before = {i: keyed.ratings.rating(i) for i in ("key:Ann", "key:Bob")}
    ann, bob, table = await seated_at_a_rated_table(keyed, ANN, BOB)
    await play_to_end(keyed, {0: ann["client"], 1: bob["client"]}, table, random.Random(4),
                      until=lambda state: state["counts"])
    stalled = keyed.tables[table].game.to_play  # whoever had to decide when both left
    for client in (ann["client"], bob["client"]):
        await client.close()
    async with asyncio.timeout(SAFETY):  # the host noticed both go (the bound: a guard)
        while keyed.conns:
            await asyncio.sleep(0.01)
    soon = time.time() + 3600  # within the time to come back: nothing happens
    await keyed.housekeeping.forfeit_abandoned(soon)
    assert keyed.housekeeping.expire(soon) == [] and stored(keyed) == ([("key:Bob", 14)], [])
    later = time.time() + 25 * 3600
    record = keyed.ratings.record

    async def disk_full(result):
        raise OSError(28, "No space left on device")

    keyed.ratings.record = disk_full  # the forfeit cannot be stored: the table stays
    await keyed.housekeeping.forfeit_abandoned(later)
    assert keyed.housekeeping.expire(later) == [] and table in keyed.tables
    keyed.ratings.record = record
    await keyed.housekeeping.forfeit_abandoned(later)
    assert table in keyed.housekeeping.expire(later)
    assert stored(keyed)[1] == [(table, 1)]
    loser = ("key:Ann", "key:Bob")[stalled]
    assert keyed.ratings.rating(loser).rating < before[loser].rating

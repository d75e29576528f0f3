"""Online game records: the host keeps every finished game's record beside its result and
hands it only to those who played or watched the game, only once it is over; a player's
list of their games; the refusals a stranger, a guesser or a flood get (raw messages)."""

from __future__ import annotations

import json
import random
import secrets
import sqlite3

import pytest

from solstis_tui.core import EndReason
from solstis_tui.host.archive import reader_key
from solstis_tui.records import loads

from .conftest import start_host
from .identities import ANN, BOB, seated_at_a_rated_table, settled
from .states import over, seated, state_where
from .test_host import play_to_end, start_friend_game

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


async def resigned_game(host, connect, moves: int = 4):
    """Ann (seat 0) and Bob play a few moves, then Bob resigns: the game, over."""
    ann, bob, table = await start_friend_game(connect)
    await play_to_end(host, {0: ann, 1: bob}, table, random.Random(3), stop_after=moves)
    await bob.send({"type": "resign", "table": table})
    state = await state_where(ann, table, over)
    await state_where(bob, table, over)
    return ann, bob, table, state


async def ask_record(client, game: str) -> dict:
    """The host's answer to a ``record`` request: the record or an error."""
    await client.send({"type": "record", "game": game, "id": "r"})
    while True:
        message = await client.receive()
        if message["type"] in ("record", "error") and message.get("id") == "r":
            return message


def rows(host) -> tuple[int, int]:
    """Records and readers in the host's database (read beside it, as a check)."""
    with sqlite3.connect(host.ratings.path) as conn:
        return (conn.execute("SELECT count(*) FROM records").fetchone()[0],
                conn.execute("SELECT count(*) FROM readers").fetchone()[0])


async def test_a_finished_game_is_kept_and_both_players_fetch_a_record_that_replays(
        host, connect):
    ann, bob, table = await start_friend_game(connect)
    states = await play_to_end(host, {0: ann, 1: bob}, table, random.Random(11))
    final = states[0]
    game_id = final["game"]
    assert game_id == host.tables[table].game_id
    for client, seat in ((ann, 0), (bob, 1)):
        reply = await ask_record(client, game_id)
        assert (reply["type"], reply["seat"], reply["game"]) == ("record", seat, game_id)
        record = loads(reply["text"])  # replays it in the engine and checks the scores
        assert [s.name for s in record.seats] == ["Ann", "Bob"]
        assert [s.kind for s in record.seats] == ["human", "human"]
        assert list(record.scores) == final["scores"]
        assert record.end is EndReason(final["observation"]["end_reason"])
    await host.close()  # kept on disk beside the result
    again = await start_host(host.data_dir, host.socket_path.parent / "again.sock")
    try:
        back = await again.ratings.record_for(reader_key(None, ann.code), game_id)
        assert back is not None and loads(back[0]).scores == record.scores
    finally:
        await again.close()


async def test_no_record_while_the_game_is_played_nor_for_a_stranger_nor_a_made_up_id(
        host, connect):
    ann, bob, table = await start_friend_game(connect)
    game_id = host.tables[table].game_id
    await play_to_end(host, {0: ann, 1: bob}, table, random.Random(2), stop_after=3)
    playing = await ask_record(ann, game_id)  # her own game, still being played
    assert playing["code"] == "no_record"
    await bob.send({"type": "resign", "table": table})
    await state_where(ann, table, over)
    kept = rows(host)
    eve = await connect("Eve")
    stranger = await ask_record(eve, game_id)
    made_up = await ask_record(eve, "g" + secrets.token_hex(16))
    # one and the same answer: nothing tells Eve that Ann's game exists
    assert stranger["code"] == made_up["code"] == "no_record"
    assert stranger["message"] == made_up["message"] == playing["message"]
    for bad in ("t1234", game_id.upper(), game_id + "0", 7, None, "g" + "z" * 32):
        await eve.send({"type": "record", "game": bad, "id": "b"})
        assert (await eve.receive_until("error"))["code"] == "bad_message"
    eve.writer.write(json.dumps({"type": "record", "game": "g" * 70_000}).encode() + b"\n")
    assert (await eve.receive_until("error"))["code"] == "too_big"
    assert (await ask_record(ann, game_id))["type"] == "record"  # now it is over: hers
    assert rows(host) == kept  # asking changed nothing


async def test_a_watcher_during_the_game_reads_its_record_and_one_after_it_does_not(
        host, connect):
    ann, bob, table = await start_friend_game(connect)
    cid = await connect("Cid")
    await cid.send({"type": "watch", "table": table})
    assert (await cid.receive_until("watching"))["record"] is True  # told it will be his
    await state_where(cid, table, seated)
    await cid.send({"type": "leave", "table": table})  # a watcher at any time counts
    await cid.receive_until("left")
    await play_to_end(host, {0: ann, 1: bob}, table, random.Random(4), stop_after=2)
    await ann.send({"type": "resign", "table": table})
    game_id = (await state_where(bob, table, over))["game"]
    dan = await connect("Dan")
    await dan.send({"type": "watch", "table": table})  # only once it is over
    assert (await dan.receive_until("watching"))["record"] is False  # told it is not his
    await state_where(dan, table, over)
    watched = await ask_record(cid, game_id)
    assert (watched["type"], watched["seat"]) == ("record", None)
    assert (await ask_record(dan, game_id))["code"] == "no_record"
    await cid.send({"type": "games"})
    listed = await cid.receive_until("games")
    assert [(g["game"], g["seat"], g["change"]) for g in listed["games"]] == [
        (game_id, None, None)]


async def test_the_watcher_past_the_first_hundred_is_told_the_record_will_not_be_theirs(
        host, connect):
    from solstis_tui.host.tables import MAX_WATCHERS

    _ann, _bob, table = await start_friend_game(connect)
    host.tables[table].watchers = tuple(f"code:{i:032x}" for i in range(MAX_WATCHERS))
    eve = await connect("Eve")
    await eve.send({"type": "watch", "table": table})
    assert (await eve.receive_until("watching"))["record"] is False
    assert len(host.tables[table].watchers) == MAX_WATCHERS


async def test_my_games_lists_date_opponent_rating_change_and_ending_newest_first(keyed):
    from .identities import hello

    settled(keyed, "key:Bob")
    ann, bob, table = await seated_at_a_rated_table(keyed, ANN, BOB)
    await play_to_end(keyed, {0: ann["client"], 1: bob["client"]}, table, random.Random(5),
                      until=lambda state: state["counts"])
    await ann["client"].send({"type": "resign", "table": table})
    first = (await state_where(bob["client"], table, over))["game"]
    await ann["client"].send({"type": "create", "opponent": "random", "seat": 0})
    second_table = (await ann["client"].receive_until("joined"))["table"]
    await ann["client"].send({"type": "resign", "table": second_table})
    second = (await state_where(ann["client"], second_table, over))["game"]
    await ann["client"].send({"type": "games"})
    page = await ann["client"].receive_until("games")
    assert page["total"] == 2 and [g["game"] for g in page["games"]] == [second, first]
    newest, rated = page["games"]
    assert (newest["names"], newest["seat"], newest["end"], newest["winner"],
            newest["change"]) == (["Ann", "Random"], 0, "resigned", 1, None)
    assert rated["names"] == ["Ann", "Bob"] and rated["end"] == "resigned"
    assert rated["change"].startswith("-") and "→" in rated["change"]
    assert rated["date"].endswith("Z") and rated["variant"] == "base"
    bob_page = await hello(keyed, BOB)  # Bob's list holds only the game he played
    await bob_page["client"].send({"type": "games"})
    theirs = await bob_page["client"].receive_until("games")
    assert [g["game"] for g in theirs["games"]] == [first]
    assert theirs["games"][0]["change"].startswith("+")
    record = await ask_record(ann["client"], second)
    assert loads(record["text"]).seats[1].kind == "random@1s"  # a bot seat: its spec


async def test_an_attacker_guessing_ids_gets_the_same_refusal_then_is_slowed(host, connect):
    """A raw socket: someone else's game id and guessed ids are refused alike, and a flood of
    guesses runs out of its allowance (``too_many``) without changing anything."""
    _ann, _bob, _table, state = await resigned_game(host, connect)
    kept = rows(host)
    eve = await connect("Eve")
    answers = [await ask_record(eve, state["game"])]
    for _ in range(int(host.limits.records_per_minute) - 1):
        answers.append(await ask_record(eve, "g" + secrets.token_hex(16)))
    assert {(a["type"], a["code"], a["message"]) for a in answers} == {
        ("error", "no_record", answers[0]["message"])}
    slowed = await ask_record(eve, state["game"])
    assert slowed["code"] == "too_many"
    assert rows(host) == kept


async def test_a_ratings_file_of_before_records_keeps_its_results_and_keeps_records_now(
        tmp_path, monkeypatch):
    """Version 3 kept no records: its results stay (with no record, so listed nowhere), and
    the next finished game is kept with its record."""
    from solstis_tui.host import ratings as ratings_module
    from solstis_tui.host.ratings import Ratings

    with sqlite3.connect(tmp_path / "ratings.db") as db:
        db.executescript(ratings_module.RATINGS_SCHEMA + "PRAGMA user_version = 3;")
        db.execute("INSERT INTO results VALUES ('gold', 'tabc123', 1000.0, 'key:Ann', "
                   "'key:Bob', 1.0, 1, 1500, 1662, 1500, 1338, 1)")
    ratings = Ratings(tmp_path)
    ratings.open()
    try:
        assert ratings.is_recorded("gold")
        assert await ratings.games_of("key:Ann") == [("key:Bob", 1.0, 1662)]
        assert await ratings.games_of_reader("key:Ann", 0) == ([], 0)
        assert await ratings.record_for("key:Ann", "gold") is None
    finally:
        ratings.close()
    with sqlite3.connect(tmp_path / "ratings.db") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 4


async def test_a_rated_game_nobody_came_back_to_is_kept_as_lost_on_time_once_its_table_goes(
        keyed):
    """The forfeit of a game both players left (docs/ratings.md) is kept with its record:
    lost on time by the seat whose decision it was."""
    import asyncio
    import time

    from .identities import hello

    settled(keyed, "key:Bob")
    ann, bob, table = await seated_at_a_rated_table(keyed, ANN, BOB)
    await play_to_end(keyed, {0: ann["client"], 1: bob["client"]}, table, random.Random(4),
                      until=lambda state: state["counts"])
    stalled = keyed.tables[table].game.to_play
    game_id = keyed.tables[table].game_id
    for client in (ann["client"], bob["client"]):
        await client.close()
    async with asyncio.timeout(60):  # the host noticed both go (the bound: a guard)
        while keyed.conns:
            await asyncio.sleep(0.01)
    later = time.time() + 25 * 3600
    await keyed.housekeeping.forfeit_abandoned(later)
    back = await hello(keyed, ANN)
    # Stored, but the table is still there and the game not over: Ann is back in time and
    # may play on, so the record (which gives the deal away) waits.
    early = await ask_record(back["client"], game_id)
    assert early["type"] == "error" and early["code"] == "no_record", early
    await back["client"].send({"type": "games", "id": "g"})
    listed = await back["client"].receive_until("games")
    assert game_id not in [row["game"] for row in listed["games"]]
    await back["client"].close()
    async with asyncio.timeout(60):
        while keyed.conns:
            await asyncio.sleep(0.01)
    assert table in keyed.housekeeping.expire(later)  # the table goes: the game is over
    back = await hello(keyed, ANN)
    reply = await ask_record(back["client"], game_id)
    assert reply["type"] == "record", reply
    record = loads(reply["text"])
    assert (record.end, record.winner, reply["seat"]) == (EndReason.TIME, 1 - stalled, 0)


def test_a_table_file_keeps_its_watchers_and_the_seat_kept_for_a_rematch():
    """A restarted host still knows who may read a game's record and whose seat a rematch
    keeps."""
    from solstis_tui.core import Options
    from solstis_tui.host.tables import MAX_WATCHERS, Seat, Table, new_table

    table = new_table(Options(), [Seat("Ann", "c1"), Seat("Bob", kept_for="c2")])
    table.watchers = tuple(f"code:{i}" for i in range(MAX_WATCHERS))
    table.rematch_of = "g" + "1" * 32
    again = Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert again.watchers == table.watchers and again.rematch_of == table.rematch_of
    assert again.seats[1].kept_for == "c2" and again.seats[1].is_open
    data = table.to_dict()
    data["watchers"] = [f"code:{i}" for i in range(5 * MAX_WATCHERS)]  # a file made by hand
    assert len(Table.from_dict(data).watchers) == MAX_WATCHERS


async def test_a_raw_socket_stranger_learns_nothing_of_anyones_game(host, connect):
    """Mallory speaks to the socket by hand: the id of a game she did not play (she read it
    somewhere), the same id in other spellings, and ids she made up all get one answer,
    and her list of games is empty."""
    import asyncio

    _ann, _bob, _table, state = await resigned_game(host, connect)
    reader, writer = await asyncio.open_unix_connection(str(host.socket_path))

    async def say(message: dict) -> dict:
        writer.write(json.dumps(message).encode() + b"\n")
        await writer.drain()
        while True:
            line = await reader.readline()
            assert line, "the host hung up"
            reply = json.loads(line)
            if reply.get("id") == message.get("id") or reply["type"] == "welcome":
                return reply  # a reply echoes its id (a welcome carries none)

    assert (await say({"type": "hello", "version": 2, "name": "Mallory"}))["type"] == "welcome"
    game = state["game"]
    answers = [await say({"type": "record", "game": g, "id": i}) for i, g in enumerate(
        [game, "g" + "0" * 32, "g" + game[1:][::-1], "g" + "f" * 32], start=1)]
    assert {(a["code"], a["message"]) for a in answers} == {("no_record", answers[0]["message"])}
    mine = await say({"type": "games", "id": 9})
    assert (mine["games"], mine["total"]) == ([], 0)
    writer.close()



async def test_a_finished_game_is_judged_once_at_the_host_and_sent_with_its_record(
        tmp_path, monkeypatch):
    """With ``judge_games``, the host judges a finished game once, in its analyst's worker
    at the lowest priority, and hands the analysis with the record; the client keeps it
    beside the record, where the review finds it without judging the game again."""
    from solstis_tui.client.review import keep_judged, kept_online
    from solstis_tui.coach import analysis, store

    from .conftest import HostClient

    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(tmp_path / "client"))
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            judge_games=True, judge_effort=analysis.TINY)
    try:
        clients = []

        async def connect(name: str | None = "Ann", code: str | None = None):
            client = await HostClient.connect(host.socket_path)
            clients.append(client)
            if name or code:
                await client.hello(name, code)
            return client

        ann, bob, table = await start_friend_game(connect)
        states = await play_to_end(host, {0: ann, 1: bob}, table, random.Random(11))
        game_id = states[0]["game"]
        await host.analyst.idle()
        assert (host.analyst.judged, host.analyst.failed) == (1, 0)
        reply = await ask_record(ann, game_id)
        judged = reply["analysis"]
        found = analysis.from_json(judged)
        assert len(found.decisions()) > 10 and {s.name for s in found.seats} == {"Ann", "Bob"}
        record = loads(reply["text"])
        path = kept_online(record)
        assert path is not None and keep_judged(path, judged, analysis.TINY)
        assert store.kept(path, analysis.TINY) == found
        # Asked again, nothing is judged again: the same analysis, the same count.
        assert (await ask_record(bob, game_id))["analysis"] == judged
        assert host.analyst.judged == 1
        for client in clients:
            client.writer.close()
    finally:
        await host.close()

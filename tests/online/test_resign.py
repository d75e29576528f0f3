"""Fair play at the table: a player may resign, or leave a table for good; nobody else can
do either for them."""

from __future__ import annotations

import random

import pytest

from solstis_tui.core import EndReason

from .conftest import start_host
from .identities import ANN, BOB, seated_at_a_rated_table, settled
from .states import over, seated, state_where
from .test_host import play_to_end, start_friend_game

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


async def test_a_resignation_ends_the_game_as_a_loss_for_whoever_resigned(host, connect):
    ann, bob, table = await start_friend_game(connect)
    await play_to_end(host, {0: ann, 1: bob}, table, random.Random(1), stop_after=3)
    await bob.send({"type": "resign", "table": table})  # resigning while Ann decides
    for client in (ann, bob):
        obs = (await state_where(client, table, over))["observation"]
        assert (obs["is_over"], obs["winner"], obs["end_reason"]) == (True, 0, "resigned")
        assert obs["legal_moves"] == []
    await ann.send({"type": "move", "table": table, "move": "pass", "id": 1})
    assert (await ann.receive_until("error"))["code"] == "over"
    await ann.send({"type": "list"})  # the lobby shows it finished
    row = next(r for r in (await ann.receive_until("tables"))["tables"]
               if r["table"] == table)
    assert row["status"] == "over"
    await host.close()  # stored like any finished game
    again = await start_host(host.data_dir, host.socket_path.parent / "again.sock")
    try:
        assert table in again.tables, (again.problems, list(again.tables))
        game = again.tables[table].game
        assert (game.is_over, game.winner, game.end_reason) == (True, 0, EndReason.RESIGNED)
    finally:
        await again.close()


async def test_nobody_resigns_or_leaves_for_good_for_someone_else(host, connect):
    _ann, bob, table = await start_friend_game(connect)
    await state_where(bob, table, seated)
    before = host.tables[table].game.to_json()
    eve = await connect("Eve")
    await eve.send({"type": "watch", "table": table})
    await state_where(eve, table, seated)
    for message in ({"type": "resign", "table": table, "seat": 0},
                    {"type": "leave", "table": table, "for_good": True}):
        await eve.send({**message, "id": 5})
        error = await eve.receive_until("error")
        assert (error["code"], error["id"]) == ("not_seated", 5)
    for bad, code in (({"table": 7}, "bad_message"), ({"table": "nope"}, "no_table")):
        await bob.send({"type": "resign", **bad})
        assert (await bob.receive_until("error"))["code"] == code
    await bob.send({"type": "leave", "table": table, "for_good": "yes"})
    assert (await bob.receive_until("error"))["code"] == "bad_message"
    assert host.tables[table].game.to_json() == before
    assert not host.tables[table].game.is_over


async def test_leaving_for_good_before_anyone_joined_gives_the_table_up(host, connect):
    ann = await connect("Ann")
    await ann.send({"type": "create", "opponent": "friend", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    await ann.send({"type": "resign", "table": table})  # nobody to resign to
    assert (await ann.receive_until("error"))["code"] == "not_started"
    await ann.send({"type": "leave", "table": table, "for_good": True})
    left = await ann.receive_until("left")
    assert left == {"type": "left", "table": table, "for_good": True}
    assert table not in host.tables and not host.store.path(table).exists()
    bob = await connect("Bob")
    await bob.send({"type": "join", "table": table})
    assert (await bob.receive_until("error"))["code"] == "no_table"


async def test_leaving_for_good_during_a_game_is_a_resignation(host, connect):
    ann, bob, table = await start_friend_game(connect)
    await ann.send({"type": "leave", "table": table, "for_good": True})
    assert (await ann.receive_until("left"))["for_good"] is True
    obs = (await state_where(bob, table, over))["observation"]
    assert (obs["is_over"], obs["winner"], obs["end_reason"]) == (True, 1, "resigned")
    ann2 = await connect(None, code=ann.code)  # she no longer holds an unfinished table
    assert ann2.name == "Ann"
    assert not [t for t in host.tables.values()
                if t.seat_of(ann.code) is not None and not t.game.is_over]


async def test_a_rated_resignation_counts_in_the_ratings_once_both_have_played(keyed):
    settled(keyed, "key:Bob")
    bob_before = keyed.ratings.rating("key:Bob").rating
    ann, bob, table = await seated_at_a_rated_table(keyed, ANN, BOB)
    states = await play_to_end(keyed, {0: ann["client"], 1: bob["client"]}, table,
                               random.Random(5), until=lambda state: state["counts"])
    assert not states[0]["observation"]["is_over"]
    assert all(keyed.tables[table].decisions(seat) >= 5 for seat in (0, 1))
    await ann["client"].send({"type": "resign", "table": table})
    state = await state_where(bob["client"], table, over)
    assert state["observation"]["winner"] == 1
    assert keyed.ratings.rating("key:Bob").rating > bob_before
    assert keyed.ratings.rating("key:Ann").rating < 1500
    assert keyed.ratings.is_recorded(keyed.tables[table].game_id)
    assert state["seats"][1]["change"].startswith("+")

"""The rematch after an online game: a new table for the same two players with a new secret
deal, offered to the other player, who accepts or declines (raw messages to the host)."""

from __future__ import annotations

import pytest

from .states import over, seated, state_where
from .test_host import start_friend_game
from .test_online_records import resigned_game

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


async def test_a_rematch_is_offered_to_the_other_player_who_accepts_a_new_deal(host, connect):
    ann, bob, table, _state = await resigned_game(host, connect)
    old = host.tables[table]
    await ann.send({"type": "rematch", "table": table})
    joined = await ann.receive_until("joined")
    new = joined["table"]
    assert new != table and joined["seat"] == 1  # seats swapped: Bob starts this time
    offer = await bob.receive_until("rematch_offer")
    assert (offer["table"], offer["new"], offer["name"]) == (table, new, "Ann")
    waiting = await ann.receive_until("state", table=new)  # the seat is open, kept for Bob
    assert (waiting["seats"][0]["name"], waiting["seats"][0]["kept_for"]) == (None, "Bob")
    eve = await connect("Eve")  # the seat is Bob's, nobody else's
    await eve.send({"type": "join", "table": new})
    refused = await eve.receive_until("error")
    assert refused["code"] == "table_full" and "Bob" in refused["message"]
    await bob.send({"type": "rematch", "table": table})  # yes
    assert (await bob.receive_until("joined"))["seat"] == 0
    state = await state_where(ann, new, seated)
    assert [s["name"] for s in state["seats"]] == ["Bob", "Ann"]
    game = host.tables[new].game
    assert game.seed != old.game.seed and host.tables[new].game_id != old.game_id
    assert "game" not in state  # nothing of the new game's id while it is played


async def test_a_declined_rematch_closes_its_table_and_tells_whoever_offered_it(
        host, connect):
    ann, bob, table, _state = await resigned_game(host, connect)
    await bob.send({"type": "rematch", "table": table})
    new = (await bob.receive_until("joined"))["table"]
    await ann.receive_until("rematch_offer")
    eve = await connect("Eve")
    await eve.send({"type": "decline", "table": new})  # not hers to decline
    assert (await eve.receive_until("error"))["code"] == "no_offer"
    assert new in host.tables
    await ann.send({"type": "decline", "table": new})
    assert (await ann.receive_until("declined"))["table"] == new
    closed = await bob.receive_until("closed", table=new)
    assert "Ann declined" in closed["message"]
    assert new not in host.tables and not host.store.path(new).exists()


async def test_asking_twice_makes_one_table_and_both_asking_meet_at_it(host, connect):
    ann, bob, table, _state = await resigned_game(host, connect)
    before = set(host.tables)
    await ann.send({"type": "rematch", "table": table})
    new = (await ann.receive_until("joined"))["table"]
    await ann.receive_until("rematch_offered")
    await ann.send({"type": "rematch", "table": table})  # again: the offer stands
    again = await ann.receive_until("rematch_offered")
    assert again["new"] == new
    await bob.send({"type": "rematch", "table": table})  # Bob asks too: he joins it
    assert (await bob.receive_until("joined"))["table"] == new
    await state_where(ann, new, seated)
    await ann.send({"type": "rematch", "table": table})  # once more: back to that game
    assert (await ann.receive_until("joined"))["table"] == new
    assert set(host.tables) - before == {new}


async def test_no_rematch_with_a_player_who_left_nor_before_the_end(host, connect):
    ann, bob, table = await start_friend_game(connect)
    await ann.send({"type": "rematch", "table": table})
    assert (await ann.receive_until("error"))["code"] == "not_over"
    eve = await connect("Eve")
    await eve.send({"type": "rematch", "table": table})
    assert (await eve.receive_until("error"))["code"] == "not_seated"
    await bob.send({"type": "resign", "table": table})
    await state_where(ann, table, over)
    await bob.close()  # Bob left the host
    before = set(host.tables)
    await ann.send({"type": "rematch", "table": table})
    gone = await ann.receive_until("error")
    assert gone["code"] == "not_here" and "Bob" in gone["message"]
    assert set(host.tables) == before


async def test_a_rematch_against_a_bot_starts_at_once(host, connect):
    ann = await connect("Ann")
    await ann.send({"type": "create", "opponent": "random", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    await ann.send({"type": "resign", "table": table})
    await state_where(ann, table, over)
    await ann.send({"type": "rematch", "table": table})
    joined = await ann.receive_until("joined")
    state = await state_where(ann, joined["table"], seated)
    assert joined["seat"] == 1 and state["seats"][0]["bot"] == "random"


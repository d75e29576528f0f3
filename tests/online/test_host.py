"""The game host with real clients over a Unix socket."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable

from solstis_tui.client.client import HostClient
from solstis_tui.core import Game, determinize
from solstis_tui.core.observation_json import observation_from_dict
from solstis_tui.host.host import Host

from .conftest import quick_bot
from .states import after, moves, next_turn, seated, state_where, your_turn


async def start_friend_game(connect, variant: str = "base"):
    ann = await connect("Ann")
    await ann.send({"type": "create", "variant": variant, "opponent": "friend", "seat": 0})
    joined = await ann.receive_until("joined")
    table = joined["table"]
    bob = await connect("Bob")
    await bob.send({"type": "join", "table": table})
    assert (await bob.receive_until("joined"))["seat"] == 1
    return ann, bob, table


async def play_to_end(host: Host, players: dict[int, HostClient], table: str,
                      rand: random.Random, max_moves: int = 400, stop_after: int | None = None,
                      until: Callable[[dict], bool] | None = None):
    """Both seats play random legal moves from what the host sends them (``stop_after``
    moves at most; with ``until``, until it holds for the state seat 0 received); each
    waits for the state that shows the move just made."""
    made = len(host.tables[table].game.history)  # the test made no move it waits for
    states = {seat: await state_where(c, table, lambda s: seated(s) and moves(s) >= made)
              for seat, c in players.items()}
    count = 0
    while True:
        obs = states[0]["observation"]
        if obs["is_over"] or (stop_after is not None and count >= stop_after) or (
                until is not None and until(states[0])):
            return states
        seat = obs["to_play"]
        mine = states[seat]["observation"]
        assert mine["legal_moves"], "the player to move got no legal moves"
        other = states[1 - seat]["observation"]
        assert other["legal_moves"] == [], "the waiting player was offered moves"
        seq = len(mine["history"])
        await players[seat].send({"type": "move", "table": table,
                                  "move": rand.choice(mine["legal_moves"]), "seq": seq})
        states = {s: await state_where(c, table, after(seq)) for s, c in players.items()}
        for s, state in states.items():
            check_fair(host, table, s, state)
        count += 1
        assert count < max_moves


def game_at(host: Host, table: str) -> Game:
    """The game at ``table`` as the host holds it now (each stored change puts a new
    Table, with a new Game, in the old one's place)."""
    return host.tables[table].game


def check_fair(host: Host, table: str, seat: int, state: dict) -> None:
    """What a seat receives is exactly its own observation: never the other hand."""
    game = host.tables[table].game
    obs = observation_from_dict(state["observation"])
    if obs.history == tuple(game.history):
        assert obs == game.observation(seat)
    other_hand = set(game.hands[1 - seat]) - set(obs.opponent_known)
    assert not other_hand & set(obs.hand)
    text = json.dumps(state)
    assert "land_pile\": [" not in text and "spirit_pile\": [" not in text


async def test_two_clients_play_a_whole_game(host, connect):
    ann, bob, table = await start_friend_game(connect)
    states = await play_to_end(host, {0: ann, 1: bob}, table, random.Random(1))
    final = states[0]["observation"]
    assert final["is_over"] and final["end_reason"] == "normal"
    assert states[0]["scores"] == states[1]["scores"]
    assert host.store.path(table).exists()


async def test_a_firefly_game_plays_to_the_end(host, connect):
    ann, bob, table = await start_friend_game(connect, "firefly")
    states = await play_to_end(host, {0: ann, 1: bob}, table, random.Random(4))
    assert states[1]["observation"]["is_over"]


async def test_out_of_turn_illegal_and_foreign_moves_change_nothing(host, connect):
    ann, bob, table = await start_friend_game(connect)
    await state_where(bob, table, seated)
    before = host.tables[table].game.to_json()
    await bob.send({"type": "move", "table": table, "move": "pass", "id": 1})
    assert (await bob.receive_until("error"))["code"] == "not_your_turn"
    await ann.send({"type": "move", "table": table, "move": "capture 1-1", "id": 2})
    error = await ann.receive_until("error")
    assert error["code"] == "illegal" and "cannot capture now" in error["message"]
    assert error["id"] == 2
    eve = await connect("Eve")
    await eve.send({"type": "move", "table": table, "move": "play 1-1"})
    assert (await eve.receive_until("error"))["code"] == "not_seated"
    await ann.send({"type": "move", "table": table, "move": "play 1-1", "seq": 99})
    assert (await ann.receive_until("error"))["code"] in ("stale", "illegal")
    assert host.tables[table].game.to_json() == before


async def test_a_dropped_player_gets_their_seat_back(host, connect):
    ann, bob, table = await start_friend_game(connect)
    await play_to_end(host, {0: ann, 1: bob}, table, random.Random(2), stop_after=6)
    code = ann.code
    position = host.tables[table].game.to_json()
    ann.writer.close()
    waiting = await state_where(bob, table, lambda s: not s["seats"][0]["connected"])
    assert waiting["seats"][0] == {"name": "Ann", "bot": None, "connected": False,
                                   "in_lobby": False, "rating": None}
    again = await connect(None, code=code)
    assert again.name == "Ann"
    back = await state_where(again, table, seated)
    assert back["seat"] == 0
    assert host.tables[table].game.to_json() == position
    await state_where(bob, table, lambda s: s["seats"][0]["connected"])  # Bob is told


async def test_the_other_player_hears_lobby_then_lost_connection(host, connect):
    """Ann goes back to the lobby: Bob is told she is in the lobby; her connection then
    drops: Bob is told she lost it."""
    ann, bob, table = await start_friend_game(connect)
    await ann.send({"type": "leave", "table": table})
    await ann.receive_until("left")
    seat = (await state_where(bob, table, lambda s: s["seats"][0]["in_lobby"]))["seats"][0]
    assert (seat["connected"], seat["in_lobby"]) == (False, True)
    ann.writer.close()
    seat = (await state_where(bob, table,
                              lambda s: not s["seats"][0]["in_lobby"]))["seats"][0]
    assert (seat["connected"], seat["in_lobby"]) == (False, False)


async def test_a_restarted_host_loses_nothing(host, connect, tmp_path):
    ann, bob, table = await start_friend_game(connect)
    await play_to_end(host, {0: ann, 1: bob}, table, random.Random(3), stop_after=5)
    position = host.tables[table].game.to_json()
    await host.close()
    again = Host(tmp_path / "data", bot_factory=quick_bot)
    again.load()
    assert again.tables[table].game.to_json() == position
    assert again.players[ann.code] == "Ann"


async def test_a_bot_seat_plays_its_own_turns(host, connect):
    ann = await connect("Ann")
    await ann.send({"type": "create", "variant": "beginner", "opponent": "greedy", "seat": 1})
    table = (await ann.receive_until("joined"))["table"]
    rand = random.Random(5)
    state = await your_turn(ann, table)
    for _ in range(400):  # Ann answers each of her decisions; the bot's turns pass by
        obs = state["observation"]
        if obs["is_over"]:
            break
        assert obs["to_play"] == 1
        await ann.send({"type": "move", "table": table, "seq": len(obs["history"]),
                        "move": rand.choice(obs["legal_moves"])})
        state = await state_where(ann, table, next_turn(len(obs["history"])))
    assert host.tables[table].game.is_over
    assert state["seats"][0]["bot"] == "greedy"


async def test_a_watcher_sees_no_hand(host, connect):
    _ann, _bob, table = await start_friend_game(connect)
    eve = await connect("Eve")
    await eve.send({"type": "watch", "table": table})
    state = await state_where(eve, table, seated)
    obs = observation_from_dict(state["observation"])
    assert state["seat"] is None and obs.spectator
    assert obs.hand == () and obs.legal_moves == () and obs.hand_counts == (3, 3)


async def test_lobby_lists_tables_and_expires_idle_ones(host, connect):
    ann, bob, table = await start_friend_game(connect)
    eve = await connect("Eve")  # she watches, and so sees both players go
    await eve.send({"type": "watch", "table": table})
    await state_where(eve, table, seated)
    await ann.send({"type": "list", "id": "x"})
    listing = await ann.receive_until("tables")
    assert listing["id"] == "x"
    row = next(r for r in listing["tables"] if r["table"] == table)
    assert row["status"] == "playing" and [s["name"] for s in row["seats"]] == ["Ann", "Bob"]
    assert "code" not in json.dumps(listing)
    assert host.housekeeping.expire(now=1e12) == []  # both players are connected
    ann.writer.close()
    bob.writer.close()
    await state_where(eve, table, lambda s: not any(p["connected"] for p in s["seats"]))
    assert host.housekeeping.expire(now=1e12) == [table]
    assert not host.store.path(table).exists()


async def test_twenty_clients_at_once(host, connect):
    async def pair(i: int) -> None:
        a = await connect(f"A{i}")
        await a.send({"type": "create", "opponent": "friend", "seat": 0})
        table = (await a.receive_until("joined"))["table"]
        b = await connect(f"B{i}")
        await b.send({"type": "join", "table": table})
        await b.receive_until("joined")
        await play_to_end(host, {0: a, 1: b}, table, random.Random(i), stop_after=8)

    await asyncio.gather(*(pair(i) for i in range(10)))
    assert len(host.tables) == 10
    assert all(len(t.game.history) >= 8 for t in host.tables.values())


async def test_observation_from_the_host_rebuilds_a_consistent_game(host, connect):
    ann, _bob, table = await start_friend_game(connect)
    state = await state_where(ann, table, seated)
    obs = observation_from_dict(state["observation"])
    game = determinize(obs, random.Random(0))
    assert game.observation(0) == obs

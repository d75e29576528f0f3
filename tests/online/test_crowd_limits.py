"""Limits that keep a crowd of hostile connections cheap for the host: what one connection
may watch, what a watcher leaving costs, how many finished tables stay, odd `list` and
chat requests. (The attacks came from a raw-socket client run against a real host.)"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable

import pytest

from solstis_tui.client.client import HostClient, HostError
from solstis_tui.core import Game, Options
from solstis_tui.host.connection import Connection
from solstis_tui.host.host import Host
from solstis_tui.host.tables import Seat, new_table

from .states import moves, next_turn, over, state_where, your_turn
from .test_host import start_friend_game
from .test_limits import named, running, until

START = time.time()


async def reply(client: HostClient, message: dict, kind: str = "") -> dict:
    """The host's answer to ``message``: the reply carrying its id, or the first message
    of type ``kind`` (a ``watching`` carries none)."""
    await client.send({**message, "id": 7})
    while True:
        said = await asyncio.wait_for(client.receive(), 5)
        if said.get("id") == 7 or said.get("type") == kind:
            return said


async def watch(client: HostClient, table: str) -> dict:
    return await reply(client, {"type": "watch", "table": table}, "watching")


async def test_a_list_offset_past_any_lobby_is_refused_and_the_host_carries_on(connect, host):
    eve = await connect("Eve")
    said = await reply(eve, {"type": "list", "offset": 10**29})
    assert said["code"] == "bad_message" and "offset" in said["message"]
    assert (await reply(eve, {"type": "list", "offset": 0}))["type"] == "tables"


async def test_one_connection_watches_a_few_tables_at_most(connect, host):
    ann = await connect("Ann")
    tables = []
    for _ in range(5):
        table = new_table(Options(), [Seat("Zed", f"z{len(tables)}"), Seat()])
        host.tables[table.id] = table
        tables.append(table.id)
    for table_id in tables[:4]:
        assert (await watch(ann, table_id))["type"] == "watching"
    said = await watch(ann, tables[4])
    assert said["code"] == "too_many" and "leave one first" in said["message"]
    assert (await reply(ann, {"type": "leave", "table": tables[0]}))["type"] == "left"
    assert (await watch(ann, tables[4]))["type"] == "watching"


async def both_ends(host: Host,
                    connecting: Awaitable[HostClient]) -> tuple[HostClient, Connection]:
    """The client that ``connecting`` connects, and the host's side of its connection."""
    before = set(host.conns)
    client = await connecting
    (there,) = set(host.conns) - before
    return client, there


async def nothing_comes_once_gone(client: HostClient, host: Host, gone: Connection) -> None:
    """Once the host has let ``gone`` go (and told whoever it had to), nothing has come
    to ``client``: its ping's pong comes first."""
    await until(lambda: gone not in host.conns)
    await client.send({"type": "ping"})
    assert (await asyncio.wait_for(client.receive(), 5))["type"] == "pong"


async def test_a_watcher_or_a_second_window_hanging_up_costs_the_players_nothing(
        connect, host):
    ann, bob, table = await start_friend_game(connect)
    eve, eve_there = await both_ends(host, connect("Eve"))
    assert (await watch(eve, table))["type"] == "watching"
    # Bob's second window sits at the table too (Ann is told before it is welcomed)
    bobs_window, window_there = await both_ends(host, connect(code=bob.code))
    assert (await reply(ann, {"type": "ping"}))["type"] == "pong"  # what came so far is read
    eve.writer.close()
    await nothing_comes_once_gone(ann, host, eve_there)
    bobs_window.writer.close()
    await nothing_comes_once_gone(ann, host, window_there)
    bob.writer.close()  # a player leaving is shown to the other
    state = await asyncio.wait_for(ann.receive_until("state", table=table), 5)
    assert [seat["connected"] for seat in state["seats"]] == [True, False]


def finished_table(names: list[str], codes: list[str], when: float):
    """A table whose game is over, last changed ``when`` seconds after the test began
    (recent, so only the caps on finished tables can close it)."""
    game = Game.new(seed=abs(int(when)))
    rand = random.Random(when)
    while not game.is_over:
        game.play(rand.choice(game.legal_moves()))
    table = new_table(Options(), [Seat(n, c) for n, c in zip(names, codes, strict=True)])
    table.game, table.last_active = game, START + when
    table.recorded = True  # its result is stored (one that is not keeps its table)
    return table


async def test_only_each_players_latest_finished_tables_stay(tmp_path):
    async with running(tmp_path, finished_tables_per_player=2, max_finished_tables=3) as host:
        made = [finished_table(["Mal", "Kit"], ["mal", f"k{i}"], 1000 + i) for i in range(4)]
        made.append(finished_table(["Ann", "Bob"], ["ann", "bob"], 1000))
        made.append(finished_table(["Cy", "Di"], ["cy", "di"], 999))
        for table in made:
            host.tables[table.id] = table
        gone = host.housekeeping.expire()
        kept = set(host.tables)
        # Mal's two latest stay; then Ann and Bob's; Cy and Di's is past the host's three
        assert kept == {made[3].id, made[2].id, made[4].id}
        assert set(gone) == {made[0].id, made[1].id, made[5].id}
        assert not any((tmp_path / "data" / "tables" / f"{t}.json").exists() for t in gone)


async def test_a_game_ending_makes_an_older_finished_table_go(tmp_path):
    async with running(tmp_path, finished_tables_per_player=1) as host:
        ann = await HostClient.connect(host.socket_path)
        await ann.hello("Ann")
        code = next(c.code for c in host.conns if c.name == "Ann")
        old = finished_table(["Ann", "Bob"], [code, "bob"], -100)
        host.tables[old.id] = old
        await ann.send({"type": "create", "opponent": "random", "seat": 0})
        table = (await ann.receive_until("joined"))["table"]
        rand = random.Random(1)
        state = await your_turn(ann, table)
        while not over(state):  # the bot's moves pass by
            made = moves(state)
            await ann.send({"type": "move", "table": table, "seq": made,
                            "move": rand.choice(state["observation"]["legal_moves"])})
            state = await state_where(ann, table, next_turn(made))
        # she is told the game is over once the host has closed what it closes for it
        assert old.id not in host.tables and table in host.tables
        ann.writer.close()


async def test_chat_of_stacked_accents_or_only_spaces_is_refused(connect, host):
    ann, _bob, table = await start_friend_game(connect)
    said = await reply(ann, {"type": "chat", "table": table, "text": "a" + "\u0301" * 40})
    assert said["code"] == "bad_message" and "accents" in said["message"]
    said = await reply(ann, {"type": "chat", "table": table, "text": "    "})
    assert said["code"] == "bad_message" and "only spaces" in said["message"]


async def test_a_bug_costs_one_reply_is_logged_and_the_record_stays_small(
        tmp_path, monkeypatch, caplog):
    async with running(tmp_path, message_rate=1000, message_burst=1000) as host:
        async def broken(conn, msg):
            raise RuntimeError("a bug")

        ann = await HostClient.connect(host.socket_path)
        monkeypatch.setattr(host, "_dispatch", broken)
        with caplog.at_level(logging.ERROR, logger="solstis.host"):
            for _ in range(130):
                await ann.send({"type": "ping"})
                assert (await ann.receive_until("error"))["code"] == "internal"
        assert len(host.internal_errors) == 100
        assert sum("internal error on a 'ping' message" in r.message
                   for r in caplog.records) == 130
        host.internal_errors.clear()  # the test's own bug, not the host's
        ann.writer.close()


async def closed_with(client: HostClient) -> dict:
    """The last message before the host closed ``client``'s connection."""
    last: dict = {}
    with contextlib.suppress(HostError):
        while True:
            last = await asyncio.wait_for(client.receive(), 5)
    return last


async def test_a_player_coming_back_to_a_game_gets_in_when_strangers_fill_the_host(tmp_path):
    async with running(tmp_path, max_connections=6) as host:
        ghost = await named(host, "Ghost")  # has a name here but no game
        ghost.writer.close()
        ann, bob = await named(host, "Ann"), await named(host, "Bob")
        await ann.send({"type": "create", "opponent": "friend", "seat": 0})
        table = (await ann.receive_until("joined"))["table"]
        await bob.send({"type": "join", "table": table})
        await bob.receive_until("joined")
        ann.writer.close()  # Ann steps away; strangers with no game fill the host
        await until(lambda: len(host.conns) == 1)
        strangers = [await named(host, f"Stranger {i}") for i in range(3)]
        first = await named(host, "Sly")
        second = await HostClient.connect(host.socket_path)
        await second.hello(code=first.code)  # Sly's second window
        assert (await reply(first, {"type": "ping"}))["type"] == "pong"
        players = len(host.players)
        for name, code in (("Newcomer", None), (None, ghost.code)):
            refused = await HostClient.connect(host.socket_path)
            with pytest.raises(HostError, match="the host is full"):
                await refused.hello(name, code)
        assert len(host.players) == players  # the refused newcomer's name was not taken
        back = await HostClient.connect(host.socket_path)
        await back.hello(code=ann.code)  # Ann comes back: Sly's quieter window makes room
        said = await closed_with(second)
        assert said["code"] == "busy" and "coming back to a game" in said["message"]
        state = await back.receive_until("state", table=table)
        assert state["seat"] == 0 and [s["connected"] for s in state["seats"]] == [True, True]
        for client in (bob, first, *strangers, back):
            assert (await reply(client, {"type": "ping"}))["type"] == "pong"
            client.writer.close()


async def test_when_everyone_connected_is_in_a_game_a_returning_player_waits(tmp_path):
    async with running(tmp_path, max_connections=3) as host:
        ann, bob, cy = await named(host, "Ann"), await named(host, "Bob"), await named(host, "Cy")
        await ann.send({"type": "create", "opponent": "friend", "seat": 0})
        table = (await ann.receive_until("joined"))["table"]
        await bob.send({"type": "join", "table": table})
        await bob.receive_until("joined")
        await cy.send({"type": "create", "opponent": "random", "seat": 0})
        await cy.receive_until("joined")
        ann.writer.close()
        await until(lambda: len(host.conns) == 2)
        eve = await named(host, "Eve")
        await eve.send({"type": "create", "opponent": "random", "seat": 0})
        await eve.receive_until("joined")
        back = await HostClient.connect(host.socket_path)
        with pytest.raises(HostError, match="the host is full"):
            await back.hello(code=ann.code)
        for client in (bob, cy, eve):  # nobody in a game lost their place
            assert (await reply(client, {"type": "ping"}))["type"] == "pong"
            client.writer.close()

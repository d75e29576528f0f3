"""The lobby moves by itself: a table created, joined or finished reaches every client
looking at the lobby without a refresh; a client at a table gets no lobby; a page that
did not change is not sent again."""

from __future__ import annotations

import pytest

from solstis_tui.client.client import HostClient

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


async def pushed_page_with(client: HostClient, table: str) -> dict:
    """The next lobby page pushed to ``client`` that lists ``table``."""
    while True:
        page = await client.receive_until("tables")
        if page.get("push") and any(row["table"] == table for row in page["tables"]):
            return page


async def test_a_new_table_reaches_an_open_lobby_without_a_refresh(host, connect):
    ann = await connect("Ann")
    bob = await connect("Bob")  # in the lobby: he asks for nothing more
    await ann.send({"type": "create", "opponent": "friend", "seat": 0, "days": 2})
    table = (await ann.receive_until("joined"))["table"]
    page = await pushed_page_with(bob, table)
    row = next(r for r in page["tables"] if r["table"] == table)
    assert (row["status"], row["days"], row["seats"][0]["name"]) == ("open", 2, "Ann")


async def test_a_client_at_a_table_is_not_sent_the_lobby_until_it_comes_back(host, connect):
    bob, ann = await connect("Bob"), await connect("Ann")
    await bob.send({"type": "create", "opponent": "friend", "seat": 0})
    bobs = (await bob.receive_until("joined"))["table"]
    (bobs_conn,) = [c for c in host.conns if c.name == "Bob"]
    assert bobs_conn.lobby_offset is None  # at his table: the lobby is not his to see
    await bob.send({"type": "leave", "table": bobs})
    await bob.receive_until("left")
    await bob.send({"type": "list", "id": 7})  # back in the lobby, as the client asks
    await bob.receive_until("tables", id=7)
    await ann.send({"type": "create", "opponent": "friend", "seat": 0})
    anns = (await ann.receive_until("joined"))["table"]
    await pushed_page_with(bob, anns)


async def test_a_new_table_is_pushed_within_a_second_and_a_move_within_five(host, connect):
    """A table that comes, goes or changes status changes the lobby's order: its round
    may come a second after the last; a move's, five seconds after (see lobby_push)."""
    from solstis_tui.host.lobby_push import MOVE_INTERVAL, PUSH_INTERVAL

    told: list[bool] = []
    host.keeper.lobby_moved = told.append
    ann, bob = await connect("Ann"), await connect("Bob")
    await ann.send({"type": "create", "opponent": "friend", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    assert told == [True]  # a table came
    await bob.send({"type": "join", "table": table})
    await bob.receive_until("joined")
    assert told == [True, True]  # it is played now: its status changed
    game = host.tables[table].game
    await ann.send({"type": "move", "table": table, "move": str(game.legal_moves()[0])})
    await ann.receive_until("state", table=table)
    while len(host.tables[table].game.history) == len(game.history):
        await ann.receive_until("state", table=table)
    assert told[2:] and not any(told[2:])  # a move: the order stands
    push = host.lobby_push
    push.last_round = 100.0
    push.changed()
    assert push._due() == 100.0 + MOVE_INTERVAL
    push.changed(order=True)
    assert push._due() == 100.0 + PUSH_INTERVAL


def test_an_unchanged_page_is_not_pushed_again(host):
    class Sink:
        closed, code, lobby_offset, lobby_sent, probe = False, "c1", 0, b"", False
        watching: set[str] = set()
        seated: set[str] = set()

        def __init__(self) -> None:
            self.lines: list[bytes] = []

        def push_line(self, line: bytes) -> None:
            self.lines.append(line)

    sink = Sink()
    host.conns.add(sink)
    try:
        assert host.lobby_push.push_round() == 1
        assert host.lobby_push.push_round() == 0  # nothing changed: nothing sent
        sink.lobby_offset = None  # at a table
        host.lobby_push.changed()
        assert host.lobby_push.push_round() == 0 and len(sink.lines) == 1
    finally:
        host.conns.discard(sink)


async def test_a_tables_news_goes_to_its_own_people_and_the_gone_are_forgotten(host, connect):
    """Who is at each table is kept as connections move (``Whereabouts``), so a move is
    told to the table's players and watchers without visiting every connection."""
    import asyncio

    ann, bob, eve, idle = [await connect(n) for n in ("Ann", "Bob", "Eve", "Ida")]
    await ann.send({"type": "create", "opponent": "friend", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    await bob.send({"type": "join", "table": table})
    await bob.receive_until("joined")
    await eve.send({"type": "watch", "table": table})
    await eve.receive_until("watching")
    names = {c.name for c in host.where.audience(table)}
    assert names == {"Ann", "Bob", "Eve"}  # Ida, in the lobby, is not among them
    await eve.send({"type": "leave", "table": table})
    await eve.receive_until("left")
    assert {c.name for c in host.where.audience(table)} == {"Ann", "Bob"}
    for client in (ann, bob, eve, idle):
        await client.close()
    async with asyncio.timeout(30):
        while host.conns or host.crowd.closing:  # until every connection hung up
            await asyncio.sleep(0.01)
    assert host.where.at_table == {} and host.where.by_code == {}


async def test_a_watcher_of_a_table_that_closed_may_watch_four_others(host, connect):
    ann, eve = await connect("Ann"), await connect("Eve")
    for _ in range(2):  # two open tables Eve watches close as their maker leaves
        await ann.send({"type": "create", "opponent": "friend", "seat": 0})
        table = (await ann.receive_until("joined"))["table"]
        await eve.send({"type": "watch", "table": table})
        await eve.receive_until("watching")
        await ann.send({"type": "leave", "table": table, "for_good": True})
        await eve.receive_until("closed", table=table)
    assert host.where.at_table == {}  # nobody is at a table that is gone
    tables = []
    for name in ("Bob", "Cy"):
        maker = await connect(name)
        for _ in range(2):
            await maker.send({"type": "create", "opponent": "friend", "seat": 0})
            tables.append((await maker.receive_until("joined"))["table"])
    for table in tables:  # four, the most a connection watches: none is refused
        await eve.send({"type": "watch", "table": table})
        assert (await eve.receive_until("watching"))["table"] == table

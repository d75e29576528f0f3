"""No finished game's result is lost: one that ``ratings.db`` refused (locked by another
program) stays with its table, which is not pruned, and reaches the database at a later
housekeeping round or the next start; and every game has its own id, so a new game at a
reused table id is recorded like any other."""

from __future__ import annotations

import dataclasses
import random
import secrets
import sqlite3
import time

import pytest

from solstis_tui.core import Options
from solstis_tui.host import tables
from solstis_tui.host.ratings import Ratings
from solstis_tui.host.standings import Standings
from solstis_tui.host.tables import Seat, Table, new_table

from .conftest import start_host
from .identities import ANN, BOB, close_all, seated_at_a_rated_table, settled
from .states import state_where
from .test_host import play_to_end
from .test_players import locked

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


def results(host) -> list[tuple[str, str]]:
    """The results of the games played (not those that settled Bob's rating before)."""
    with sqlite3.connect(host.ratings.path) as db:
        return db.execute("SELECT game, table_id FROM results WHERE game NOT LIKE "
                          "'settle-%'").fetchall()


def rated_games(host) -> list[tuple[str, int]]:
    """The people's counted games (Bob's first 14 settled his rating: see ``settled``)."""
    with sqlite3.connect(host.ratings.path) as db:
        return db.execute("SELECT identity, games FROM ratings WHERE identity NOT LIKE "
                          "'bot:%' ORDER BY identity").fetchall()


async def game_ended_while_locked(host) -> str:
    """A rated game between Ann and Bob that ends while another program holds
    ``ratings.db``'s write lock (the host waits 0.1 s for it, not 3); its table."""
    return (await players_ended_while_locked(host))[2]


async def players_ended_while_locked(host) -> tuple[dict, dict, str]:
    """``game_ended_while_locked``: Ann's and Bob's welcomes (they are still at the table,
    and read no rating change: none was stored) and the table."""
    host.ratings._conn.execute("PRAGMA busy_timeout = 100")
    settled(host, "key:Bob")  # a rated game with a newcomer counts (docs/ratings.md)
    ann, bob, table = await seated_at_a_rated_table(host, ANN, BOB)
    with locked(host.ratings.path):
        states = await play_to_end(host, {0: ann["client"], 1: bob["client"]}, table,
                                   random.Random(3))
        assert host.tables[table].game.is_over and results(host) == []
    assert all("change" not in seat for state in states.values() for seat in state["seats"])
    return ann, bob, table


def keep_no_finished_tables(host) -> None:
    host.housekeeping.limits = dataclasses.replace(
        host.housekeeping.limits, max_finished_tables=0, finished_tables_per_player=0)


async def test_a_result_the_locked_database_refused_is_kept_and_tried_again(keyed):
    table = await game_ended_while_locked(keyed)
    game = keyed.tables[table].game_id
    assert sum(table in e for e in keyed.storage_errors) == 1
    keep_no_finished_tables(keyed)
    later = time.time() + 48 * 3600
    with locked(keyed.ratings.path):  # still locked: tried, refused, kept
        await keyed.housekeeping.record_finished()
        assert keyed.housekeeping.expire(later) == [] and table in keyed.tables
    assert sum(table in e for e in keyed.storage_errors) == 1  # said once, not each round
    await keyed.housekeeping.record_finished()
    assert results(keyed) == [(game, table)]
    assert rated_games(keyed) == [("key:Ann", 1), ("key:Bob", 15)]  # ratings moved with it
    assert table in keyed.housekeeping.expire(later)  # recorded: it may go now


async def test_a_result_stored_at_a_later_try_reaches_the_players_and_the_lobby(keyed):
    """The players read what the game did to their ratings once it is stored, as they do
    when it is stored at once; the lobby shows the new ratings."""
    ann, bob, table = await players_ended_while_locked(keyed)
    await keyed.housekeeping.record_finished()  # the lock is gone: stored now
    assert results(keyed) == [(keyed.tables[table].game_id, table)]
    shown = [keyed.standings.rating_text(who) for who in ("key:Ann", "key:Bob")]
    for client in (ann["client"], bob["client"]):
        state = await state_where(client, table, lambda s: "change" in s["seats"][0])
        changes = [seat["change"] for seat in state["seats"]]
        assert [change.split(" → ")[1] for change in changes] == shown
    await ann["client"].send({"type": "list"})
    lobby = await ann["client"].receive_until("tables")
    assert lobby["rating"] == shown[0] != "1500?"
    row = next(r for r in lobby["tables"] if r["table"] == table)
    assert [seat["rating"] for seat in row["seats"]] == shown


async def test_a_refused_result_survives_pruning_and_a_restart(keyed, tmp_path):
    table = await game_ended_while_locked(keyed)
    game = keyed.tables[table].game_id
    keep_no_finished_tables(keyed)
    keyed.housekeeping.expire(time.time() + 48 * 3600)
    with locked(keyed.ratings.path):
        await close_all(keyed)  # stopped before any later try could store it
    again = await start_host(tmp_path / "data", tmp_path / "again.sock")
    try:
        assert results(again) == [(game, table)]
        assert again.tables[table].recorded
        assert rated_games(again) == [("key:Ann", 1), ("key:Bob", 15)]
    finally:
        await again.close()


def finished(table_id: str) -> Table:
    """A finished rated game made at a table the host numbered ``table_id``."""
    real = secrets.token_hex
    with pytest.MonkeyPatch.context() as patch:  # the 24-bit table id comes round again
        patch.setattr(tables.secrets, "token_hex",
                      lambda n: table_id[1:] if n == 3 else real(n))
        table = new_table(Options(), [Seat("Ann", "c1", identity="key:Ann"),
                                      Seat("Bob", "c2", identity="key:Bob")], rated=True)
    assert table.id == table_id
    rand = random.Random(3)
    while not table.game.is_over:
        table.game.play(rand.choice(table.game.legal_moves()))
    return table


async def test_a_new_game_at_a_reused_table_id_is_recorded(tmp_path):
    ratings = Ratings(tmp_path)
    ratings.open()
    standings = Standings(ratings, None, [])  # type: ignore[arg-type]
    try:
        first, second = finished("tabc123"), finished("tabc123")  # the id came round again
        assert await standings.record(first) and await standings.record(second)
        assert first.recorded and second.recorded
        with sqlite3.connect(ratings.path) as db:
            rows = db.execute("SELECT game, table_id FROM results ORDER BY finished").fetchall()
        assert sorted(rows) == sorted([(first.game_id, "tabc123"),
                                       (second.game_id, "tabc123")])
    finally:
        ratings.close()


def test_every_game_has_its_own_128_bit_id_that_its_file_keeps():
    ids = {new_table(Options(), [Seat(), Seat()]).game_id for _ in range(1000)}
    assert len(ids) == 1000
    assert all(len(i) == 33 and int(i[1:], 16) >= 0 for i in ids)
    table = finished("t000001")
    assert Table.from_dict(table.to_dict()).game_id == table.game_id
    older = {k: v for k, v in table.to_dict().items() if k != "game_id"}
    assert Table.from_dict(older).game_id == "t000001"  # its result was kept by table id


async def test_a_ratings_file_keyed_by_table_ids_keeps_its_results(tmp_path):
    """Version 2 kept results by table id: they stay, and a new game at one of those ids
    is recorded as its own."""
    with sqlite3.connect(tmp_path / "ratings.db") as db:
        db.executescript("""
CREATE TABLE ratings (identity TEXT PRIMARY KEY, rating REAL NOT NULL, rd REAL NOT NULL,
    vol REAL NOT NULL, games INTEGER NOT NULL DEFAULT 0, updated REAL NOT NULL);
CREATE TABLE results (table_id TEXT PRIMARY KEY, finished REAL NOT NULL,
    player0 TEXT NOT NULL, player1 TEXT NOT NULL, score0 REAL NOT NULL,
    counted INTEGER NOT NULL, before0 REAL, after0 REAL, before1 REAL, after1 REAL,
    rated INTEGER NOT NULL DEFAULT 1);
CREATE INDEX results_by_pair ON results (player0, player1, finished);
CREATE INDEX results_by_player1 ON results (player1, finished);
INSERT INTO results VALUES ('tabc123', 1000.0, 'key:Ann', 'key:Bob', 1.0, 1,
                            1500, 1662, 1500, 1338, 1);
PRAGMA user_version = 2;
""")
    ratings = Ratings(tmp_path)
    ratings.open()
    try:
        assert ratings.is_recorded("tabc123")
        assert await ratings.games_of("key:Ann") == [("key:Bob", 1.0, 1662)]
        standings = Standings(ratings, None, [])  # type: ignore[arg-type]
        again = finished("tabc123")
        assert await standings.record(again) and ratings.is_recorded(again.game_id)
        with sqlite3.connect(ratings.path) as db:
            assert db.execute("SELECT count(*) FROM results WHERE table_id = 'tabc123'"
                              ).fetchone() == (2,)
    finally:
        ratings.close()

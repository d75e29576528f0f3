"""The player registry: long resume codes that expire, kept safely on disk."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import sqlite3
import time
from pathlib import Path

import pytest

from solstis_tui.client.client import HostClient, HostError
from solstis_tui.core import Options
from solstis_tui.host import database, player_db
from solstis_tui.host.host import Host
from solstis_tui.host.hostlock import StartRefused
from solstis_tui.host.players import PlayerRegistry
from solstis_tui.host.tables import Seat, TableStore, new_table
from solstis_tui.wire.protocol import VERSION

from .conftest import quick_bot, start_host
from .identities import ANN, BOB, hello

DAY = 24 * 3600.0
pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


async def gone(host: Host, *clients: HostClient) -> None:
    """Close ``clients`` and wait until the host has noticed."""
    for client in clients:
        await client.close()
    async with asyncio.timeout(10):
        while host.conns:
            await asyncio.sleep(0.01)


async def hello_error(host: Host, **hello) -> dict:
    client = await HostClient.connect(host.socket_path)
    try:
        await client.send({"type": "hello", "version": VERSION, **hello})
        return await client.receive_until("error")
    finally:
        await client.close()


def later(host: Host, days: float) -> None:
    """Move the registry's clock ``days`` ahead."""
    start = time.time()
    host.players.clock = lambda: start + days * DAY


async def test_resume_codes_have_128_bits(connect):
    codes = {(await connect(f"P{i}")).code for i in range(5)}
    assert len(codes) == 5
    for code in codes:
        assert len(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))) >= 16


async def test_a_code_unused_for_thirty_days_stops_working(host, connect):
    ann = await connect("Ann")
    code = ann.code
    await ann.close()
    later(host, 29)
    again = await connect(None, code=code)  # 29 days: still hers, and the clock restarts
    await again.close()
    later(host, 29 + 31)
    assert (await hello_error(host, code=code))["code"] == "unknown_code"
    assert await host.housekeeping.prune_players(now=time.time() + 61 * DAY) == [code]
    assert code not in host.players


async def test_pruning_keeps_players_who_sit_at_a_table(host, connect):
    ann, bob = await connect("Ann"), await connect("Bob")
    await ann.send({"type": "create", "variant": "base", "opponent": "friend", "seat": 0})
    await ann.receive_until("joined")
    await gone(host, ann, bob)
    forgotten = await host.housekeeping.prune_players(now=time.time() + 40 * DAY)
    assert forgotten == [bob.code] and ann.code in host.players


async def test_names_of_forgotten_players_are_free_again(host, connect):
    await gone(host, await connect("Ann"))
    await host.housekeeping.prune_players(now=time.time() + 40 * DAY)
    assert (await connect("Ann")).name == "Ann"


async def test_an_old_short_code_is_exchanged_once_for_a_long_one(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "players.json").write_text(json.dumps({"0a1b2c3d": "Ann", "99aa88bb": "Bob"}))
    store = TableStore(data / "tables")
    store.directory.mkdir()
    table = new_table(Options(), [Seat("Ann", "0a1b2c3d"), Seat()])
    store.save(table)
    host = await start_host(data, tmp_path / "host.sock")
    try:
        client = await HostClient.connect(host.socket_path)
        welcome = await client.hello(code="0a1b2c3d")
        new = welcome["code"]
        assert new != "0a1b2c3d" and len(new) >= 22
        assert welcome["name"] == "Ann" and welcome["seated"] == [table.id]
        await client.close()
        assert (await hello_error(host, code="0a1b2c3d"))["code"] == "unknown_code"
        later(host, 8)  # a short code nobody used in a week is gone; the new one is not
        assert (await hello_error(host, code="99aa88bb"))["code"] == "unknown_code"
    finally:
        await host.close()
    again = await start_host(data, tmp_path / "again.sock")
    try:
        client = await HostClient.connect(again.socket_path)
        welcome = await client.hello(code=new)
        assert welcome["seated"] == [table.id] and welcome["code"] == new
        await client.close()
    finally:
        await again.close()


async def test_an_unreadable_players_file_is_kept_aside(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    broken = '{"0a1b2c3d": "Ann", '
    (data / "players.json").write_text(broken)
    host = Host(data, bot_factory=quick_bot)
    host.load()
    try:
        kept = list(data.glob("players.corrupt-*.json"))
        assert len(kept) == 1 and kept[0].read_text() == broken
        assert any("players.json could not be read" in p and kept[0].name in p
                   for p in host.problems)
        code = await host.players.register("Bob")
        assert host.players.lookup(code) == "Bob"
    finally:
        await host.close()
    assert kept[0].read_text() == broken


async def test_a_new_name_is_in_the_database_before_its_welcome(host, connect):
    names = [await connect(name) for name in ("Ann", "Bob", "Cid")]
    with contextlib.closing(sqlite3.connect(host.data_dir / "players.db")) as db:
        stored = dict(db.execute("SELECT code, name FROM players").fetchall())
    assert stored == {c.code: c.name for c in names}
    await host.close()
    again = Host(host.data_dir, bot_factory=quick_bot)
    again.load()
    assert [again.players.lookup(c.code) for c in names] == ["Ann", "Bob", "Cid"]
    await again.close()


async def test_many_names_share_one_transaction(tmp_path, monkeypatch):
    registry = PlayerRegistry(tmp_path)
    registry.load()
    writes = []
    real = player_db.put_all
    monkeypatch.setattr(player_db, "put_all", lambda *a: writes.append(a) or real(*a))
    codes = await asyncio.gather(*(registry.register(f"P{i}") for i in range(50)))
    await registry.close()
    assert len(set(codes)) == 50 and len(writes) <= 2


async def test_forgotten_players_leave_nothing_in_memory(tmp_path):
    """A host that runs for months forgets expired players entirely, not just their names."""
    (tmp_path / "players.json").write_text(json.dumps({"0a1b2c3d": "Old"}))
    now = [time.time()]
    registry = PlayerRegistry(tmp_path, clock=lambda: now[0])
    registry.load()
    new = await registry.exchange("0a1b2c3d")  # the short code is gone for good
    codes = [await registry.register(f"P{i}") for i in range(3)]
    registry.touch(codes[0])
    now[0] += 40 * DAY
    assert sorted(await registry.prune()) == sorted([new, *codes])
    await registry.close()
    assert len(registry) == 0 and registry._pending == registry._index == {}


@contextlib.contextmanager
def locked(database: Path):
    """Another program holds ``database``'s write lock (a real failure to write)."""
    other = sqlite3.connect(database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


async def test_a_refused_write_is_logged_for_the_operator(tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(database, "BUSY_SECONDS", 0.1)
    registry = PlayerRegistry(tmp_path)
    registry.load()
    with (locked(registry.path), caplog.at_level(logging.INFO, logger="solstis.host"),
          pytest.raises(OSError)):
        await registry.register("Ann")
    logged = [r.getMessage() for r in caplog.records if r.name == "solstis.host"]
    assert logged == registry.write_errors and len(logged) == 1
    assert logged[0].startswith(f"{registry.path} could not be written (database is locked)")
    assert logged[0].endswith(".")
    assert all(r.levelno == logging.ERROR for r in caplog.records if r.name == "solstis.host")
    assert not registry.name_taken("Ann")
    await registry.close()


async def test_a_name_the_disk_refuses_is_not_registered(tmp_path, monkeypatch):
    monkeypatch.setattr(database, "BUSY_SECONDS", 0.1)
    host = await start_host(tmp_path / "data", tmp_path / "host.sock")
    try:
        with locked(host.players.path):
            error = await hello_error(host, name="Ann")
        assert error["code"] == "storage" and "could not save your name" in error["message"]
        assert "Ann" not in host.players.values()
        client = await HostClient.connect(host.socket_path)
        assert (await client.hello("Ann"))["name"] == "Ann"  # the name was never taken
        await client.close()
    finally:
        await host.close()


def old_files(data: Path, journal: str) -> dict[str, str]:
    """An older host's players.json (v2) and players.journal; code -> name of both."""
    data.mkdir(parents=True, exist_ok=True)
    snapshot = {f"{'s' * 21}{i}": {"name": f"S{i}", "seen": time.time()} for i in range(3)}
    (data / "players.json").write_text(json.dumps({"version": 2, "players": snapshot}))
    (data / "players.journal").write_text(journal)
    return {code: p["name"] for code, p in snapshot.items()}


async def test_a_torn_last_line_is_dropped_and_bad_lines_are_kept_aside(tmp_path):
    line = json.dumps({"code": "j" * 22, "name": "Jo", "seen": time.time()}) + "\n"
    known = old_files(tmp_path / "torn", line + '{"code": "x", "na')  # a crash mid-append
    registry = PlayerRegistry(tmp_path / "torn")
    registry.load()
    assert dict(registry) == {**known, "j" * 22: "Jo"} and registry.problems == []
    await registry.close()
    old_files(tmp_path / "bad", line + "not json\n")
    third = PlayerRegistry(tmp_path / "bad")
    third.load()
    assert third.lookup("j" * 22) == "Jo"
    assert len(third.problems) == 1 and "kept as" in third.problems[0]
    assert list((tmp_path / "bad").glob("players.corrupt-*"))
    await third.close()


async def test_an_expired_code_cannot_resume(host, connect):
    ann = await connect("Ann")
    await ann.close()
    later(host, 31)
    client = await HostClient.connect(host.socket_path)
    try:
        try:
            await client.hello(code=ann.code)
        except HostError as exc:
            assert "not known" in str(exc)
        else:
            raise AssertionError("an expired code was accepted")
    finally:
        await client.close()


async def test_an_unreadable_players_database_is_kept_aside_and_the_host_refuses(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "players.db").write_bytes(b"not a database, but someone's players" * 100)
    with pytest.raises(StartRefused, match="is not a players database") as refused:
        await start_host(data, tmp_path / "h.sock")
    kept = [p.name for p in data.glob("players.corrupt-*")]
    assert len(kept) == 1 and kept[0] in str(refused.value)
    assert "everyone chooses a name again" in str(refused.value)


async def test_a_forgotten_guest_leaves_the_database_too(tmp_path):
    registry = PlayerRegistry(tmp_path)
    registry.load()
    guest = await registry.register("Gus (guest)", "guest")
    player = await registry.register("Ann", "key:Ann")
    assert await registry.prune(time.time() + 25 * 3600) == [guest]
    await registry.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "players.db")) as db:
        assert db.execute("SELECT code FROM players").fetchall() == [(player,)]
        assert db.execute("SELECT count(*) FROM names WHERE code = ?",
                          (guest,)).fetchone() == (0,)


async def test_a_hello_finds_players_by_index_never_by_reading_them_all(keyed):
    """At a host with millions of players a scan would stall every hello (see
    benchmarks/host_registry_scale.py): every statement of a new name's hello, a returning
    player's and a rename goes by index, on the loop's connection and the writer's."""
    await hello(keyed, BOB)
    statements: list[str] = []
    for conn in (keyed.players._db, keyed.players._out):
        conn.set_trace_callback(statements.append)
    await hello(keyed, ANN)
    ann = (await hello(keyed, ANN))["client"]  # she comes back, by her key
    await ann.send({"type": "rename", "name": "Anna"})
    await ann.receive_until("renamed")
    await keyed.players.close()
    assert len(statements) > 5
    with contextlib.closing(sqlite3.connect(keyed.players.path)) as db:
        for sql in statements:
            plan = " ".join(str(row[-1]) for row in db.execute("EXPLAIN QUERY PLAN " + sql))
            assert "SCAN" not in plan, (sql, plan)


async def test_names_stored_by_an_older_host_are_checked_against_new_look_alikes(tmp_path):
    """A players.db whose look-alike keys an older host worked out (without Cyrillic and
    Greek folding): at start each name's keys are worked out again, so "Апп" in
    Cyrillic cannot sit beside the "Ann" stored then."""
    registry = PlayerRegistry(tmp_path)
    registry.load()
    await registry.register("Ann", "key:Ann")
    await registry.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "players.db")) as db, db:
        db.execute("DELETE FROM meta WHERE key = 'clash_keys'")
        db.execute("UPDATE names SET key = 'l:as an older host had it' WHERE key LIKE 'l:%'")
    registry = PlayerRegistry(tmp_path)
    registry.load()
    try:
        assert registry.name_taken("\u0410\u043f\u043f")
        assert not registry.name_taken("Anna")
    finally:
        await registry.close()

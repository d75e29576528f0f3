"""A damaged players.db or ratings.db stops the host at start with a sentence that names the
file, and the file is kept aside: the host never starts on a guess or empty. Damaged: 0
bytes, a zeroed page, or a write-ahead log deleted after a kill -9 (acknowledged writes
missing, found by the count of writes kept in a second place)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from solstis_tui.host import database
from solstis_tui.host.host import Host
from solstis_tui.host.hostlock import StartRefused
from solstis_tui.host.players import PlayerRegistry

from .test_storage import solstis

ROOT = Path(__file__).resolve().parents[2]
FILES = ("players.db", "ratings.db")

FILL = """
import asyncio, sys
from pathlib import Path
from solstis_tui.host import database
from solstis_tui.host.host import Host
from solstis_tui.host.ratings import result_of

async def fill(data: Path, players: int, games: int) -> None:
    host = Host(data, bot_workers=1)
    host.load()
    for i in range(players):
        await host.players.register(f"Player{i}", f"key:p{i}")
    for i in range(games):
        await host.ratings.record(result_of(f"t{i:06x}", (f"key:p{i % players}",
                                  f"key:p{(i + 1) % players}"), i % 2))
    print("acknowledged", flush=True)
    if sys.argv[2] == "close":
        await host.close()
        return
    await asyncio.sleep(3600)  # killed here, with -9

asyncio.run(fill(Path(sys.argv[1]), 60, 60))
"""


def fill(data: Path, tmp_path: Path, then: str = "close") -> subprocess.Popen[str]:
    """A host process that stores 60 players and 60 rated results, then closes (or waits
    to be killed)."""
    script = tmp_path / "fill.py"
    script.write_text(FILL)
    proc = subprocess.Popen([sys.executable, str(script), str(data), then], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "acknowledged\n"
    if then == "close":
        assert proc.wait(timeout=60) == 0
    return proc


def refused(data: Path) -> str:
    host = Host(data, bot_workers=1)
    with pytest.raises(StartRefused) as refusal:
        host.load()
    asyncio.run(host.close())
    return str(refusal.value)


def kept_aside(data: Path, name: str) -> list[str]:
    stem = name.split(".")[0]
    return sorted(p.name for p in data.glob(f"{stem}.corrupt-*.db"))


@pytest.fixture(scope="module")
def filled(tmp_path_factory) -> Path:
    """A closed host's data folder with players and results (copied by each test)."""
    tmp = tmp_path_factory.mktemp("filled")
    fill(tmp / "data", tmp)
    return tmp / "data"


def copy_of(filled: Path, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    subprocess.run(["cp", "-a", str(filled), str(data)], check=True)
    return data


@pytest.mark.parametrize("name", FILES)
def test_an_empty_database_file_is_refused_and_kept_aside(filled, tmp_path, name):
    data = copy_of(filled, tmp_path)
    (data / name).write_bytes(b"")
    said = refused(data)
    assert said.startswith(f"{data / name} is not a ")
    assert "it is empty (0 bytes)" in said
    assert not (data / name).exists()
    assert len(kept := kept_aside(data, name)) == 1 and kept[0] in said


@pytest.mark.parametrize("name", FILES)
def test_a_database_with_a_zeroed_page_is_refused_and_kept_aside(filled, tmp_path, name):
    data = copy_of(filled, tmp_path)
    path = data / name
    size = path.stat().st_size
    assert size >= 4 * 4096  # the file has pages beyond the header's
    with path.open("r+b") as handle:
        handle.seek(2 * 4096)  # page 3: a table's or an index's
        handle.write(bytes(4096))
    said = refused(data)
    assert said.startswith(f"{path} is not a ") and "damaged" in said
    assert not path.exists()
    assert len(kept := kept_aside(data, name)) == 1 and kept[0] in said


def test_a_host_cut_off_while_it_makes_a_database_leaves_none_and_starts_next_time(
        tmp_path, monkeypatch):
    """The host makes a new database under another name and links it into place: cut off
    while making it (here: where SQLite writes the schema), it leaves no file at all, and
    what a process killed meanwhile left is cleared by the next start, whether or not the
    database was made since."""
    data = tmp_path / "data"
    data.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    orphan = data / f".players.db.new-{dead.pid}"
    orphan.write_bytes(b"")  # a kill -9 while making it, in an earlier host

    def cut_off(*_args):
        raise SystemExit("killed")

    with monkeypatch.context() as patch, pytest.raises(SystemExit):
        patch.setattr(database, "_connect", cut_off)
        PlayerRegistry(data).load()
    assert not (data / "players.db").exists()
    players = PlayerRegistry(data)
    players.load()  # not refused as an empty file where a database was

    async def register() -> None:
        await players.register("Ann", "key:a")
        await players.close()

    asyncio.run(register())
    assert (data / "players.db").stat().st_size > 0
    assert not orphan.exists() and not list(data.glob(".*.new-*"))
    orphan.write_bytes(b"")  # killed while making it, as another process made it first
    again = PlayerRegistry(data)
    again.load()
    asyncio.run(again.close())
    assert not orphan.exists()


def test_a_database_is_made_where_the_filesystem_has_no_hard_links(tmp_path, monkeypatch):
    def no_links(*_args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(database.os, "link", no_links)
    players = PlayerRegistry(tmp_path)
    players.load()
    asyncio.run(players.close())
    assert (tmp_path / "players.db").stat().st_size > 0
    assert not list(tmp_path.glob(".*.new-*"))


def test_solstis_host_names_a_damaged_ratings_file_without_a_traceback(filled, tmp_path):
    data = copy_of(filled, tmp_path)
    with (data / "ratings.db").open("r+b") as handle:
        handle.seek(2 * 4096)
        handle.write(bytes(4096))
    proc = solstis("host", "--data", str(data), "--socket", str(tmp_path / "run" / "h.sock"),
                   "--bot-workers", "1")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "listening" not in out
    assert f"solstis host: not started: {data / 'ratings.db'} is not a ratings database" \
        in err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", FILES)
def test_a_write_ahead_log_deleted_after_a_kill_is_found_and_refused(tmp_path, name):
    data = tmp_path / "data"
    proc = fill(data, tmp_path, then="wait")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    wal = data / f"{name}-wal"
    assert wal.stat().st_size > 0  # the latest acknowledged writes are only there
    wal.unlink()
    (data / f"{name}-shm").unlink(missing_ok=True)
    said = refused(data)
    assert said.startswith(f"{data / name} is not a ")
    assert f"write-ahead log {name}-wal was lost" in said
    assert len(kept := kept_aside(data, name)) == 1 and kept[0] in said


def test_a_host_killed_with_its_log_intact_starts_with_every_write(tmp_path):
    data = tmp_path / "data"
    proc = fill(data, tmp_path, then="wait")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    host = Host(data, bot_workers=1)
    host.load()
    assert len(host.players) == 60
    assert host.ratings.is_recorded("t00003b")
    asyncio.run(host.close())


def test_a_deleted_database_whose_writes_were_counted_is_refused(filled, tmp_path):
    data = copy_of(filled, tmp_path)
    (data / "players.db").unlink()
    said = refused(data)
    assert said.startswith(f"{data / 'players.db'} is not a players database")
    assert "it was missing, but players.db-writes says" in said
    assert not (data / "players.db-writes").exists()  # kept aside: the next start is new


def test_the_check_at_start_stops_at_its_time_bound(filled, tmp_path, monkeypatch):
    """A file too large to check in CHECK_SECONDS is checked that far: the host starts in
    bounded time (here a bound of 0 s stops the check before it reaches the damage)."""
    monkeypatch.setattr(database, "CHECK_STEPS", 10)  # the clock is read at once
    data = copy_of(filled, tmp_path)
    with (data / "players.db").open("r+b") as handle:
        handle.seek(2 * 4096)
        handle.write(bytes(4096))
    with contextlib.closing(sqlite3.connect(data / "players.db")) as conn:
        database.check(conn, seconds=0.0)
        with pytest.raises(sqlite3.DatabaseError, match="damaged"):
            database.check(conn)

"""An older host's players.json and players.journal are imported into players.db once, kept
as a backup, and a crash at any moment of it loses no player, doubles none and keeps no
host from starting (a database killed while it was being made is never left empty)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from solstis_tui.host import player_db
from solstis_tui.host.players import PlayerRegistry

from .test_storage import solstis, stop, wait_listening

SAFETY = 60.0  # seconds: a net for a broken build, never a measured time


def old_host(data: Path, players: int) -> dict[str, str]:
    """An older host's files: ``players`` in players.json, and a journal that renames the
    first, forgets the second and adds one; code -> name, as that host knew them."""
    data.mkdir(parents=True, exist_ok=True)
    now = time.time()
    snapshot = {f"{i:022d}": {"name": f"Player{i}", "seen": now, "identity": f"key:P{i}"}
                for i in range(players)}
    (data / "players.json").write_text(json.dumps({"version": 2, "players": snapshot}))
    journal = [{"code": f"{0:022d}", "name": "Renamed", "seen": now, "former": ["Player0"]},
               {"code": f"{1:022d}", "gone": True},
               {"code": "n" * 22, "name": "Newcomer", "seen": now}]
    (data / "players.journal").write_text("".join(json.dumps(e) + "\n" for e in journal))
    known = {code: p["name"] for code, p in snapshot.items()}
    known.update({f"{0:022d}": "Renamed", "n" * 22: "Newcomer"})
    del known[f"{1:022d}"]
    return known


def stored(data: Path) -> list[tuple[str, str]]:
    with contextlib.closing(sqlite3.connect(data / "players.db")) as db:
        return db.execute("SELECT code, name FROM players").fetchall()


def backups(data: Path) -> list[str]:
    return sorted(p.suffix for p in data.glob("players.migrated-*"))


async def test_the_old_files_are_imported_once_and_kept(tmp_path, caplog):
    known = old_host(tmp_path, 5)
    registry = PlayerRegistry(tmp_path)
    with caplog.at_level(logging.INFO, logger="solstis.host"):
        registry.load()
    assert dict(registry) == known
    assert registry.name_taken("player0")  # a former name is still hers
    assert not (tmp_path / "players.json").exists()
    assert backups(tmp_path) == [".journal", ".json"]
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "5 players were imported" in said and ".migrated-" in said
    await registry.register("Later")
    await registry.close()
    again = PlayerRegistry(tmp_path)
    again.load()  # the backups are not read again
    assert sorted(again.values()) == sorted([*known.values(), "Later"])
    assert backups(tmp_path) == [".journal", ".json"]
    await again.close()


@pytest.mark.parametrize("where", [(player_db, "put_all"), (os, "replace")],
                         ids=["while importing", "after importing"])
async def test_a_crash_during_the_import_loses_no_player_and_doubles_none(
        tmp_path, monkeypatch, where):
    known = old_host(tmp_path, 5)

    def crash(*_args):
        raise SystemExit("killed")

    with monkeypatch.context() as patch, pytest.raises(SystemExit):
        patch.setattr(*where, crash)
        PlayerRegistry(tmp_path).load()
    again = PlayerRegistry(tmp_path)
    again.load()
    assert sorted(stored(tmp_path)) == sorted(known.items())
    assert backups(tmp_path) == [".journal", ".json"]
    await again.close()


def killed_when(proc: subprocess.Popen, happened) -> str | None:
    """Kill -9 ``proc`` as soon as ``happened()`` is true; what it said on stderr if it
    had ended by itself before (a refusal to start), else None."""
    deadline = time.monotonic() + SAFETY
    while not happened() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)
    ended = proc.poll() is not None
    proc.kill()
    _out, err = proc.communicate(timeout=SAFETY)
    return err if ended else None


def test_kill_9_during_the_import_loses_no_player_and_doubles_none(tmp_path):
    data = tmp_path / "data"
    known = old_host(data, 20000)
    args = ("host", "--socket", str(tmp_path / "h.sock"), "--data", str(data),
            "--bot-workers", "1")
    moments = [  # start-up, the import under way, between its two renames, after it
        lambda: True,
        lambda: (data / "players.db").exists(),
        lambda: bool(backups(data)),
        lambda: (tmp_path / "h.sock").exists(),
    ]
    killed_before_done = 0
    for moment in moments:
        assert killed_when(solstis(*args), moment) is None  # each start got that far
        killed_before_done += (data / "players.json").exists()
    proc = solstis(*args)
    try:
        wait_listening(proc)
    finally:
        stop(proc)
    assert killed_before_done > 0  # some kill came before the import was over
    assert sorted(stored(data)) == sorted(known.items())
    assert backups(data) == [".journal", ".json"]
    assert not [p for p in os.listdir(data) if p in ("players.json", "players.journal")
                or p.startswith(".players.db.new-")]

"""The registry's files before ``players.db``: ``players.json`` (a snapshot, or the older
``{code: name}``) and ``players.journal`` (one JSON line per change). They are read once,
imported into ``players.db`` in one transaction, and kept as ``players.migrated-<time>.*``."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

from ..files import keep_aside
from . import player_db
from .player_db import Player

log = logging.getLogger("solstis.host")
MIGRATED = "migrated"  # the meta row saying when the old files were imported


def player_from(data: dict[str, Any]) -> Player:
    """A Player from its JSON form (ValueError if it is not one)."""
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ValueError(f"not a player: {data!r}")
    seat, identity, former = data.get("seat"), data.get("identity"), data.get("former")
    return Player(data["name"], float(data["seen"]),
                  seat if isinstance(seat, str) else None, bool(data.get("legacy")),
                  identity if isinstance(identity, str) else None,
                  tuple(n for n in former if isinstance(n, str))
                  if isinstance(former, list) else ())


def read_files(directory: Path, now: float, keep_aside_bad: bool,
               problems: list[str]) -> dict[str, Player]:
    """The players in ``directory``'s old files (codes of the oldest format get ``now`` as
    last seen). What cannot be read is said in ``problems`` and, if ``keep_aside_bad``,
    its file renamed aside (``*.corrupt-<time>``)."""
    path, journal = directory / "players.json", directory / "players.journal"
    players: dict[str, Player] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = None
    except OSError as exc:
        raise OSError(exc.errno, f"cannot read {path}: {exc.strerror}") from None
    if text is not None:
        try:
            players.update(_parse(json.loads(text), now))
        except (ValueError, TypeError, AttributeError) as exc:
            players.clear()
            if keep_aside_bad:
                kept = keep_aside(path)
                problems.append(f"{path} could not be read ({exc}); it was kept as "
                                f"{kept.name} and players listed only there must choose "
                                "a name again.")
            else:
                problems.append(f"{path} could not be read ({exc})")
    try:
        raw = journal.read_bytes()
    except FileNotFoundError:
        return players
    lines = raw.split(b"\n")
    lines.pop()  # an unterminated last line is a write that was never acknowledged
    bad = 0
    for line in lines:
        try:
            entry = json.loads(line)
            if entry.get("gone"):
                players.pop(entry["code"], None)
            else:
                players[entry["code"]] = player_from(entry)
        except (ValueError, TypeError, KeyError, AttributeError):
            bad += 1
    if bad and not keep_aside_bad:
        problems.append(f"{journal} has {bad} unreadable lines")
    elif bad:
        kept = keep_aside(journal)
        problems.append(f"{journal} had {bad} unreadable lines, which were skipped; the "
                        f"file was kept as {kept.name}.")
    return players


def _parse(data: object, now: float) -> dict[str, Player]:
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if "version" not in data:  # the old format, {code: name}: codes of 32 bits
        bad = [c for c, n in data.items() if not isinstance(n, str)]
        if bad:
            raise ValueError(f"bad entry for {bad[0]!r}")
        return {code: Player(name, now, legacy=True) for code, name in data.items()}
    players = data.get("players")
    if data["version"] != 2 or not isinstance(players, dict):
        raise ValueError(f"unknown players format {data['version']!r}")
    return {code: player_from(p) for code, p in players.items()}


def migrate(conn: sqlite3.Connection, directory: Path, now: float,
            problems: list[str]) -> None:
    """Import ``directory``'s old files into ``conn`` (once: a meta row says it was done,
    in the same transaction), then rename them ``players.migrated-<time>.*`` and log it.
    A crash at any point leaves the files to import again or the players in the database."""
    old = [directory / "players.json", directory / "players.journal"]
    if not any(path.exists() for path in old):
        return
    done = player_db.meta(conn, MIGRATED)
    count = None
    if done is None:
        players = read_files(directory, now, True, problems)
        player_db.put_all(conn, [player_db.change(code, p) for code, p in players.items()],
                          {MIGRATED: f"{now} {len(players)}"})
        count = len(players)
    kept = [keep_aside(path, "migrated").name for path in old if path.exists()]
    into = directory / "players.db"
    what = (f"{count} players were imported into {into}" if count is not None
            else f"the players had been imported into {into} already")
    log.info("%s%s.", what, f"; the old files are kept as {' and '.join(kept)}" if kept
             else "")

"""The player registry's file, ``players.db`` (SQLite, see database): one row a player and
one a name key, so that a hello reads a few rows by index and never the whole table.

Plain functions on a connection; the registry (players) decides on which thread they run.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..wire.names import lookalike_core, name_key
from .database import counted_transaction

SCHEMA_VERSION = 1
#: what a player's expiry depends on (the ``kind`` column)
PLAYER, GUEST, LEGACY = 0, 1, 2
SCHEMA = """
CREATE TABLE players (
    code TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    seen REAL NOT NULL,             -- last hello (written at most hourly)
    seat TEXT,                      -- the identity tables know them by (NULL: the code)
    identity TEXT,                  -- who the name belongs to (NULL: the host's account)
    former TEXT,                    -- earlier names, a JSON list, the latest first
    kind INTEGER NOT NULL           -- 0 a player, 1 a guest, 2 an old short code
) WITHOUT ROWID;
CREATE INDEX players_by_identity ON players (identity);
CREATE INDEX players_by_age ON players (kind, seen);
CREATE TABLE names (                -- the clash keys of every player's names
    key TEXT NOT NULL,
    code TEXT NOT NULL,
    PRIMARY KEY (key, code)
) WITHOUT ROWID;
CREATE INDEX names_by_code ON names (code);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def clash_keys(name: str) -> tuple[str, str]:
    """What no two players' names may share: the ``name_key`` and the look-alike core
    (kept apart by a prefix)."""
    return "n:" + name_key(name), "l:" + lookalike_core(name)


@dataclass
class Player:
    """One registered player: the name, when last seen, and the identity tables know them by
    (``seat``: None means the code itself); ``identity`` is who the name belongs to (see
    identity.Who; None: whoever holds the code, as before identities)."""

    name: str
    seen: float
    seat: str | None = None
    legacy: bool = False
    identity: str | None = None
    former: tuple[str, ...] = ()  # earlier names, the latest first: still this player's

    @property
    def names(self) -> tuple[str, ...]:
        """Every name that is this player's: the one shown and the former ones."""
        return (self.name, *self.former)

    @property
    def kind(self) -> int:
        """Which expiry applies: LEGACY, GUEST or PLAYER."""
        return LEGACY if self.legacy else GUEST if self.identity == "guest" else PLAYER

    def clash_keys(self) -> set[str]:
        """The clash keys of all of this player's names."""
        return {key for name in self.names for key in clash_keys(name)}


COLUMNS = "code, name, seen, seat, identity, former, kind"


def _player(row: tuple[str, str, float, str | None, str | None, str | None, int]) -> Player:
    _code, name, seen, seat, identity, former, kind = row
    return Player(name, seen, seat, kind == LEGACY, identity,
                  tuple(json.loads(former)) if former else ())


def get(conn: sqlite3.Connection, code: str) -> Player | None:
    rows = conn.execute(f"SELECT {COLUMNS} FROM players WHERE code = ?", (code,)).fetchall()
    return _player(rows[0]) if rows else None


def codes_with_key(conn: sqlite3.Connection, key: str) -> list[str]:
    return [row[0] for row in conn.execute("SELECT code FROM names WHERE key = ?", (key,))]


def codes_of(conn: sqlite3.Connection, identity: str) -> list[tuple[str, Player]]:
    """The players that belong to ``identity`` (usually one)."""
    return [(row[0], _player(row)) for row in conn.execute(
        f"SELECT {COLUMNS} FROM players WHERE identity = ?", (identity,))]


def of_identities(conn: sqlite3.Connection, identities: list[str]) -> list[tuple[str, Player]]:
    """The players that belong to any of ``identities`` (one query, by index)."""
    return [(row[0], _player(row)) for row in conn.execute(
        f"SELECT {COLUMNS} FROM players WHERE identity IN (SELECT value FROM json_each(?))",
        (json.dumps(identities),))]


def unseen(conn: sqlite3.Connection, kind: int, before: float, after: tuple[float, str],
           most: int) -> list[tuple[str, Player]]:
    """At most ``most`` players of ``kind`` last seen before ``before``, in (seen, code)
    order from just past ``after`` (by index)."""
    return [(row[0], _player(row)) for row in conn.execute(
        f"SELECT {COLUMNS} FROM players WHERE kind = ? AND seen < ? AND (seen, code) > (?, ?)"
        " ORDER BY seen, code LIMIT ?", (kind, before, *after, most))]


def forget(conn: sqlite3.Connection, codes: list[str]) -> None:
    """Forget the players ``codes`` (and their names) in one transaction."""
    put_all(conn, [Change(code, None) for code in codes])


def everyone(conn: sqlite3.Connection) -> dict[str, Player]:
    """Every player by code (a full scan: for the owner's listing, not for a hello)."""
    return {row[0]: _player(row) for row in conn.execute(f"SELECT {COLUMNS} FROM players")}


@dataclass(frozen=True)
class Change:
    """A change as written: ``code``'s players row (None: forget the code) and its name
    keys. Made on the event loop, so that the writer thread runs little Python (see
    players: a thread busy in Python keeps the loop waiting for the GIL)."""

    code: str
    row: tuple[str, str, float, str | None, str | None, str | None, int] | None
    keys: tuple[str, ...] = ()


def change(code: str, player: Player | None, keys: Iterable[str] | None = None) -> Change:
    """``code``'s player to be ``player`` (None: forgotten); ``keys`` their clash keys if
    already known."""
    if player is None:
        return Change(code, None)
    former = json.dumps(list(player.former)) if player.former else None
    return Change(code, (code, player.name, player.seen, player.seat, player.identity,
                         former, player.kind),
                  tuple(player.clash_keys() if keys is None else keys))


def put_all(conn: sqlite3.Connection, changes: Iterable[Change],
            meta: Mapping[str, str] | None = None) -> None:
    """Make ``changes`` (and store ``meta`` rows) in one transaction; sqlite3.Error, and
    nothing changed, if it fails."""
    changes = list(changes)
    with counted_transaction(conn):
        conn.executemany("DELETE FROM names WHERE code = ?", [(c.code,) for c in changes])
        conn.executemany("DELETE FROM players WHERE code = ?",
                         [(c.code,) for c in changes if c.row is None])
        conn.executemany(f"INSERT OR REPLACE INTO players ({COLUMNS}) VALUES "
                         "(?, ?, ?, ?, ?, ?, ?)", [c.row for c in changes if c.row])
        conn.executemany("INSERT OR IGNORE INTO names (key, code) VALUES (?, ?)",
                         [(key, c.code) for c in changes if c.row for key in c.keys])
        conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                         list((meta or {}).items()))


#: Which way the ``names`` rows were worked out (the ``meta`` row ``clash_keys``): when
#: ``clash_keys`` changes (2: Cyrillic and Greek look-alikes folded; spaces, punctuation
#: and accents left out; 3: Unicode's confusables.txt 17.0 read as published, the case
#: rule for Latin letters, Latin letters with hooks, strokes and tails as their letters),
#: every player's rows are worked out again once, at start-up (``rekey``).
CLASH_KEYS = "3"


def rekey(conn: sqlite3.Connection) -> int | None:
    """Work out every player's ``names`` rows again if they were written by an older
    ``clash_keys`` (one transaction); how many players that was, or None if none needed
    it."""
    if meta(conn, "clash_keys") == CLASH_KEYS:
        return None
    players = everyone(conn)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("DELETE FROM names")
        conn.executemany("INSERT OR IGNORE INTO names (key, code) VALUES (?, ?)",
                         [(key, code) for code, player in players.items()
                          for key in player.clash_keys()])
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('clash_keys', ?)",
                     (CLASH_KEYS,))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return len(players)


def meta(conn: sqlite3.Connection, key: str) -> str | None:
    rows = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchall()
    return str(rows[0][0]) if rows else None

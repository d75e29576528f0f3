"""The host's game records: every finished game's record (``solstis_tui.records``), kept in
``ratings.db`` beside its result and written in the same transaction, and who may read it.

A record is handed only to a reader of its game: a player of one of its seats or a person
who watched it while it was played, each known by a reader key (``reader_key``: their
rated identity, else a hash of their resume code, so no code is written here). The game's
id (128 random bits, ``Table.game_id``) names it; a game that is not over has no record
yet, so asking for one while it is played, for someone else's, or for an id nobody has
gets one and the same answer (``fetch`` returns None), which tells nobody a game exists.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..records import HUMAN, SeatRecord, dumps, record_of
from ..wire.messages import GAMES_PAGE
from .tables import Table

#: The tables of records and readers (``ratings.db`` version 4 added them).
SCHEMA = """
CREATE TABLE records (
    game TEXT PRIMARY KEY,           -- the game's id, as in results
    variant TEXT NOT NULL,
    name0 TEXT NOT NULL, name1 TEXT NOT NULL,
    end_reason TEXT NOT NULL,
    winner INTEGER,                  -- 0, 1, or NULL: a shared win or an abandoned game
    stars0 INTEGER NOT NULL, stars1 INTEGER NOT NULL,
    text TEXT NOT NULL               -- the record (docs/records.md)
);
CREATE TABLE readers (
    reader TEXT NOT NULL,            -- a rated identity, or 'code:' and a hash of a code
    game TEXT NOT NULL,
    seat INTEGER,                    -- 0 or 1 for a player, NULL for a watcher
    finished REAL NOT NULL,
    PRIMARY KEY (reader, game)
);
CREATE INDEX readers_by_time ON readers (reader, finished);
"""


def reader_key(identity: str | None, code: str | None) -> str | None:
    """Who a person is for reading records: their rated identity (a key or a Unix user,
    kept across resume codes), else a hash of their resume code (a guest, a player of the
    host's own account); None for nobody (an open seat, a bot)."""
    if identity and identity != "guest" and not identity.startswith("bot:"):
        return identity
    if code is None:
        return None
    return "code:" + hashlib.sha256(code.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Archived:
    """A finished game's record as stored: its text, what a list of games shows, and its
    readers ((reader key, seat or None for a watcher))."""

    text: str
    variant: str
    names: tuple[str, str]
    end: str
    winner: int | None
    stars: tuple[int, int]
    readers: tuple[tuple[str, int | None], ...]


def archived(table: Table, bot_seconds: float, finished: float) -> Archived:
    """The record of the finished game at ``table`` and its readers: the people of both
    seats and those who watched it (``Table.watchers``). A bot's seat has its spec as its
    kind (``mcts@1s``: the tier and the time it thinks at this host)."""
    seats = []
    for i, seat in enumerate(table.seats):
        kind = HUMAN if seat.bot is None else f"{seat.bot}@{bot_seconds:g}s"
        seats.append(SeatRecord(seat.name or f"Seat {i + 1}", kind))
    when = datetime.fromtimestamp(finished, UTC)
    record = record_of(table.game, (seats[0], seats[1]), when, program="solstis host",
                       legacy=table.game.legacy)
    readers: dict[str, int | None] = {}
    for watcher in table.watchers:
        readers[watcher] = None
    for i, seat in enumerate(table.seats):
        key = reader_key(seat.identity, seat.code)
        if key is not None:
            readers[key] = i  # a player who also watched reads it as a player
    return Archived(dumps(record), record.variant, (record.seats[0].name,
                                                    record.seats[1].name),
                    record.end.value, record.winner, record.scores,
                    tuple(readers.items()))


def store(conn: sqlite3.Connection, game: str, finished: float, entry: Archived) -> None:
    """Write ``entry`` (in the caller's transaction: the one that stores the result)."""
    conn.execute("INSERT OR IGNORE INTO records VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (game, entry.variant, entry.names[0], entry.names[1], entry.end,
                  entry.winner, entry.stars[0], entry.stars[1], entry.text))
    conn.executemany("INSERT OR IGNORE INTO readers VALUES (?, ?, ?, ?)",
                     [(reader, game, seat, finished) for reader, seat in entry.readers])


def _change(seat: int | None, rated: int | None, counted: int | None,
            before: Iterable[float | None], after: Iterable[float | None]) -> str | None:
    """What a game did to the rating of the player at ``seat``, as shown: "+14 → 1594",
    "not counted"; None for a watcher or an unrated game."""
    if seat is None or not rated:
        return None
    old, new = list(before)[seat], list(after)[seat]
    if not counted or old is None or new is None:
        return "not counted"
    return f"{round(new) - round(old):+d} → {round(new)}"


def games_of(conn: sqlite3.Connection, reader: str, offset: int,
             size: int = GAMES_PAGE) -> tuple[list[dict[str, Any]], int]:
    """One page of the games ``reader`` played or watched, newest first, and how many
    there are in all."""
    (total,) = conn.execute("SELECT count(*) FROM readers WHERE reader = ?",
                            (reader,)).fetchone()
    rows = conn.execute(
        "SELECT r.game, r.seat, r.finished, c.variant, c.name0, c.name1, c.end_reason, "
        "c.winner, c.stars0, c.stars1, s.rated, s.counted, s.before0, s.before1, "
        "s.after0, s.after1 FROM readers r JOIN records c ON c.game = r.game "
        "LEFT JOIN results s ON s.game = r.game WHERE r.reader = ? "
        "ORDER BY r.finished DESC, r.game LIMIT ? OFFSET ?", (reader, size, offset)).fetchall()
    games = []
    for (game, seat, finished, variant, name0, name1, end, winner, stars0, stars1, rated,
         counted, before0, before1, after0, after1) in rows:
        games.append({
            "game": game, "seat": seat,
            "date": datetime.fromtimestamp(finished, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "variant": variant, "names": [name0, name1], "end": end, "winner": winner,
            "scores": [stars0, stars1],
            "change": _change(seat, rated, counted, (before0, before1), (after0, after1)),
        })
    return games, int(total)


def fetch(conn: sqlite3.Connection, reader: str, game: str) -> tuple[str, int | None] | None:
    """The record of ``game`` and ``reader``'s seat in it (None: watched), if ``reader``
    may read it; None otherwise (no such game, not over yet, or not theirs: all alike)."""
    row = conn.execute("SELECT c.text, r.seat FROM readers r JOIN records c ON "
                       "c.game = r.game WHERE r.reader = ? AND r.game = ?",
                       (reader, game)).fetchone()
    return None if row is None else (str(row[0]), row[1])


def text_of(conn: sqlite3.Connection, game: str) -> str | None:
    """The stored record of ``game`` (None: no such game), for the host's own use (the
    analyst): never handed to a reader without ``fetch``."""
    row = conn.execute("SELECT text FROM records WHERE game = ?", (game,)).fetchone()
    return None if row is None else str(row[0])

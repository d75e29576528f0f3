"""Ratings and the results of finished games, in SQLite (``ratings.db`` in the host's data
folder: write-ahead log, full sync; see database).

A finished game is recorded in **one transaction**: its result row (keyed by the game's
own id: 128 random bits given when its table was made, never reused, unlike table ids),
its game record and who may read it (see archive) and, for a rated game, both players'
new ratings. Unrated games are stored too (their row
says so and changes no rating). Recording the same game again changes nothing, so a host
killed at any moment and restarted records each finished game exactly once: a game whose
table file says it is over but whose result is not in the database is recorded at the
next start (``Host.load``). A result the database refuses (locked, a full disk) stays with
its table, which is not pruned, and is tried again every housekeeping round.

Which rated games count (the same two people's daily games, two provisional ratings) is
``rating_rules``'s to say: a table decides it when its second player sits down (they are
told before they play) and its result carries that; a result that does not (an older
table's) is decided here, by the same rule, when it is stored.

The event loop never waits on the file: writes run in one worker thread; the ratings are
also kept in memory (only identified players and bots have one: guests are never stored).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..ai.ladder import LADDER as RUNGS
from ..wire.protocol import POOLS
from . import archive
from .archive import Archived
from .database import counted_transaction, open_database, refused
from .glicko2 import RATING_PERIOD, Rating, rate
from .rating_pools import pool_key
from .rating_rules import (
    BOARD_OPPONENTS,
    PAIR,
    PAIR_GAMES_PER_DAY,
    PAIR_GAMES_PROVISIONAL,
    PAIR_PROVISIONAL,
    PAIR_WINDOW,
    PROVISIONAL,
    Played,
    is_bot,
    not_counted,
    settled,
)

SCHEMA_VERSION = 4
RATINGS_SCHEMA = """
CREATE TABLE ratings (
    identity TEXT PRIMARY KEY,
    rating REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    updated REAL NOT NULL
);
CREATE TABLE results (
    game TEXT PRIMARY KEY,           -- the game's id, never reused (before version 3: its table's)
    table_id TEXT NOT NULL,          -- the table it was played at (ids are reused)
    finished REAL NOT NULL,
    player0 TEXT NOT NULL, player1 TEXT NOT NULL,
    score0 REAL NOT NULL,            -- seat 1's result: 1 a win, 0.5 a draw, 0 a loss
    counted INTEGER NOT NULL,        -- 0: played unrated (rating_rules), no change
    before0 REAL, after0 REAL, before1 REAL, after1 REAL,
    rated INTEGER NOT NULL DEFAULT 1 -- 0: an unrated game (no rating moved)
);
CREATE INDEX results_by_pair ON results (player0, player1, finished);
CREATE INDEX results_by_player1 ON results (player1, finished);
"""
SCHEMA = RATINGS_SCHEMA + archive.SCHEMA
#: version 1 had no unrated games (and a player's page read every result); version 2 kept
#: results by table id, which are reused; version 3 kept no game records (see archive)
UPGRADES = {1: "ALTER TABLE results ADD COLUMN rated INTEGER NOT NULL DEFAULT 1; "
               "CREATE INDEX IF NOT EXISTS results_by_player1 ON results (player1, finished);",
            2: "DROP INDEX results_by_pair; DROP INDEX IF EXISTS results_by_player1; "
               "ALTER TABLE results RENAME TO results_v2; "
               + RATINGS_SCHEMA[RATINGS_SCHEMA.index("CREATE TABLE results"):]
               + "INSERT INTO results SELECT table_id, table_id, finished, player0, player1, "
               "score0, counted, before0, after0, before1, after1, rated FROM results_v2; "
               "DROP TABLE results_v2;",
            3: archive.SCHEMA}
#: Where each bot tier starts: random is the anchor, and each tier above it is worth the
#: Elo its score against the tier below gives on the ladder (solstis_tui.ai.ladder: 0.25 s
#: a decision, 200-400 games each). Their deviation starts at START_RD_BOT: games against
#: people move them from there.
LADDER = tuple((rung.tier, rung.score) for rung in RUNGS)
RANDOM_START = 1200.0
START_RD_BOT = 100.0  # the ladder's 95% intervals are about ±60 Elo a step
T = TypeVar("T")
WHAT, EMPTY = "a ratings database", "no ratings"  # for the messages of a damaged file


def bot_starts() -> dict[str, Rating]:
    """Each bot tier's rating on day one (see LADDER)."""
    starts = {"bot:random": Rating(RANDOM_START, START_RD_BOT)}
    rating = RANDOM_START
    for tier, score in LADDER:
        rating += 400.0 * math.log10(score / (1.0 - score))
        starts[f"bot:{tier}"] = Rating(rating, START_RD_BOT)
    return starts


def pool_starts() -> dict[str, Rating]:
    """Each bot tier's rating on day one in every pool, by its key (see rating_pools):
    the ladder places a bot alike at any pace."""
    return {pool_key(tier, pool): start for tier, start in bot_starts().items()
            for pool in POOLS}


@dataclass(frozen=True)
class Result:
    """A finished game (``game``: its id, never reused): the identities at seats 1 and 2
    ("": a guest or the host's own account), seat 1's score, whether it was rated, the
    table it was played at, and the game's record (None: a result kept without one).
    ``unrated``: why a rated game is played unrated, as its table decided and told its
    players ("": it counts; None: not decided, the rules are applied when it is stored)."""

    game: str
    player0: str
    player1: str
    score0: float
    finished: float
    rated: bool = True
    table_id: str = ""
    record: Archived | None = None
    unrated: str | None = None


@dataclass(frozen=True)
class Change:
    """What a recorded game did to both ratings (``counted`` False: nothing, for the
    reason ``why``)."""

    before: tuple[Rating, Rating]
    after: tuple[Rating, Rating]
    counted: bool
    why: str = ""

    def shown(self) -> tuple[str, str]:
        """Each seat's change as a person reads it: "+14 → 1594" ("?": provisional),
        "not counted: both ratings were provisional (?)"."""
        if not self.counted:
            return (f"not counted: {self.why}",) * 2
        texts = []
        for old, new in zip(self.before, self.after, strict=True):
            delta = round(new.rating) - round(old.rating)
            texts.append(f"{delta:+d} → {round(new.rating)}{'?' if new.provisional else ''}")
        return texts[0], texts[1]


class Ratings:
    """The ratings database, one worker thread for its writes, and the ratings in memory."""

    def __init__(self, directory: Path, pair_games_per_day: int = PAIR_GAMES_PER_DAY) -> None:
        self.path = directory / "ratings.db"
        self.pair_games_per_day = pair_games_per_day
        self.known: dict[str, Rating] = {}
        #: each rated identity's counted games (for the leaderboard's rule, and the day
        #: its rating last changed: its deviation widens from then)
        self.played: dict[str, Played] = {}
        self._conn: sqlite3.Connection | None = None
        self._thread = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="solstis-ratings")

    # ------------------------------------------------------------------ opening
    def open(self) -> None:
        """Open (or create) the database and read every rating; database.Unreadable, with
        the file kept aside (``*.corrupt-<time>``), if it is not a ratings database."""
        conn = open_database(self.path, SCHEMA, SCHEMA_VERSION, WHAT, EMPTY,
                             upgrades=UPGRADES)
        self.known = pool_starts()
        self.played = {}
        try:
            for identity, rating, rd, vol, games, updated in conn.execute(
                    "SELECT identity, rating, rd, vol, games, updated FROM ratings"):
                self.known[identity] = Rating(rating, rd, vol)
                self.played[identity] = Played(games, updated)
            for player0, player1 in conn.execute(
                    "SELECT DISTINCT player0, player1 FROM results "
                    "WHERE rated = 1 AND counted = 1"):
                for me, other in ((player0, player1), (player1, player0)):
                    self._met(me, other)
        except sqlite3.DatabaseError as exc:  # damage past what the check at start read
            conn.close()
            raise refused(self.path, WHAT, EMPTY, exc) from None
        self._conn = conn

    def is_recorded(self, game: str) -> bool:
        """Whether the result of the game ``game`` is stored (read at start-up)."""
        conn = self._conn
        return conn is not None and conn.execute(
            "SELECT 1 FROM results WHERE game = ?", (game,)).fetchone() is not None

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _met(self, identity: str, opponent: str) -> None:
        """Note (at start) that ``identity`` has a counted game against ``opponent``."""
        played = self.played.get(identity, Played())
        if opponent not in played.opponents and len(played.opponents) < BOARD_OPPONENTS:
            self.played[identity] = Played(played.games, played.last,
                                           played.opponents | {opponent})

    # ------------------------------------------------------------------ reading
    def rating(self, identity: str | None) -> Rating | None:
        """``identity``'s rating (a newcomer's if they have none yet); None for nobody (a
        guest, a player of the host's own account)."""
        if identity is None or identity == "guest":
            return None
        return self.known.get(identity, Rating())

    def rating_now(self, identity: str | None, now: float) -> Rating | None:
        """``rating`` as it stands at ``now``: its deviation widened for each whole day
        (rating period) since it last changed, as the next game will find it."""
        rating = self.rating(identity)
        last = self.played.get(identity or "", Played()).last
        if rating is None or last is None:
            return rating
        return rating.idle((now - last) // RATING_PERIOD)

    async def rule_for(self, ids: tuple[str, str], now: float, promised: int = 0) -> str:
        """Whether a rated game between ``ids`` that starts ``now`` will count ("") or be
        played unrated (``rating_rules.PAIR``, ``PROVISIONAL``), given ``promised`` games
        of theirs already being played that will count (read in the database's thread)."""
        def read(conn: sqlite3.Connection) -> str:
            before = (self._current(conn, ids[0], now), self._current(conn, ids[1], now))
            return self._rule(conn, ids, before, now, promised)
        return await self._read(read)

    async def games_of(self, identity: str, most: int = 40) -> list[tuple[str, float, float]]:
        """``identity``'s latest rated games that counted, oldest first: (opponent's
        identity, score, own rating after), at most ``most`` (read in the database's
        thread). A game played unrated (``rating_rules``) is not among them."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self._games_of, identity, most)

    def _games_of(self, identity: str, most: int) -> list[tuple[str, float, float]]:
        conn = self._conn
        if conn is None:
            return []
        rows = conn.execute(
            "SELECT player0, player1, score0, after0, after1 FROM results "
            "WHERE rated = 1 AND counted = 1 AND (player0 = ? OR player1 = ?) "
            "ORDER BY finished DESC "
            "LIMIT ?",
            (identity, identity, most)).fetchall()
        games = []
        for player0, player1, score0, after0, after1 in reversed(rows):
            if player0 == identity:
                games.append((player1, score0, after0))
            else:
                games.append((player0, 1.0 - score0, after1))
        return games

    async def games_of_reader(self, reader: str, offset: int) -> tuple[list[dict[str, Any]],
                                                                       int]:
        """A page of the games ``reader`` played or watched (``archive.games_of``), read in
        the database's thread."""
        return await self._read(archive.games_of, reader, offset)

    async def record_for(self, reader: str, game: str) -> tuple[str, int | None] | None:
        """The record of ``game`` if ``reader`` may read it (``archive.fetch``)."""
        return await self._read(archive.fetch, reader, game)

    async def record_text(self, game: str) -> str | None:
        """The stored record of ``game`` (``archive.text_of``), for the host's own use."""
        return await self._read(archive.text_of, game)

    async def _read(self, query: Callable[..., T], *args: Any) -> T:
        def read() -> T:
            conn = self._conn
            if conn is None:
                raise RuntimeError("the ratings database is not open")
            try:
                return query(conn, *args)
            except sqlite3.Error as exc:
                raise OSError(f"the ratings database could not be read ({exc})") from None
        return await asyncio.get_running_loop().run_in_executor(self._thread, read)

    # ------------------------------------------------------------------ recording
    async def record(self, result: Result) -> Change | None:
        """Store ``result`` and both new ratings in one transaction; None if this game's
        result was stored before (nothing changes) or the game was unrated. OSError if the
        disk refused."""
        loop = asyncio.get_running_loop()
        change = await loop.run_in_executor(self._thread, self._store, result)
        self._remember(result, change)
        return change

    def record_now(self, result: Result) -> Change | None:
        """``record`` on the caller's thread (at start-up, before anyone is served)."""
        change = self._store(result)
        self._remember(result, change)
        return change

    def _remember(self, result: Result, change: Change | None) -> None:
        if change is not None and change.counted:
            self.known[result.player0], self.known[result.player1] = change.after
            for me, other in ((result.player0, result.player1),
                              (result.player1, result.player0)):
                self.played[me] = self.played.get(me, Played()).after(other, result.finished)

    def _store(self, result: Result) -> Change | None:
        """One transaction: the result and both ratings (in the worker thread)."""
        conn = self._conn
        if conn is None:
            raise RuntimeError("the ratings database is not open")
        try:
            with counted_transaction(conn):
                change = self._apply(conn, result)
        except sqlite3.Error as exc:
            raise OSError(f"the ratings database could not be written ({exc})") from None
        return change

    def _apply(self, conn: sqlite3.Connection, result: Result) -> Change | None:
        if conn.execute("SELECT 1 FROM results WHERE game = ?",
                        (result.game,)).fetchone():
            return None
        ids = (result.player0, result.player1)
        where = (result.game, result.table_id or result.game)
        if result.record is not None:
            archive.store(conn, result.game, result.finished, result.record)
        if not result.rated:
            conn.execute("INSERT INTO results (game, table_id, finished, player0, player1, "
                         "score0, counted, rated) VALUES (?, ?, ?, ?, ?, ?, 0, 0)",
                         (*where, result.finished, *ids, result.score0))
            return None
        before = (self._current(conn, ids[0], result.finished),
                  self._current(conn, ids[1], result.finished))
        kind = result.unrated
        if kind is None:  # not decided when its players sat down (an older table's)
            kind = self._rule(conn, ids, before, result.finished)
        counted = not kind
        after = before
        if counted:
            after = (rate(before[0], [(before[1], result.score0)]),
                     rate(before[1], [(before[0], 1.0 - result.score0)]))
            for identity, new in zip(ids, after, strict=True):
                conn.execute(
                    "INSERT INTO ratings (identity, rating, rd, vol, games, updated) "
                    "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (identity) DO UPDATE SET "
                    "rating = excluded.rating, rd = excluded.rd, vol = excluded.vol, "
                    "games = games + 1, updated = max(updated, excluded.updated)",
                    (identity, new.rating, new.rd, new.vol, result.finished))
        conn.execute(
            "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
            (*where, result.finished, ids[0], ids[1], result.score0, int(counted),
             before[0].rating, after[0].rating, before[1].rating, after[1].rating))
        why = "" if counted else not_counted(
            kind if kind in (PAIR_PROVISIONAL, PROVISIONAL) else PAIR, self.pair_games_per_day)
        return Change(before, after, counted, why)

    def _rule(self, conn: sqlite3.Connection, ids: tuple[str, str],
              before: tuple[Rating, Rating], now: float, promised: int = 0) -> str:
        """Whether a rated game between ``ids`` (rated ``before``) at ``now`` counts ("")
        or is played unrated, and why (``rating_rules``). A bot is nobody's pair."""
        if is_bot(ids[0]) or is_bot(ids[1]):
            return ""
        settled_now = [settled(i, r) for i, r in zip(ids, before, strict=True)]
        if not any(settled_now):
            return PROVISIONAL
        (played,) = conn.execute(
            "SELECT count(*) FROM results WHERE counted = 1 AND finished > ? AND "
            "((player0 = ? AND player1 = ?) OR (player0 = ? AND player1 = ?))",
            (now - PAIR_WINDOW, ids[0], ids[1], ids[1], ids[0])).fetchone()
        if not all(settled_now):
            return PAIR_PROVISIONAL if played + promised >= PAIR_GAMES_PROVISIONAL else ""
        return PAIR if played + promised >= self.pair_games_per_day else ""

    def _current(self, conn: sqlite3.Connection, identity: str, now: float) -> Rating:
        """``identity``'s rating now: the stored one with its deviation widened for the
        rating periods (days) since it last changed; a bot's or a newcomer's start."""
        row = conn.execute("SELECT rating, rd, vol, updated FROM ratings WHERE identity = ?",
                           (identity,)).fetchone()
        if row is None:
            return pool_starts().get(identity, Rating())
        rating, rd, vol, updated = row
        return Rating(rating, rd, vol).idle((now - updated) // RATING_PERIOD)


def result_of(game: str, identities: tuple[str, str], winner: int | None,
              finished: float | None = None, rated: bool = True,
              table_id: str | None = None, record: Archived | None = None,
              unrated: str | None = None) -> Result:
    """The Result of the game ``game`` (at table ``table_id``: by default ``game``) won by
    seat ``winner`` (None: a draw); ``unrated`` as its table decided (see Result)."""
    score0 = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
    return Result(game, identities[0], identities[1], score0,
                  time.time() if finished is None else finished, rated,
                  game if table_id is None else table_id, record, unrated)

"""The host's player registry: which name each secret resume code belongs to.

Codes are 128-bit secrets (``secrets.token_urlsafe(16)``), forgotten after ``expire_seconds``
(30 days) without a hello, a guest's after ``guest_seconds`` (a day). The registry lives in
``players.db`` (SQLite, see player_db): a hello reads a few rows by index on the event loop;
every change is written by one worker thread, many changes per transaction, and
``register`` returns only once its player is on disk. Changes on their way to the disk are
kept in memory (``_pending``) and read first, so nobody sees the database lag behind. A
database that cannot be read is kept aside and the host refuses to start (database); a
write that fails is logged (logger ``solstis.host``) and kept in ``write_errors``.

The files of older hosts (``players.json``, ``players.journal``) are imported once at
start-up (players_legacy). Codes from before those (32-bit ``token_hex(4)``) are still
accepted for ``legacy_seconds`` (7 days) and only once: the player gets a new long code,
which keeps the old one as the identity their table seats know them by.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import math
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path

from . import player_db
from .database import open_database
from .player_db import Player, clash_keys
from .players_legacy import migrate, read_files

__all__ = ["CODE_BYTES", "Player", "PlayerRegistry", "clash_keys"]

CODE_BYTES = 16
EXPIRE_SECONDS = 30 * 24 * 3600.0
GUEST_SECONDS = 24 * 3600.0  # a guest's name and code are kept this long after last seen
LEGACY_SECONDS = 7 * 24 * 3600.0
TOUCH_EVERY = 3600.0  # a hello writes "last seen" at most this often per player
MAX_FORMER = 5  # a player's former names kept (and kept from others)
#: Expired players read and forgotten at a time (one transaction each, off the loop).
PRUNE_BATCH = 500

log = logging.getLogger("solstis.host")


class PlayerRegistry(Mapping[str, str]):
    """Resume code -> name (a read-only mapping: looking a code up reads one row; iterating
    or counting reads them all, for tests and the owner), with registration, expiry and
    storage."""

    def __init__(self, directory: Path, *, expire_seconds: float = EXPIRE_SECONDS,
                 guest_seconds: float = GUEST_SECONDS,
                 legacy_seconds: float = LEGACY_SECONDS,
                 clock: Callable[[], float] = time.time) -> None:
        self.directory = directory
        self.path = directory / "players.db"
        self.expire_seconds, self.legacy_seconds = expire_seconds, legacy_seconds
        self.guest_seconds = guest_seconds
        self.clock = clock
        self.problems: list[str] = []  # files kept aside at load, a sentence each
        self.write_errors: list[str] = []  # failed writes, a sentence each (also logged)
        self._db: sqlite3.Connection | None = None  # read on the event loop
        self._out: sqlite3.Connection | None = None  # written in the worker thread
        self._thread = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="solstis-players")
        #: code -> (player, None if forgotten; generation; as written): changes not yet on
        #: disk
        self._pending: dict[str, tuple[Player | None, int, player_db.Change]] = {}
        self._index: dict[str, set[str]] = {}  # clash key or identity -> pending codes
        self._generation = 0
        self._unwritten: set[str] = set()  # pending codes no write has taken yet
        self._waiting: list[asyncio.Future[None]] = []  # each wants the next write
        self._writer: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ opening
    def load(self) -> None:
        """Open (or create) ``players.db`` and import an older host's files once;
        database.Unreadable if the database cannot be read (kept aside, see database)."""
        self._out = self._open()
        try:
            migrate(self._out, self.directory, self.clock(), self.problems)
        except sqlite3.Error as exc:
            raise OSError(f"{self.path} could not take the players of players.json "
                          f"({exc})") from None
        try:
            rekeyed = player_db.rekey(self._out)
        except sqlite3.Error as exc:
            raise OSError(f"{self.path} could not take the new look-alike keys of its "
                          f"players' names ({exc})") from None
        if rekeyed:
            log.info("the look-alike keys of %d players' names were worked out again in "
                     "%s.", rekeyed, self.path)
        self._db = self._open(checked=True)
        clash_keys("")  # the look-alike table is read now, not during the first hello

    def read(self) -> None:
        """Open the registry for reading only (a running host may own it): the database
        if there is one, else an older host's files, read into memory. What could not be
        read is said in ``problems``; nothing is written."""
        if self.path.exists():
            self._db = self._open(keep_bad=False)
            return
        self._db = sqlite3.connect(":memory:", isolation_level=None)
        self._db.executescript(player_db.SCHEMA)
        players = read_files(self.directory, self.clock(), False, self.problems)
        player_db.put_all(self._db, [player_db.change(c, p) for c, p in players.items()])

    def _open(self, keep_bad: bool = True, checked: bool = False) -> sqlite3.Connection:
        return open_database(self.path, player_db.SCHEMA, player_db.SCHEMA_VERSION,
                             "a players database",
                             "no players (everyone chooses a name again)", keep_bad=keep_bad,
                             checked=checked)

    async def close(self) -> None:
        """Write every pending change (retrying those that failed), then close."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)
        if self._unwritten and self._out is not None:
            self._start_writer()
            await asyncio.shield(self._writer)  # type: ignore[arg-type]
        self._thread.shutdown(wait=True)
        for conn in (self._db, self._out):
            if conn is not None:
                conn.close()
        self._db = self._out = None

    # ------------------------------------------------------------------ reading
    def _get(self, code: str) -> Player | None:
        if code in self._pending:
            return self._pending[code][0]
        return None if self._db is None else player_db.get(self._db, code)

    def __getitem__(self, code: str) -> str:
        player = self._get(code)
        if player is None:
            raise KeyError(code)
        return player.name

    def players_by_code(self) -> dict[str, Player]:
        """Every player by code (reads the whole table: for the owner, not for a hello)."""
        stored = {} if self._db is None else player_db.everyone(self._db)
        for code, (player, _, _) in self._pending.items():
            if player is None:
                stored.pop(code, None)
            else:
                stored[code] = player
        return stored

    def players(self) -> list[Player]:
        """Every registered player (for the owner's listing)."""
        return list(self.players_by_code().values())

    def __iter__(self) -> Iterator[str]:
        return iter(self.players_by_code())

    def __len__(self) -> int:
        return len(self.players_by_code())

    def lookup(self, code: str) -> str | None:
        """The name of ``code``'s player, or None if the code is not known (or expired)."""
        player = self._get(code)
        return None if player is None or self._expired(player, self.clock()) else player.name

    def seat_code(self, code: str) -> str:
        """The identity ``code``'s player has at tables (the code itself for new players)."""
        player = self._get(code)
        return player.seat if player is not None and player.seat else code

    def name_taken(self, name: str, by_other_than: str | None = None) -> bool:
        """True if a registered player's name (a former one too) cannot be told from
        ``name``: the same ``name_key`` (case, width, spacing) or the same look-alike
        skeleton. The names of the player with code ``by_other_than`` do not count."""
        for key in clash_keys(name):
            if self._index.get(key, set()) - {by_other_than}:
                return True
            stored = [] if self._db is None else player_db.codes_with_key(self._db, key)
            if any(code != by_other_than and code not in self._pending for code in stored):
                return True
        return False

    def identity_of(self, code: str) -> str | None:
        """The identity ``code``'s player belongs to (None: whoever holds the code)."""
        player = self._get(code)
        return None if player is None else player.identity

    def code_of(self, identity: str) -> str | None:
        """The code of the player who belongs to ``identity`` (None: none yet, or expired;
        guests share one identity and have none)."""
        if identity == "guest":
            return None
        stored = [] if self._db is None else player_db.codes_of(self._db, identity)
        owner = self._owners(stored, [identity]).get(identity)
        return None if owner is None else owner[0]

    async def names_of(self, identities: Iterable[str]) -> dict[str, str]:
        """identity -> the name of the player who belongs to it, for each of ``identities``
        that has one: read in one query in the worker thread (for the leaderboard)."""
        wanted = [identity for identity in identities if identity != "guest"]
        stored: list[tuple[str, Player]] = []
        if self._out is not None:
            stored = await asyncio.get_running_loop().run_in_executor(
                self._thread, player_db.of_identities, self._out, wanted)
        elif self._db is not None:
            stored = player_db.of_identities(self._db, wanted)
        return {identity: player.name
                for identity, (_, player) in self._owners(stored, wanted).items()}

    def _owners(self, stored: list[tuple[str, Player]], identities: list[str]
                ) -> dict[str, tuple[str, Player]]:
        """identity -> (code, player) of its player (the one seen last, unexpired), from
        the players ``stored`` and those on their way to the disk."""
        candidates = [(c, p) for c, p in stored if c not in self._pending]
        candidates += [(c, p) for identity in identities
                       for c in self._index.get("i:" + identity, ())
                       if (p := self._pending[c][0]) is not None]
        now = self.clock()
        best: dict[str, tuple[str, Player]] = {}
        for code, player in candidates:
            if player.identity is None or self._expired(player, now):
                continue
            if player.identity not in best or best[player.identity][1].seen < player.seen:
                best[player.identity] = (code, player)
        return best

    def is_legacy(self, code: str) -> bool:
        player = self._get(code)
        return player is not None and player.legacy

    def _expired(self, player: Player, now: float) -> bool:
        limit = (self.legacy_seconds if player.legacy else self.guest_seconds
                 if player.identity == "guest" else self.expire_seconds)
        return now - player.seen > limit

    # ------------------------------------------------------------------ changes
    async def register(self, name: str, identity: str | None = None) -> str:
        """A new player called ``name``, belonging to ``identity``; returns their code once
        it is stored (OSError, and nothing registered, if it could not be)."""
        code = secrets.token_urlsafe(CODE_BYTES)
        await self._store({code: Player(name, self.clock(), identity=identity)})
        return code

    async def exchange(self, old: str) -> str:
        """A new long code for the legacy code ``old``, which stops working; the player keeps
        ``old`` as their identity at tables. OSError, and nothing changed, if not stored."""
        player = self._get(old)
        if player is None:
            raise KeyError(old)
        new = secrets.token_urlsafe(CODE_BYTES)
        await self._store({new: Player(player.name, self.clock(), seat=player.seat or old,
                                       identity=player.identity), old: None})
        return new

    async def rename(self, code: str, name: str) -> None:
        """``code``'s player is called ``name`` from now on; the name they had joins their
        former names (still theirs: nobody else can take it; the oldest beyond
        ``MAX_FORMER`` are let go). OSError, and nothing changed, if it could not be
        stored."""
        player = self._get(code)
        if player is None:
            raise KeyError(code)
        former = tuple(n for n in player.names if n != name)[:MAX_FORMER]
        await self._store({code: replace(player, name=name, former=former,
                                         seen=self.clock())})

    async def attach(self, code: str, identity: str, name: str) -> None:
        """``code``'s player (a guest, or one of before identities) belongs to ``identity``
        from now on, under ``name`` (the name the owner gave the key); their names so far
        stay theirs, as former names, and their code and seats do not change. OSError, and
        nothing changed, if it could not be stored."""
        player = self._get(code)
        if player is None:
            raise KeyError(code)
        former = tuple(n for n in player.names if n != name)[:MAX_FORMER]
        await self._store({code: replace(player, name=name, former=former, identity=identity,
                                         seen=self.clock())})

    def touch(self, code: str) -> None:
        """Note that ``code``'s player said hello now (written at most hourly)."""
        player = self._get(code)
        now = self.clock()
        if player is not None and now - player.seen >= TOUCH_EVERY:
            self._change(code, replace(player, seen=now))

    async def prune(self, now: float | None = None, keep: Iterable[str] = ()) -> list[str]:
        """Forget players unseen for too long (except codes or seat identities in ``keep``);
        returns the codes forgotten. The expired are found by index and forgotten in
        batches of ``PRUNE_BATCH``, each read and written in the worker thread, so that a
        day's worth of expired codes never holds up the event loop."""
        now = self.clock() if now is None else now
        keep = set(keep)
        gone = [code for code, (player, _, _) in list(self._pending.items())
                if player is not None and self._expired(player, now) and code not in keep
                and player.seat not in keep]
        for code in gone:
            self._change(code, None)
        if self._out is None:
            return gone
        limits = {player_db.PLAYER: self.expire_seconds, player_db.GUEST: self.guest_seconds,
                  player_db.LEGACY: self.legacy_seconds}
        loop = asyncio.get_running_loop()
        for kind, seconds in limits.items():
            after = (-math.inf, "")
            while True:
                rows = await loop.run_in_executor(self._thread, player_db.unseen, self._out,
                                                  kind, now - seconds, after, PRUNE_BATCH)
                if not rows:
                    break
                after = (rows[-1][1].seen, rows[-1][0])
                # checked and sent in one step of the loop: a change made after this is
                # written after the batch, so it is not lost
                batch = [code for code, player in rows if code not in self._pending
                         and code not in keep and player.seat not in keep]
                if batch:
                    try:
                        await loop.run_in_executor(self._thread, player_db.forget,
                                                   self._out, batch)
                    except sqlite3.Error as exc:
                        self._write_failed(f"{self.path} could not be written ({exc}); "
                                           "expired players are forgotten at a later round.")
                        return gone
                    gone += batch
                if len(rows) < PRUNE_BATCH:
                    break
        return gone

    # ------------------------------------------------------------------ the writer
    def _change(self, code: str, player: Player | None) -> None:
        """Make ``code``'s player ``player`` (None: forget them) now, in memory, and have
        the writer put it on disk."""
        self._forget_pending(code)
        self._generation += 1
        keys = set() if player is None else player.clash_keys()
        self._pending[code] = (player, self._generation, player_db.change(code, player, keys))
        if player is not None:
            for key in (*keys, f"i:{player.identity}"):
                self._index.setdefault(key, set()).add(code)
        self._unwritten.add(code)
        self._start_writer()

    def _forget_pending(self, code: str) -> None:
        """Drop ``code``'s change from memory (the database has it, or never will)."""
        entry = self._pending.pop(code, None)
        if entry is not None and entry[0] is not None:
            for key in (*entry[0].clash_keys(), f"i:{entry[0].identity}"):
                codes = self._index.get(key)
                if codes is not None:
                    codes.discard(code)
                    if not codes:
                        del self._index[key]

    async def _store(self, changes: dict[str, Player | None]) -> None:
        """Make ``changes`` and wait until they are on disk; if they cannot be written,
        OSError and the registry is as it was."""
        before = {code: self._pending.get(code) for code in changes}
        for code, player in changes.items():
            self._change(code, player)
        future = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        try:
            await future
        except BaseException:
            for code, entry in before.items():
                self._forget_pending(code)
                self._unwritten.discard(code)
                if entry is not None:  # an earlier change of its own still to write
                    self._change(code, entry[0])
            raise

    def _start_writer(self) -> None:
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())

    async def _write_loop(self) -> None:
        """Write every pending change, one transaction (one fsync) per batch."""
        loop = asyncio.get_running_loop()
        while self._unwritten and self._out is not None:
            codes, self._unwritten = self._unwritten, set()
            waiting, self._waiting = self._waiting, []
            batch = [(code, *self._pending[code][:2]) for code in codes
                     if code in self._pending]
            try:
                await loop.run_in_executor(self._thread, player_db.put_all, self._out,
                                           [self._pending[code][2] for code, _, _ in batch])
            except Exception as exc:  # a full disk, or a bug: either way nobody waits forever
                if not isinstance(exc, sqlite3.Error):
                    log.exception("the player registry's writer failed")
                self._write_failed(f"{self.path} could not be written ({exc}); the new "
                                   "names and codes asked for then were refused, other "
                                   "changes to players wait in memory for the next write.")
                failed = OSError(f"the player registry could not be written: {exc}")
                for future in waiting:
                    if not future.done():
                        future.set_exception(failed)
                await asyncio.sleep(0)  # the refused changes are taken back first
                self._keep_for_later(batch)
                return
            for code, _, generation in batch:
                if code in self._pending and self._pending[code][1] == generation:
                    self._forget_pending(code)
            for future in waiting:
                if not future.done():
                    future.set_result(None)

    def _keep_for_later(self, batch: list[tuple[str, Player | None, int]]) -> None:
        """Changes of a failed write nobody took back: written with the next one."""
        self._unwritten |= {code for code, _, generation in batch
                            if code in self._pending and self._pending[code][1] == generation}

    def _write_failed(self, message: str) -> None:
        """Record a failed write in ``write_errors`` and log it for the operator."""
        self.write_errors.append(message)
        log.error("%s", message)

"""The host's player registry: which name each secret resume code belongs to.

Codes are 128-bit secrets (``secrets.token_urlsafe(16)``), forgotten after ``expire_seconds``
(30 days) without a hello. The registry lives in ``players.json`` (a snapshot) plus
``players.journal`` (one JSON line per change since the snapshot). New names are appended in a
worker thread, many names per fsync, and ``register`` returns only once its line is on disk;
the journal is folded into the snapshot once it outgrows it. A file that cannot be read is
renamed aside (``*.corrupt-<time>*``) and reported, never replaced; a write that fails is
logged (logger ``solstis.host``) and kept in ``write_errors``.

Codes from before this format (32-bit ``token_hex(4)``) are still accepted for
``legacy_seconds`` (7 days) after the upgrade and only once: the player gets a new long code,
which keeps the old one as the identity their table seats know them by.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..saves import keep_aside, write_atomic
from .names import lookalike_key, name_key

CODE_BYTES = 16
EXPIRE_SECONDS = 30 * 24 * 3600.0
GUEST_SECONDS = 24 * 3600.0  # a guest's name and code are kept this long after last seen
LEGACY_SECONDS = 7 * 24 * 3600.0
TOUCH_EVERY = 3600.0  # a hello writes "last seen" at most this often per player
MAX_FORMER = 5  # a player's former names kept (and kept from others)
COMPACT_MIN = 1000  # journal lines before the journal is folded into the snapshot

log = logging.getLogger("solstis.host")


def clash_keys(name: str) -> tuple[str, str]:
    """What no two players' names may share: the ``name_key`` and the look-alike key
    (kept apart by a prefix)."""
    return "n:" + name_key(name), "l:" + lookalike_key(name)


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

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "seen": self.seen}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.legacy:
            data["legacy"] = True
        if self.identity is not None:
            data["identity"] = self.identity
        if self.former:
            data["former"] = list(self.former)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Player:
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            raise ValueError(f"not a player: {data!r}")
        seat, identity, former = data.get("seat"), data.get("identity"), data.get("former")
        return cls(data["name"], float(data["seen"]),
                   seat if isinstance(seat, str) else None, bool(data.get("legacy")),
                   identity if isinstance(identity, str) else None,
                   tuple(n for n in former if isinstance(n, str))
                   if isinstance(former, list) else ())


class PlayerRegistry(Mapping[str, str]):
    """Resume code -> name (a read-only mapping), with registration, expiry and storage."""

    def __init__(self, directory: Path, *, expire_seconds: float = EXPIRE_SECONDS,
                 guest_seconds: float = GUEST_SECONDS,
                 legacy_seconds: float = LEGACY_SECONDS,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = directory / "players.json"
        self.journal = directory / "players.journal"
        self.expire_seconds, self.legacy_seconds = expire_seconds, legacy_seconds
        self.guest_seconds = guest_seconds
        self.clock = clock
        self.problems: list[str] = []  # files kept aside at load, a sentence each
        self.write_errors: list[str] = []  # failed writes, a sentence each (also logged)
        self._players: dict[str, Player] = {}
        self._keys: Counter[str] = Counter()
        self._by_identity: dict[str, str] = {}  # identity -> code (guests aside)
        self._written: dict[str, float] = {}  # code -> "seen" last put on disk
        self._pending: list[tuple[str, set[str], asyncio.Future[None] | None]] = []
        self._unsaved: set[str] = set()
        self._writer: asyncio.Task[None] | None = None
        self._journal_lines = 0
        self._snapshot_size = 0  # players in players.json when it was last written
        self._needs_compact = False

    # ------------------------------------------------------------------ the mapping
    def __getitem__(self, code: str) -> str:
        return self._players[code].name

    def __iter__(self) -> Iterator[str]:
        return iter(self._players)

    def __len__(self) -> int:
        return len(self._players)

    def lookup(self, code: str) -> str | None:
        """The name of ``code``'s player, or None if the code is not known (or expired)."""
        player = self._players.get(code)
        return None if player is None or self._expired(player, self.clock()) else player.name

    def seat_code(self, code: str) -> str:
        """The identity ``code``'s player has at tables (the code itself for new players)."""
        player = self._players.get(code)
        return player.seat if player is not None and player.seat else code

    def name_taken(self, name: str, by_other_than: str | None = None) -> bool:
        """True if a registered player's name (a former one too) cannot be told from
        ``name``: the same ``name_key`` (case, width, spacing) or the same look-alike
        skeleton. The names of the player with code ``by_other_than`` do not count."""
        own: Counter[str] = Counter()
        player = self._players.get(by_other_than) if by_other_than else None
        if player is not None:
            for known in player.names:
                own.update(clash_keys(known))
        return any(self._keys[key] - own[key] > 0 for key in clash_keys(name))

    def identity_of(self, code: str) -> str | None:
        """The identity ``code``'s player belongs to (None: whoever holds the code)."""
        player = self._players.get(code)
        return None if player is None else player.identity

    def code_of(self, identity: str) -> str | None:
        """The code of the player who belongs to ``identity`` (None: none yet, or expired)."""
        code = self._by_identity.get(identity)
        return code if code is not None and self.lookup(code) is not None else None

    def is_legacy(self, code: str) -> bool:
        player = self._players.get(code)
        return player is not None and player.legacy

    # ------------------------------------------------------------------ changes
    async def register(self, name: str, identity: str | None = None) -> str:
        """A new player called ``name``, belonging to ``identity``; returns their code once
        it is stored (OSError, and nothing registered, if it could not be)."""
        code = secrets.token_urlsafe(CODE_BYTES)
        player = Player(name, self.clock(), identity=identity)
        self._add(code, player)
        try:
            await self._store([(code, player)])
        except BaseException:
            self._drop(code)
            self._unsaved.discard(code)
            raise
        return code

    async def exchange(self, old: str) -> str:
        """A new long code for the legacy code ``old``, which stops working; the player keeps
        ``old`` as their identity at tables. OSError, and nothing changed, if not stored."""
        player = self._players[old]
        new = secrets.token_urlsafe(CODE_BYTES)
        fresh = Player(player.name, self.clock(), seat=player.seat or old,
                       identity=player.identity)
        self._drop(old)
        self._add(new, fresh)
        try:
            await self._store([(new, fresh), (old, None)])
        except BaseException:
            self._drop(new)
            self._add(old, player)
            self._unsaved -= {new, old}
            raise
        return new

    async def rename(self, code: str, name: str) -> None:
        """``code``'s player is called ``name`` from now on; the name they had joins their
        former names (still theirs: nobody else can take it; the oldest beyond
        ``MAX_FORMER`` are let go). OSError, and nothing
        changed, if it could not be stored."""
        player = self._players[code]
        former = tuple(n for n in player.names if n != name)[:MAX_FORMER]
        renamed = replace(player, name=name, former=former, seen=self.clock())
        self._add(code, renamed)
        try:
            await self._store([(code, renamed)])
        except BaseException:
            self._add(code, player)
            self._unsaved.discard(code)
            raise

    def touch(self, code: str) -> None:
        """Note that ``code``'s player said hello now (written at most hourly)."""
        player = self._players.get(code)
        if player is None:
            return
        player.seen = self.clock()
        if player.seen - self._written.get(code, 0.0) >= TOUCH_EVERY:
            self._queue_nowait(code, player)

    def prune(self, now: float | None = None, keep: Iterable[str] = ()) -> list[str]:
        """Forget players unseen for too long (except codes or seat identities in ``keep``);
        returns the codes forgotten."""
        now = self.clock() if now is None else now
        keep = set(keep)
        gone = [code for code, p in self._players.items()
                if self._expired(p, now) and code not in keep and p.seat not in keep]
        for code in gone:
            self._drop(code)
            self._queue_nowait(code, None)
        return gone

    def _expired(self, player: Player, now: float) -> bool:
        limit = (self.legacy_seconds if player.legacy else self.guest_seconds
                 if player.identity == "guest" else self.expire_seconds)
        return now - player.seen > limit

    def _add(self, code: str, player: Player) -> None:
        self._drop(code)
        self._players[code] = player
        for name in player.names:
            self._keys.update(clash_keys(name))
        if player.identity is not None and player.identity != "guest":
            self._by_identity[player.identity] = code

    def _drop(self, code: str) -> None:
        player = self._players.pop(code, None)
        if player is not None:
            if player.identity is not None and self._by_identity.get(player.identity) == code:
                del self._by_identity[player.identity]
            for key in (key for name in player.names for key in clash_keys(name)):
                self._keys[key] -= 1
                if self._keys[key] <= 0:
                    del self._keys[key]

    # ------------------------------------------------------------------ the journal
    @staticmethod
    def _line(code: str, player: Player | None) -> str:
        entry = {"code": code, **(player.to_dict() if player else {"gone": True})}
        return json.dumps(entry) + "\n"

    def _queue_nowait(self, code: str, player: Player | None) -> None:
        self._pending.append((self._line(code, player), set(), None))
        self._note_written(code, player)
        self._start_writer()

    def _note_written(self, code: str, player: Player | None) -> None:
        """Remember when ``code``'s "last seen" was put on disk (forget a removed player)."""
        if player is None:
            self._written.pop(code, None)
        else:
            self._written[code] = player.seen

    async def _store(self, entries: list[tuple[str, Player | None]]) -> None:
        """Append ``entries`` to the journal (with whatever else is pending) and wait until
        they are on disk."""
        future = asyncio.get_running_loop().create_future()
        codes = {code for code, _ in entries}
        self._pending.append(("".join(self._line(c, p) for c, p in entries), codes, future))
        self._unsaved |= codes  # until written (the writer) or given up (the caller)
        self._start_writer()
        await future
        for code, player in entries:
            self._note_written(code, player)

    def _start_writer(self) -> None:
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())

    async def _write_loop(self) -> None:
        """Append every pending line, one fsync per batch; fold the journal in when big."""
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await asyncio.to_thread(self._append, "".join(line for line, _, _ in batch))
            except Exception as exc:  # a full disk, or a bug: either way nobody waits forever
                if not isinstance(exc, OSError):
                    log.exception("the player registry's writer failed")
                self._write_failed(f"{self.journal} could not be written ({exc}); the new "
                                   "names and codes asked for then were refused, other "
                                   "changes to players wait in memory for the next write.")
                self._needs_compact = True  # unawaited lines (touches) are in memory only
                for _, _, future in batch:
                    if future is not None and not future.done():
                        future.set_exception(exc if isinstance(exc, OSError) else OSError(
                            f"the player registry could not be written: {exc}"))
                continue
            for _, codes, future in batch:
                self._unsaved -= codes
                if future is not None and not future.done():
                    future.set_result(None)
            self._journal_lines += sum(text.count("\n") for text, _, _ in batch)
            if self._needs_compact or self._journal_lines > max(COMPACT_MIN,
                                                                 self._snapshot_size):
                snapshot = self._snapshot()
                try:
                    await asyncio.to_thread(self._compact, snapshot)
                except OSError as exc:
                    self._write_failed(f"{self.path} could not be written ({exc}); the "
                                       f"journal {self.journal.name} keeps the players.")
                else:
                    self._needs_compact = False

    def _write_failed(self, message: str) -> None:
        """Record a failed write in ``write_errors`` and log it for the operator."""
        self.write_errors.append(message)
        log.error("%s", message)

    def _append(self, text: str) -> None:
        fd = os.open(self.journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            size = os.fstat(fd).st_size
            try:
                data = text.encode("utf-8")
                while data:
                    data = data[os.write(fd, data):]
                os.fsync(fd)
            except OSError:
                with contextlib.suppress(OSError):  # no half line left for the next append
                    os.ftruncate(fd, size)
                raise
        finally:
            os.close(fd)

    def _snapshot(self) -> tuple[str, int]:
        """The registry as stored (registrations still being written are left out), and
        how many players that is."""
        players = {code: p.to_dict() for code, p in self._players.items()
                   if code not in self._unsaved}
        return json.dumps({"version": 2, "players": players}), len(players)

    def _compact(self, snapshot: tuple[str, int]) -> None:
        """Write the snapshot (atomically), then empty the journal it includes."""
        write_atomic(self.path, snapshot[0])
        fd = os.open(self.journal, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        self._journal_lines, self._snapshot_size = 0, snapshot[1]

    async def close(self) -> None:
        """Wait until every pending line is written (and retry lines that failed)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)
        if self._needs_compact:
            try:
                await asyncio.to_thread(self._compact, self._snapshot())
            except OSError as exc:
                self._write_failed(f"{self.path} could not be rewritten on closing ({exc}); "
                                   "changes to players the journal could not take are lost.")

    # ------------------------------------------------------------------ loading
    def load(self) -> None:
        """Read the snapshot and the journal, keep unreadable files aside (reported in
        ``problems``), and fold everything into a fresh snapshot."""
        self.read(keep_aside_bad=True)
        self._written = {code: p.seen for code, p in self._players.items()}
        self._compact(self._snapshot())

    def players(self) -> list[Player]:
        """Every registered player (for the owner's listing)."""
        return list(self._players.values())

    def read(self, keep_aside_bad: bool = False) -> None:
        """Read the snapshot and the journal, writing nothing (a running host may own
        them) unless ``keep_aside_bad``: then unreadable files are renamed aside. What
        could not be read is said in ``problems``."""
        self._players.clear()
        self._keys.clear()
        self._by_identity.clear()
        now = self.clock()
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = None
        except OSError as exc:
            raise OSError(exc.errno, f"cannot read {self.path}: {exc.strerror}") from None
        if text is not None:
            try:
                for code, player in self._parse(json.loads(text), now):
                    self._add(code, player)
            except (ValueError, TypeError, AttributeError) as exc:
                if keep_aside_bad:
                    kept = keep_aside(self.path)
                    self.problems.append(f"{self.path} could not be read ({exc}); it was "
                                         f"kept as {kept.name} and players listed only "
                                         "there must choose a name again.")
                else:
                    self.problems.append(f"{self.path} could not be read ({exc})")
                self._players.clear()
                self._keys.clear()
                self._by_identity.clear()
        self._replay_journal(keep_aside_bad)

    @staticmethod
    def _parse(data: object, now: float) -> list[tuple[str, Player]]:
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        if "version" not in data:  # the old format, {code: name}: codes of 32 bits
            bad = [c for c, n in data.items() if not isinstance(n, str)]
            if bad:
                raise ValueError(f"bad entry for {bad[0]!r}")
            return [(code, Player(name, now, legacy=True)) for code, name in data.items()]
        players = data.get("players")
        if data["version"] != 2 or not isinstance(players, dict):
            raise ValueError(f"unknown players format {data['version']!r}")
        return [(code, Player.from_dict(p)) for code, p in players.items()]

    def _replay_journal(self, keep_aside_bad: bool) -> None:
        try:
            raw = self.journal.read_bytes()
        except FileNotFoundError:
            return
        lines = raw.split(b"\n")
        lines.pop()  # an unterminated last line is a write that was never acknowledged
        bad = 0
        for line in lines:
            try:
                entry = json.loads(line)
                code = entry["code"]
                if entry.get("gone"):
                    self._drop(code)
                else:
                    self._add(code, Player.from_dict(entry))
            except (ValueError, TypeError, KeyError, AttributeError):
                bad += 1
        if bad and not keep_aside_bad:
            self.problems.append(f"{self.journal} has {bad} unreadable lines")
        elif bad:
            kept = keep_aside(self.journal)
            self.problems.append(f"{self.journal} had {bad} unreadable lines, which were "
                                 f"skipped; the file was kept as {kept.name}.")

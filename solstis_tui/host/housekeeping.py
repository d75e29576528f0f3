"""The host's housekeeping: tables and resume codes that are no longer needed go, so that
neither idle players nor a flood of quick games can fill the host's memory or disk."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

from ..wire.protocol import DAY
from ..wire.replies import Closed
from .connection import Connection, Whereabouts
from .limits import Limits
from .players import PlayerRegistry
from .tables import Table, TableStore
from .views import Presence, connected, presence


class Housekeeping:
    """Expiry of a host's tables and resume codes. It works on the host's own ``tables``,
    ``conns`` and ``save_locks`` (shared, not copied) and calls ``lobby_changed`` when a
    table goes."""

    def __init__(self, limits: Limits, tables: dict[str, Table], conns: set[Connection],
                 save_locks: dict[str, asyncio.Lock], store: TableStore,
                 players: PlayerRegistry, lobby_changed: Callable[[], None],
                 forfeit: Callable[[Table, float], Awaitable[bool]] | None = None,
                 record: Callable[[Table], Awaitable[bool]] | None = None,
                 clock: Callable[[], float] = time.time, *, where: Whereabouts) -> None:
        """``forfeit(table, now)`` records an abandoned rated game as lost by whoever left
        it (True once stored); such a table goes only after that. ``record(table)`` stores
        a finished game's result (True once stored): a finished table whose result is not
        stored yet is kept, and tried again every round. ``clock`` is the host's time (a
        table's times are taken from it). ``where``: the host's index of who is at each
        table."""
        self.limits = limits
        self.tables = tables
        self.conns = conns
        self.save_locks = save_locks
        self.store = store
        self.players = players
        self.lobby_changed = lobby_changed
        self.forfeit = forfeit
        self.record = record
        self.clock = clock
        self.where = where
        self.unrecorded: set[str] = set()  # abandoned rated tables whose forfeit failed

    async def run(self) -> None:
        """Expire what is due, every so often, until cancelled."""
        while True:
            shortest = min(self.limits.table_expire_seconds, self.limits.open_table_seconds)
            await asyncio.sleep(min(60.0, max(0.05, shortest / 4)))
            with contextlib.suppress(OSError):  # only the note is lost (see restart_clocks)
                await asyncio.to_thread(self.store.note_alive, self.clock())
            await self.forfeit_abandoned()
            await self.record_finished()
            self.expire()
            await self.prune_players()

    async def prune_players(self, now: float | None = None) -> list[str]:
        """Forget resume codes unused for too long, except those of players who are
        connected or seated at a table."""
        keep = {s.code for t in self.tables.values() for s in t.seats if s.code}
        keep |= {c.code for c in self.conns if c.code}
        return await self.players.prune(now, keep)

    def abandoned(self, table: Table, now: float) -> bool:
        """Whether ``table`` holds a game nobody came back to: unfinished, no move and no
        person connected for ``table_expire_seconds`` (the time to come back). A
        correspondence game waits while both players are away: it is abandoned only once
        its player to move let their days run out and ``table_expire_seconds`` more pass
        with no claim (``idle``)."""
        return (not table.game.is_over and table.status() != "open"
                and not self.kept_by_people(table, presence(self.conns))
                and self.idle(table, now))

    @staticmethod
    def kept_by_people(table: Table, present: Presence) -> bool:
        """Whether a person is connected at ``table`` and that keeps it: any table but an
        unfinished correspondence game, which waits for its days, not for who is
        connected."""
        if table.correspondence and not table.game.is_over:
            return False
        return any(s.bot is None and s.code and c
                   for s, c in zip(table.seats, connected(table, present), strict=True))

    def idle(self, table: Table, now: float) -> bool:
        """Whether ``table`` has had no move for long enough to go: ``table_expire_seconds``
        after its last change or, for a correspondence game, after its player to move ran
        out of days."""
        since = table.last_active
        if table.correspondence and not table.game.is_over:
            since = max(since, table.deadline())
        return now - since > self.limits.table_expire_seconds

    def open_wait(self, table: Table) -> float:
        """How long ``table`` waits for a second player: ``open_table_seconds``, or a day
        for a correspondence table (its opponent may read the lobby once a day)."""
        wait = self.limits.open_table_seconds
        return max(wait, DAY) if table.correspondence else wait

    async def forfeit_abandoned(self, now: float | None = None) -> None:
        """Record each abandoned rated game (see ``forfeit``) before ``expire`` takes its
        table away."""
        now = self.clock() if now is None else now
        if self.forfeit is None:
            return
        for table in [t for t in self.tables.values() if t.rated and self.abandoned(t, now)]:
            if await self.forfeit(table, now):
                self.unrecorded.discard(table.id)
            else:
                self.unrecorded.add(table.id)

    def unrecorded_result(self, table: Table) -> bool:
        """Whether ``table``'s finished game has a result not yet stored (kept till then)."""
        return self.record is not None and table.game.is_over and not table.recorded

    async def record_finished(self) -> None:
        """Try again to store each finished game's result that the database refused."""
        if self.record is None:
            return
        for table in [t for t in self.tables.values() if self.unrecorded_result(t)]:
            await self.record(table)

    def expire(self, now: float | None = None) -> list[str]:
        """Drop tables nobody is connected to that have been idle too long, tables still
        waiting for a second player ``open_table_seconds`` after they were made, and
        finished tables beyond those kept (``prune_finished``)."""
        now = self.clock() if now is None else now
        gone = []
        present = presence(self.conns)
        for table in list(self.tables.values()):
            wait = self.open_wait(table)
            waited = table.status() == "open" and now - table.created > wait
            kept = self.kept_by_people(table, present) or not self.idle(table, now)
            if ((not waited and kept) or table.id in self.unrecorded
                    or self.unrecorded_result(table)):
                continue
            hours = self.limits.table_expire_seconds / 3600
            why = (f"nobody took the open seat at table {table.id} in {wait / 60:g} minutes"
                   if waited else f"the player to move at table {table.id} let their days "
                   f"run out, and nobody claimed the game for {hours:g} hours more"
                   if table.correspondence and not table.game.is_over
                   else f"table {table.id} had no move and no player for {hours:g} hours")
            if self._close(table, why):
                gone.append(table.id)
        return gone + self.prune_finished()

    def prune_finished(self) -> list[str]:
        """Close the finished tables beyond the most recent ``finished_tables_per_player``
        of each player and ``max_finished_tables`` on the host (newest kept first)."""
        finished = sorted((t for t in self.tables.values() if t.game.is_over),
                          key=lambda t: t.last_active, reverse=True)
        kept: dict[str, int] = {}
        count, gone = 0, []
        per_player, on_host = (self.limits.finished_tables_per_player,
                               self.limits.max_finished_tables)
        for table in finished:
            if self.unrecorded_result(table):
                continue  # kept, and not counted, until its result is stored
            codes = {s.code for s in table.seats if s.code}
            mine = any(kept.get(code, 0) >= per_player for code in codes)
            if not mine and count < on_host:
                count += 1
                for code in codes:
                    kept[code] = kept.get(code, 0) + 1
                continue
            why = (f"the host keeps each player's {per_player} latest finished games"
                   if mine else f"the host keeps its {on_host} latest finished games")
            if self._close(table, f"{why} and table {table.id} is older"):
                gone.append(table.id)
        return gone

    def _close(self, table: Table, why: str) -> bool:
        """Close ``table``, telling everyone at it ``why``; False (nothing done) while a
        save of it is landing (the next round takes it)."""
        lock = self.save_locks.get(table.id)
        if lock is not None and lock.locked():
            return False
        for conn in self.where.audience(table.id):
            conn.push(Closed(table.id, f"{why}, so it was closed"))
            conn.seated.discard(table.id)
            conn.watching.discard(table.id)
        del self.tables[table.id]
        self.lobby_changed()
        self.save_locks.pop(table.id, None)
        self.store.delete(table.id)
        return True

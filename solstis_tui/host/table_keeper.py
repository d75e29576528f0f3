"""The host's tables and their one transaction: a change is made to a copy, the copy is
saved, and only then does it take the table's place; then everyone at the table is told.

``commit`` keeps a table's changes in order (a lock a table) and leaves a table as it was,
in memory and on disk, when the change is refused or the disk refuses the save.
``after_change`` is what follows a stored change: a finished game's result is recorded
(and queued for the analyst), everyone at the table gets their own view, the bots are
asked to play, and an older finished table may go. The lobby's order is kept here too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..wire.protocol import ProtocolError
from ..wire.replies import Closed
from .connection import Connection, Whereabouts
from .tables import Table, TableStore
from .views import LobbyLook, LobbyOrder, lobby_page, seat_presence, state_message

if TYPE_CHECKING:
    from .admission import Door
    from .analyst import Analyst
    from .limits import Limits
    from .standings import Standings


class TableKeeper:
    """Holds ``tables`` and the connections told of them (``conns``)."""

    def __init__(self, tables: dict[str, Table], conns: set[Connection], store: TableStore,
                 door: Door, standings: Standings, analyst: Analyst, limits: Limits,
                 clock: Callable[[], float], where: Whereabouts | None = None) -> None:
        self.tables = tables
        self.conns = conns
        self.where = where or Whereabouts()  # who is at each table (the host's index)
        self.store = store
        self.door = door
        self.standings = standings
        self.analyst = analyst
        self.limits = limits
        self.clock = clock
        self.save_locks: dict[str, asyncio.Lock] = {}
        self.schedule: Callable[[Table], None] = lambda _table: None
        """Asks the bots to play at a table (``BotSeats.schedule``, set once it exists)."""
        self.prune: Callable[[], object] = lambda: None
        """Lets an older finished table go (``Housekeeping.prune_finished``, set likewise)."""
        self._lobby: LobbyOrder | None = None  # the lobby's order (see lobby_page)
        self.lobby_moved: Callable[[bool], None] = lambda _order: None
        """Something the lobby shows changed (``LobbyPush.changed``, set once it exists)."""

    async def commit(self, table: Table, change: Callable[[Table], None], what: str, *,
                     active: bool = True) -> Table:
        """Make ``change`` to a copy of ``table`` (as it now stands: looked up by its id),
        store the copy, then put it in the table's place, and return it. The host's clock
        is read once: the table was active then (unless not ``active``: a watcher noted
        keeps no table alive), and a new decision's clock starts then. A
        ProtocolError from ``change``, or ``storage`` if the save failed, leaves the table
        as it was, in memory and on disk. The lock keeps a table's changes in order."""
        lock = self.save_locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            old = self.tables.get(table.id)
            if old is None:  # closed while this change waited
                raise ProtocolError("no_table", f"table {table.id} was closed")
            new = old.copy()
            change(new)
            now = self.clock()
            if active:
                new.last_active = now
            if (len(new.game.history), new.status()) != (len(old.game.history), old.status()):
                new.start_decision(old, now)  # a new decision: its clock starts
            await self.save(new, what)
            self.tables[table.id] = new  # nothing closes a table while its save holds the lock
            if new.status() != old.status():
                self.lobby_changed()
            else:
                self.lobby_moved(False)  # its turn, whose move, its seats
            return new

    async def add(self, table: Table) -> None:
        """Store the new ``table``, then list it (the caller holds the host's create lock:
        its caps and the new table are one step)."""
        await self.save(table, "the new table")  # listed only once it is stored
        self.tables[table.id] = table
        self.lobby_changed()

    async def after_change(self, table: Table) -> None:
        """Tell everyone at ``table`` (as it now stands: looked up by its id, since a stored
        change puts a new Table in its place) about a change that is stored; a game that
        ended is recorded, and may make an older finished table go."""
        current = self.tables.get(table.id)
        if current is None:
            return  # it went meanwhile: nobody is at it any more
        table = current
        if table.game.is_over and await self.standings.record(table):
            self.analyst.submit(table.game_id)
        await self.broadcast(table)
        self.schedule(table)
        if table.game.is_over:
            self.prune()

    async def record_again(self, table: Table) -> bool:
        """Store a finished game's result the database refused before (housekeeping tries
        each round); once stored, everyone at the table and the lobby are told, as when it
        is stored at once (``after_change``). True once stored."""
        if not await self.standings.record(table):
            return False
        self.analyst.submit(table.game_id)
        self.lobby_changed()
        await self.broadcast(table)
        return True

    async def close_open(self, table: Table, why: str, taken: str,
                         but: Connection | None = None) -> None:
        """Close ``table``, still open (nobody sat down since), and tell everyone at it
        but ``but`` ``why``. ProtocolError ``no_table`` if it went meanwhile, ``stale``
        (saying ``taken``) if a seat was taken meanwhile."""
        async with self.save_locks.setdefault(table.id, asyncio.Lock()):
            current = self.tables.get(table.id)
            if current is None:
                raise ProtocolError("no_table", f"table {table.id} was closed")
            if current.status() != "open":
                raise ProtocolError("stale", taken)
            del self.tables[table.id]
            self.lobby_changed()
            self.store.delete(table.id)
        self.save_locks.pop(table.id, None)
        for other in self.where.audience(table.id):
            other.seated.discard(table.id)
            other.watching.discard(table.id)
            if other is not but:
                other.push(Closed(table.id, why))

    async def save(self, table: Table, what: str) -> None:
        """Save in a worker thread so the disk never stalls other tables; ``storage``
        error (saying what was not saved) if the disk refuses."""
        try:
            await asyncio.to_thread(self.store.write, table.id, self.store.snapshot(table))
        except OSError as exc:
            raise self.door.refused(exc, what) from None

    async def broadcast(self, table: Table) -> None:
        """Each connection at ``table`` gets its own view of it (``views.state_message``)."""
        present = seat_presence(table, self.where)
        for conn in self.where.audience(table.id):
            seat = table.seat_of(conn.code) if table.id in conn.seated else None
            conn.push(state_message(table, seat, present, self.standings.rating_text,
                                    self.clock()))

    def lobby_changed(self) -> None:
        """A table came, went or changed status: the lobby's order is made afresh."""
        self._lobby = None
        self.lobby_moved(True)

    def lobby_page(self, code: str | None, offset: int = 0) -> dict[str, Any]:
        """One page of the lobby for the player with ``code`` (see views). The order is
        kept between requests and sorted again only after a table came, went or changed
        its status (so a client listing often costs the host little)."""
        return lobby_page(self.lobby_order(), LobbyLook(self.conns, self.standings.rating_text),
                          code, offset, self.limits.page_size)

    def lobby_order(self) -> LobbyOrder:
        """The lobby's order as it stands (made afresh after a table came, went or changed
        its status)."""
        if self._lobby is None or len(self._lobby) != len(self.tables):
            self._lobby = LobbyOrder(self.tables)
        return self._lobby

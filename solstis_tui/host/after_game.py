"""What the host offers after a game: a player's list of their finished games, a game's
record (only to those who played or watched it, only once it is over), and the rematch (a
new table for the same two players, offered to the other one, who accepts or declines).

A part of the host (``Host.after_game``): it changes tables through the keeper's one
transaction (``TableKeeper``) and checks the player's quotas (``Quotas``), as the table
messages do.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ..wire.messages import Decline, FetchRecord, MyGames, Rematch
from ..wire.protocol import MAX_MESSAGE, ProtocolError
from ..wire.replies import (
    Declined,
    Games,
    HostReply,
    Joined,
    Record,
    RematchOffer,
    RematchOffered,
)
from .archive import reader_key
from .connection import Connection
from .quotas import Quotas, identity
from .table_keeper import TableKeeper
from .tables import MAX_WATCHERS, Seat, Table, new_table

if TYPE_CHECKING:
    from .admission import Door
    from .ratings import Ratings


#: What a record's message keeps free besides the record and its analysis (the "id" a
#: client may add, the line's end).
ROOM_TO_SPARE = 1024
#: The one answer to a record nobody may have: no such game, not over, or not yours.
NO_RECORD = "no finished game you played or watched has that id"


class AfterGame:
    """The host's handlers of ``games``, ``record``, ``rematch`` and ``decline``, and the
    watchers a table remembers. ``join(conn, table)`` seats a player (accepting a rematch
    offered to them is joining its table)."""

    def __init__(self, keeper: TableKeeper, quotas: Quotas, ratings: Ratings, door: Door,
                 create_lock: asyncio.Lock,
                 join: Callable[[Connection, Table], Awaitable[HostReply | None]]
                 ) -> None:
        self.keeper = keeper
        self.quotas = quotas
        self.ratings = ratings
        self.door = door
        self.limits = keeper.limits
        self.create_lock = create_lock
        self.join = join

    def reader(self, conn: Connection) -> str:
        """``conn``'s player as a reader of records (see ``archive.reader_key``)."""
        key = reader_key(identity(conn), conn.code)
        if key is None:  # said hello: it has a code
            raise ProtocolError("hello_first", "say hello first")
        return key

    # ------------------------------------------------------------------ records
    async def remember_watcher(self, conn: Connection, table: Table) -> bool:
        """``conn`` watches ``table``'s game while it is played: they may read its record
        once it is over (the first ``MAX_WATCHERS`` watchers; the table's file keeps them).
        Whether they may (a player may too); ``storage`` if the disk refused (then nothing
        changed)."""
        key = self.reader(conn)
        if table.game.is_over or key in table.watchers or len(table.watchers) >= MAX_WATCHERS:
            return self._may_read(table, key)

        def watched(t: Table) -> None:
            if not t.game.is_over and key not in t.watchers and len(t.watchers) < MAX_WATCHERS:
                t.watchers = (*t.watchers, key)

        # The game may end, or the watchers fill up, while the change waits its turn.
        return self._may_read(await self.keeper.commit(
            table, watched, "you as a watcher", active=False), key)

    @staticmethod
    def _may_read(table: Table, key: str) -> bool:
        """Whether the reader ``key`` will be given ``table``'s record once its game is
        over: a watcher remembered, or one of its players (by the key records go by)."""
        return key in table.watchers or any(
            reader_key(seat.identity, seat.code) == key for seat in table.seats)

    async def games(self, conn: Connection, msg: MyGames) -> Games:
        """A page of the finished games the player played or watched, newest first."""
        reader = self.reader(conn)
        self._spend(conn)
        try:
            rows, total = await self.ratings.games_of_reader(reader, msg.offset)
        except OSError as exc:
            raise self.door.refused(exc, "your list of games") from None
        live = self._still_played()
        rows = [row for row in rows if row.get("game") not in live]
        return Games(rows, msg.offset, total)

    async def record(self, conn: Connection, msg: FetchRecord) -> Record:
        """The record of a finished game the player played or watched; ``no_record``,
        the same for every other id, otherwise."""
        reader = self.reader(conn)
        self._spend(conn)
        try:
            found = await self.ratings.record_for(reader, msg.game)
        except OSError as exc:
            raise self.door.refused(exc, "the record") from None
        if found is None or msg.game in self._still_played():
            raise ProtocolError("no_record", NO_RECORD)
        text, seat = found
        reply = Record(msg.game, seat, text)
        # The analysis judged here once (``analyst``), if it fits in the message with it.
        room = MAX_MESSAGE - len(json.dumps(reply.wire(), ensure_ascii=False)) - ROOM_TO_SPARE
        kept = self.keeper.analyst.kept(msg.game, room)
        return reply if kept is None else Record(msg.game, seat, text, kept)

    def _still_played(self) -> set[str]:
        """The games still being played at a table. A forfeit is stored (with its record)
        before the table goes; a player back in time plays on, and the record, which
        gives the deal away, must wait for the real end."""
        return {t.game_id for t in self.keeper.tables.values() if not t.game.is_over}

    def _spend(self, conn: Connection) -> None:
        self.quotas.spend(conn, "records", self.limits.records_per_minute,
                         "lists of games and records a minute")

    # ------------------------------------------------------------------ rematch
    def offer_of(self, old: Table) -> Table | None:
        """The table of the rematch of ``old``'s game, waiting or being played, if one was
        offered."""
        return next((t for t in self.keeper.tables.values()
                     if t.rematch_of == old.game_id and t.status() != "over"), None)

    async def rematch(self, conn: Connection, old: Table, msg: Rematch) -> HostReply | None:
        """After the game at ``old``: accept the other player's offer if there is one (or go
        back to the rematch being played); say the offer again if it is the sender's own;
        else make the new table (seats swapped,
        a new secret deal, the same variant, rating, clock and bank) and offer it to the
        other player (a bot takes its seat at once)."""
        seat = old.seat_of(conn.code)
        if seat is None:
            raise ProtocolError("not_seated", "you did not play at this table")
        if not old.game.is_over:
            raise ProtocolError("not_over", "the game is still being played: a rematch "
                                "comes after it")
        other = old.seats[1 - seat]
        async with self.create_lock:  # two players asking at once meet at one table
            offer = self.offer_of(old)
            if offer is None:
                if other.bot is None and not old.correspondence and not any(
                        c.code == other.code and not c.closed for c in self.keeper.conns):
                    # (a correspondence rematch waits a day for them, in their lobby)
                    raise ProtocolError("not_here", f"{other.name} has left the host: "
                                        "there is nobody to offer a rematch to")
                seats = [Seat(), Seat()]
                seats[1 - seat] = Seat(conn.name, conn.code,
                                       identity=identity(conn))
                seats[seat] = (Seat(other.name, None, other.bot, other.identity) if other.bot
                               else Seat(other.name, kept_for=other.code))
                new = await self._new_table(conn, old, seats)
        if offer is not None:
            if offer.status() == "open" and offer.seat_of(conn.code) is not None:
                # asked twice: one offer stands (once it is played, asking again joins it);
                # told again (the other may have missed it), from the records' allowance
                self._spend(conn)
                self._tell_offer(old, offer, conn.name)
                return RematchOffered(old.id, offer.id)
            return await self.join(conn, offer)  # the other's offer: accepted
        conn.seated.add(new.id)
        conn.push(Joined(new.id, 1 - seat))
        await self.keeper.broadcast(new)
        self.keeper.schedule(new)
        if other.bot is not None:
            return None
        self._tell_offer(old, new, conn.name)
        return RematchOffered(old.id, new.id)

    async def _new_table(self, conn: Connection, old: Table, seats: list[Seat]) -> Table:
        """The rematch table of ``old`` with ``seats``, stored and listed (the caller holds
        the host's ``create_lock``: the caps and the new table are one step)."""
        self.quotas.check_caps(conn, against_bot=any(s.bot for s in seats),
                               correspondence=old.correspondence)
        self.quotas.spend(conn, "tables", self.limits.new_tables_per_minute,
                          "new tables a minute")
        while True:
            new = new_table(old.game.options, seats, old.rated, old.clock, self.keeper.clock(),
                            old.bank, old.days)
            if new.id not in self.keeper.tables:
                break
        new.rematch_of = old.game_id
        await self.keeper.add(new)
        return new

    def _tell_offer(self, old: Table, new: Table, name: str | None) -> None:
        """Offer ``new`` to the player its open seat is kept for, on each of their
        connections."""
        kept = next((s for s in new.seats if s.kept_for is not None), None)
        if kept is None:
            return
        for other in self.keeper.conns:
            if other.code == kept.kept_for and not other.closed:
                other.push(RematchOffer(old.id, new.id, name, new.rated))

    async def decline(self, conn: Connection, table: Table, msg: Decline) -> Declined:
        """No to the rematch offered at ``table``: it closes, and its maker is told."""
        if table.status() != "open" or not any(s.kept_for == conn.code for s in table.seats):
            raise ProtocolError("no_offer", "no rematch is offered to you at that table")
        await self.keeper.close_open(table, f"{conn.name} declined the rematch",
                                   "that offer is not open any more; look again")
        return Declined(table.id)


"""What one player may take of the host: tables (unfinished, open, against bots), guests'
shared share, the bots' capacity, rated tables, and allowances per minute.

Every refusal is a ``ProtocolError`` saying what the limit is and what to do; a refused
request changes nothing and costs no allowance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..wire.protocol import ProtocolError
from .connection import Connection
from .limits import Limits, TokenBucket, per_minute
from .tables import Table

if TYPE_CHECKING:
    from .botpool import Bots
    from .players import PlayerRegistry

#: Allowances kept before those used up by nobody now are forgotten.
MAX_ALLOWANCES = 10_000


def identity(conn: Connection) -> str | None:
    """Who ``conn`` is for ratings (None: a guest or the host's own account)."""
    return None if conn.who.guest else conn.who.id


class Quotas:
    """The host's limits applied to a player, over its ``tables`` as they stand."""

    def __init__(self, limits: Limits, tables: dict[str, Table], players: PlayerRegistry,
                 bots: Bots) -> None:
        self.limits = limits
        self.tables = tables
        self.players = players
        self.bots = bots
        #: allowances per identity and kind (chat lines, new tables): token buckets
        self.allowances: dict[tuple[str, str], TokenBucket] = {}

    def spend(self, conn: Connection, what: str, per_minute_cap: float, said: str) -> None:
        """Take one from the identity's allowance of ``what`` (all of a key's or a Unix
        user's connections share one, all guests share one; the host's own account counts
        per player); ``too_many`` when it is used up."""
        who = conn.who.id or f"code:{conn.code}"
        if len(self.allowances) >= MAX_ALLOWANCES:  # forget those nobody is spending
            self.allowances = {k: b for k, b in self.allowances.items() if not b.full()}
        bucket = self.allowances.setdefault((who, what), per_minute(per_minute_cap))
        if not bucket.take():
            shared = " (all guests together)" if conn.who.guest else ""
            raise ProtocolError("too_many", f"at most {per_minute_cap:g} {said}{shared}: "
                                "wait a little")

    def check_caps(self, conn: Connection, *, against_bot: bool | None,
                   correspondence: bool = False) -> None:
        """Refuse one more table for this player (``against_bot`` None: a seat taken at an
        open table, which adds no open table) beyond the limits. Live and correspondence
        tables are capped apart (``correspondence``: the new table's kind): a player's
        slow games never keep them from a quick one."""
        unfinished = [t for t in self.tables.values()
                      if t.seat_of(conn.code) is not None and not t.game.is_over]
        mine = [t for t in unfinished if t.correspondence == correspondence]
        if conn.who.guest:
            self._check_guest_caps(against_bot)
        cap = (self.limits.correspondence_tables_per_player if correspondence
               else self.limits.tables_per_player)
        if len(mine) >= cap:
            kind = "correspondence" if correspondence else "live"
            raise ProtocolError("too_many", f"you already sit at {len(mine)} unfinished "
                                f"{kind} tables here: finish one first")
        cap = self.limits.bot_tables_per_player
        bot_games = sum(1 for t in unfinished if any(s.bot for s in t.seats))
        if against_bot and bot_games >= cap:  # live and correspondence together
            raise ProtocolError("too_many", f"you already have {cap} unfinished games against "
                                "bots here: finish one first")
        if against_bot and self.bot_tables() >= self.bot_capacity():
            raise ProtocolError("busy", "the bots here are all busy with "
                                f"{self.bot_tables()} games: try again in "
                                f"{self.limits.bot_busy_retry_seconds // 60:g} minutes (or "
                                "play a friend meanwhile)")
        if against_bot is not False:
            return
        cap = self.limits.open_tables_per_player
        if sum(t.status() == "open" for t in mine) >= cap:
            raise ProtocolError("too_many", f"you already have {cap} tables waiting for a "
                                "player here: wait for someone to join one first")
        waiting = sum(t.status() == "open" for t in self.tables.values())
        if waiting >= self.limits.max_open_tables:
            raise ProtocolError("busy", f"{self.limits.max_open_tables} tables are already "
                                "waiting for a player here: join one of them, or try later")

    def bot_tables(self) -> int:
        """Unfinished games against a bot, host-wide (a correspondence game's too: its bot
        answers at once, so a player who moves at once makes it a live one)."""
        return sum(1 for t in self.tables.values()
                   if not t.game.is_over and any(seat.bot for seat in t.seats))

    def bot_capacity(self) -> int:
        """Unfinished games against bots the host takes: the bot workers it has now (its
        own and the fleet's) times ``Limits.bot_tables_per_worker``."""
        return self.bots.capacity() * self.limits.bot_tables_per_worker

    def _check_guest_caps(self, against_bot: bool | None) -> None:
        """Guests share their allowances: a guest can always come back under a new name,
        so caps per name would bound nothing."""
        guests = [t for t in self.tables.values() if not t.game.is_over and any(
            s.code is not None and self.players.identity_of(s.code) == "guest"
            for s in t.seats)]
        if len(guests) >= self.limits.guest_tables:
            raise ProtocolError("busy", f"guests sit at {len(guests)} unfinished tables here "
                                "already, all guests together: ask the host's owner to add "
                                "your key, or try later")
        cap = self.limits.guest_bot_tables
        if against_bot and sum(any(s.bot for s in t.seats) for t in guests) >= cap:
            raise ProtocolError("busy", f"guests play {cap} unfinished games against bots "
                                "here already, all guests together: try later")

    @staticmethod
    def check_rated(conn: Connection) -> None:
        """Refuse a rated table to a player the host does not know by key or account."""
        if identity(conn) is None:
            raise ProtocolError("unrated_only", "a rated table is for players the host knows "
                                "by their key or their account; "
                                + ("guests" if conn.who.guest else "this connection")
                                + " can play unrated tables")

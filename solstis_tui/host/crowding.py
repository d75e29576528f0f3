"""Who makes room when the host is full: a silent socket first, and for a player coming
back to an unfinished game, another player's second window or someone with no game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from ..wire.protocol import ProtocolError
from ..wire.replies import Error
from .connection import Connection
from .tables import Table

#: Connections accepted past the cap while they say who they are (see ``Host._client``).
OVERFLOW = 16
#: Seconds such a connection has to say hello.
OVERFLOW_HELLO_SECONDS = 10.0


def oldest_silent(conns: Iterable[Connection]) -> Connection | None:
    """The connection that has waited longest without saying hello, if any."""
    silent = [c for c in conns if c.code is None and not c.closed]
    return min(silent, key=lambda c: c.hello_by) if silent else None


def plays(conn: Connection, tables: Mapping[str, Table]) -> bool:
    """Whether ``conn`` sits at a table whose game is not over."""
    return any((t := tables.get(table_id)) is not None and not t.game.is_over
               for table_id in conn.seated)


def displaceable(conns: Iterable[Connection], newcomer: Connection,
                 tables: Mapping[str, Table]) -> Connection | None:
    """The connection whose place a player coming back to an unfinished game takes when
    the host is full: the quietest second window of a player with several, else the
    quietest connection of a player with no unfinished game; None if every connection
    is the only one of a player in a game."""
    others = [c for c in conns if c is not newcomer and c.code is not None and not c.closed]
    windows = Counter(c.code for c in others)
    for candidates in ([c for c in others if windows[c.code] > 1],
                       [c for c in others if not plays(c, tables)]):
        if candidates:
            return min(candidates, key=lambda c: c.last_message)
    return None


class Crowd:
    """The host's connections against its cap (``cap``: ``Limits.connection_cap``):
    which count, who makes room, and what a refused connection is told. It works on the
    host's own ``conns`` and ``tables`` (shared, not copied)."""

    def __init__(self, conns: set[Connection], tables: Mapping[str, Table], cap: int) -> None:
        self.conns = conns
        self.tables = tables
        self.cap = cap
        self.refusing = 0  # connections being refused right now
        self.closing = 0  # connections hanging up (see Connection.hang_up)

    def taken(self) -> int:
        """Connections counted against the cap (those hanging up included)."""
        return len(self.conns) + self.closing

    def full(self) -> str:
        return (f"the host is full ({self.cap} players connected); try again in a few "
                "minutes")

    def make_room(self) -> None:
        """The host is full: drop the oldest connection that has not said hello yet (a
        real client says hello as it connects), so that silent sockets lock nobody out."""
        oldest = oldest_silent(self.conns)
        if oldest is not None:
            self.drop(oldest, "timeout", "the host is full and you said no hello")

    def drop(self, conn: Connection, code: str, why: str) -> None:
        conn.push(Error(code, f"{why}; disconnected"))
        conn.drop()
        self.conns.discard(conn)

    def find_place(self, conn: Connection, in_game: bool) -> None:
        """``conn`` came past the cap: a silent connection makes room if there is one;
        otherwise it stays only as a player coming back to a game (``in_game``), in the
        place of a connection ``displaceable`` names (busy, and closed, otherwise)."""
        conn.overflow = False
        if self.taken() > self.cap:
            self.make_room()
        if self.taken() <= self.cap:
            return  # someone left meanwhile, or a silent connection made room
        other = displaceable(self.conns, conn, self.tables) if in_game else None
        if other is None:
            conn.code = conn.name = None
            raise ProtocolError("busy", self.full(), close=True)
        self.drop(other, "busy", "the host is full and a player coming back to a game "
                  "needed a place")

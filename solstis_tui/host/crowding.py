"""Who makes room when the host is full: a silent socket first, and for a player coming
back to an unfinished game, another player's second window or someone with no game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

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

"""The lobby as the host sends it: one bounded page of rows, so that no message can outgrow
what a client reads, however many tables there are."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from .connection import Connection
from .tables import Table

RANK = {"open": 1, "playing": 2, "over": 3}


def lobby_page(tables: Iterable[Table], conns: Iterable[Connection], code: str | None,
               offset: int, size: int) -> dict[str, Any]:
    """At most ``size`` rows from ``offset``, and how many rows there are: the player's
    own tables, then tables waiting for a player, games in play and finished ones, newest
    first in each group. Resume codes are never listed."""
    order = sorted(tables, key=lambda t: (
        0 if code and t.seat_of(code) is not None else RANK[t.status()], -t.created))
    live = [c for c in conns if not c.closed]
    present = {(table_id, c.code) for c in live for table_id in c.seated}
    watchers = Counter(table_id for c in live for table_id in c.watching)
    rows = [{
        "table": table.id,
        "variant": table.variant,
        "status": table.status(),
        "turn": table.game.turn,
        "seats": [{"name": s.name, "bot": s.bot,
                   "connected": s.bot is not None or (table.id, s.code) in present}
                  for s in table.seats],
        "watchers": watchers[table.id],
    } for table in order[offset:offset + size]]
    return {"tables": rows, "offset": offset, "total": len(order)}

"""What the host shows its clients: the lobby, one bounded page at a time (so that no
message can outgrow what a client reads, however many tables there are), and each seat's
view of a table (exactly what that seat may know)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from itertools import chain, islice
from typing import Any

from ..core.observation import observe
from ..core.observation_json import observation_to_dict
from .connection import Connection
from .rating_rules import unrated_reason
from .tables import Table

RANK = {"open": 1, "playing": 2, "over": 3}

#: Who is where: (table id, seat code) for every live seated connection, and (LOBBY, code)
#: for every player with a live connection at all (at a table or not).
Presence = set[tuple[str, str | None]]
#: The table id that stands for the host itself in a Presence (no table has this id).
LOBBY = ""
#: A seat identity's rating as shown ("1580", "1500?" while provisional; None: unrated).
RatingOf = Callable[[str | None], str | None]


def _unrated(identity: str | None) -> str | None:
    return None


def presence(conns: Iterable[Connection]) -> Presence:
    """Which players are connected at which of their tables, and which at the host."""
    present: Presence = set()
    for c in conns:
        if not c.closed:
            present.update((table_id, c.code) for table_id in c.seated)
            present.add((LOBBY, c.code))
    return present


def audience(conns: Iterable[Connection], table: Table) -> list[Connection]:
    """The live connections seated at or watching ``table``."""
    return [c for c in conns if table.id in c.seated | c.watching and not c.closed]


def connected(table: Table, present: Presence) -> list[bool]:
    """For each seat: a bot, or a person connected at this table."""
    return [s.bot is not None or (table.id, s.code) in present for s in table.seats]


def seat_rows(table: Table, present: Presence,
              rating_of: RatingOf = _unrated) -> list[dict[str, Any]]:
    """The seats as clients see them: names, bots and ratings, never resume codes.
    ``in_lobby``: a person who is not at this table but still connected to the host (they
    went back to the lobby, or to another table), as against one whose connection is gone.
    An open seat has no name; one kept for a rematch says for whom (``kept_for``)."""
    return [{"name": None if s.is_open else s.name, "bot": s.bot, "connected": c,
             "in_lobby": not c and s.code is not None and (LOBBY, s.code) in present,
             "rating": rating_of(s.identity),
             **({"kept_for": s.name} if s.is_open and s.kept_for else {})}
            for s, c in zip(table.seats, connected(table, present), strict=True)]


class LobbyOrder:
    """The lobby's order, worked out once while no table comes, goes or changes status:
    tables waiting for a player, games in play, finished ones, newest first in each; and
    each player's own tables, which their pages list first. It keeps table ids, and shows
    each table as ``tables`` (the host's own, shared) holds it now: a stored move puts a
    new Table in its old one's place without changing the order."""

    def __init__(self, tables: Mapping[str, Table]) -> None:
        self.tables = tables
        self.order = [t.id for t in sorted(tables.values(),
                                           key=lambda t: (RANK[t.status()], -t.created))]
        self.mine: dict[str, list[str]] = {}
        for table_id in self.order:
            # a seat kept for a player (a rematch offered to them) is among their tables
            for code in {c for s in tables[table_id].seats if (c := s.code or s.kept_for)}:
                self.mine.setdefault(code, []).append(table_id)

    def __len__(self) -> int:
        return len(self.order)

    def page(self, code: str | None, offset: int, size: int) -> list[Table]:
        """At most ``size`` tables from ``offset``, the player's own first (the cost grows
        with ``offset + size``, not with the number of tables)."""
        mine = self.mine.get(code, []) if code else []
        own = set(mine)
        everyone = chain(mine, (t for t in self.order if t not in own))
        ids = islice(everyone, offset, offset + size)
        return [table for t in ids if (table := self.tables.get(t)) is not None]


def lobby_page(order: LobbyOrder, conns: Iterable[Connection], code: str | None,
               offset: int, size: int, rating_of: RatingOf = _unrated) -> dict[str, Any]:
    """One page of the lobby for the player with ``code``, and how many rows there are.
    Resume codes are never listed."""
    live = [c for c in conns if not c.closed]
    present = presence(live)
    watchers = Counter(table_id for c in live for table_id in c.watching)
    rows = [{
        "table": table.id,
        "variant": table.variant,
        "status": table.status(),
        "turn": table.game.turn,
        "seats": seat_rows(table, present, rating_of),
        "rated": table.rated,
        "clock": round(table.clock),
        "bank": round(table.bank),
        "watchers": watchers[table.id],
    } for table in order.page(code, offset, size)]
    return {"tables": rows, "offset": offset, "total": len(order)}


def unrated_text(table: Table) -> str | None:
    """Why the game at a rated ``table`` will be played unrated, as its players read it
    (None: it counts, or it is not rated)."""
    if not table.rated or not table.unrated:
        return None
    names = (table.seats[0].name or "?", table.seats[1].name or "?")
    return unrated_reason(table.unrated, names)


def state_message(table: Table, seat: int | None, present: Presence,
                  rating_of: RatingOf = _unrated, now: float | None = None) -> dict[str, Any]:
    """The ``state`` message for ``seat`` (None: a watcher, who sees no hand); ``now``
    (the move clock's time) gives ``time_left``, the seconds the player to move has."""
    game = table.game
    seats = seat_rows(table, present, rating_of)
    if table.changes is not None:  # a rated game just recorded: what it did to each
        for row, change in zip(seats, table.changes, strict=True):
            row["change"] = change
    obs = observe(game, seat, spectator=False) if seat is not None else observe(
        game, 0, spectator=True)
    ended = {"game": table.game_id} if game.is_over else {}  # its record's id (see archive)
    return {
        "type": "state",
        "table": table.id,
        **ended,
        "seat": seat,
        "seats": seats,
        "rated": table.rated,
        "counts": table.counts(),
        "unrated": unrated_text(table),
        "clock": round(table.clock),
        "time_left": None if now is None or not table.clocks_run()
        else max(0, round(table.decision_since + table.clock - now)),
        "bank": round(table.bank),
        "bank_left": None if now is None or not table.clocks_run()
        else [max(0, round(table.bank_left(seat, now))) for seat in (0, 1)],
        "scores": [game.score(0).total, game.score(1).total],
        "observation": observation_to_dict(obs),
    }

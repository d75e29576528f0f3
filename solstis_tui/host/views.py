"""What the host shows its clients: the lobby, one bounded page at a time (so that no
message can outgrow what a client reads, however many tables there are), and each seat's
view of a table (exactly what that seat may know)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from itertools import chain, islice
from typing import Any

from ..core.observation import observe
from ..core.observation_json import observation_to_dict
from ..wire.replies import State
from .connection import Connection, Whereabouts
from .rating_pools import pool_key, pool_of_days
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
        if not c.closed and not c.probe:  # a --waiting probe is nowhere
            present.update((table_id, c.code) for table_id in c.seated)
            present.add((LOBBY, c.code))
    return present


def seat_presence(table: Table, where: Whereabouts) -> Presence:
    """``presence`` for what ``table``'s seats show: whether each seat's player is
    connected at the table and at the host (read from the index, not from every
    connection)."""
    present: Presence = set()
    for seat in table.seats:
        for conn in where.of_code(seat.code):
            present.add((LOBBY, seat.code))
            if table.id in conn.seated:
                present.add((table.id, seat.code))
    return present


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
             "rating": rating_of(pool_key(s.identity, pool_of_days(table.days))),
             **({"kept_for": s.name} if s.is_open and s.kept_for else {})}
            for s, c in zip(table.seats, connected(table, present), strict=True)]


class LobbyOrder:
    """The lobby's order, worked out once while no table comes, goes or changes status:
    tables waiting for a player, games in play, finished ones, newest first in each; and
    each player's own tables, which their pages list first (those waiting for their move
    first of all). It keeps table ids, and shows each table as ``tables`` (the host's
    own, shared) holds it now: a stored move puts a new Table in its old one's place
    without changing the order."""

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

    def own(self, code: str | None) -> list[str]:
        """The tables of the player with ``code``: those waiting for their move first."""
        mine = self.mine.get(code, []) if code else []
        waiting = self.waiting(code)
        if not waiting:
            return mine
        first = set(waiting)
        return waiting + [t for t in mine if t not in first]

    def waiting(self, code: str | None) -> list[str]:
        """The ids of the games waiting for a move of the player with ``code``."""
        if not code:
            return []
        return [t for t in self.mine.get(code, ())
                if (table := self.tables.get(t)) is not None and table.waits_for(code)]

    def page(self, code: str | None, offset: int, size: int) -> list[Table]:
        """At most ``size`` tables from ``offset``, the player's own first (the cost grows
        with ``offset + size`` and the player's own tables, not with the number of
        tables)."""
        if offset >= len(self.order):
            return []  # past the end (each player's own tables are among the order's)
        mine = self.own(code)
        own = set(mine)
        everyone = chain(mine, (t for t in self.order if t not in own))
        ids = islice(everyone, offset, offset + size)
        return [table for t in ids if (table := self.tables.get(t)) is not None]


class LobbyLook:
    """What every page of the lobby shares at one moment: who is where, who watches what,
    and each table's row, made once however many pages show it (see ``lobby_push``)."""

    def __init__(self, conns: Iterable[Connection], rating_of: RatingOf = _unrated) -> None:
        live = [c for c in conns if not c.closed]
        self.present = presence(live)
        self.watchers = Counter(table_id for c in live for table_id in c.watching)
        self.rating_of = rating_of
        self.rows: dict[str, bytes] = {}

    def row(self, table: Table) -> dict[str, Any]:
        """The lobby's row of ``table``: what anyone may see of it."""
        return {
            "table": table.id,
            "variant": table.variant,
            "status": table.status(),
            "turn": table.game.turn,
            "to_play": table.game.to_play if table.status() == "playing" else None,
            "seats": seat_rows(table, self.present, self.rating_of),
            "rated": table.rated,
            "clock": round(table.clock),
            "bank": round(table.bank),
            "days": table.days,
            "watchers": self.watchers[table.id],
        }

    def row_bytes(self, table: Table) -> bytes:
        """``row`` as the wire writes it, made once a table for this moment."""
        made = self.rows.get(table.id)
        if made is None:
            made = self.rows[table.id] = json.dumps(self.row(table),
                                                    separators=(",", ":")).encode()
        return made


def lobby_page(order: LobbyOrder, look: LobbyLook, code: str | None, offset: int,
               size: int) -> dict[str, Any]:
    """One page of the lobby for the player with ``code``, how many rows there are, and
    which of the player's games wait for their move (``waiting``: all of them, not only
    this page's). Resume codes are never listed."""
    rows = [look.row(table) for table in order.page(code, offset, size)]
    return {"tables": rows, "offset": offset, "total": len(order),
            "waiting": order.waiting(code)}


def lobby_page_bytes(order: LobbyOrder, look: LobbyLook, code: str | None, offset: int,
                     size: int) -> bytes:
    """``lobby_page`` as one pushed ``tables`` line of the wire (``push``: not an answer),
    built from the rows ``look`` made once: most pages share most rows."""
    rows = b",".join(look.row_bytes(table) for table in order.page(code, offset, size))
    rest = json.dumps({"offset": offset, "total": len(order), "waiting": order.waiting(code),
                       "push": True}, separators=(",", ":")).encode()
    return b'{"type":"tables","tables":[' + rows + b"]," + rest[1:] + b"\n"


def unrated_text(table: Table) -> str | None:
    """Why the game at a rated ``table`` will be played unrated, as its players read it
    (None: it counts, or it is not rated)."""
    if not table.rated or not table.unrated:
        return None
    names = (table.seats[0].name or "?", table.seats[1].name or "?")
    return unrated_reason(table.unrated, names)


def state_message(table: Table, seat: int | None, present: Presence,
                  rating_of: RatingOf = _unrated, now: float | None = None) -> State:
    """The ``state`` message for ``seat`` (None: a watcher, who sees no hand); ``now``
    (the move clock's time) gives ``time_left``, the seconds the player to move has."""
    game = table.game
    seats = seat_rows(table, present, rating_of)
    if table.changes is not None:  # a rated game just recorded: what it did to each
        for row, change in zip(seats, table.changes, strict=True):
            row["change"] = change
    obs = observe(game, seat, spectator=False) if seat is not None else observe(
        game, 0, spectator=True)
    running = now is not None and table.clocks_run()
    return State(
        table.id,
        game=table.game_id if game.is_over else None,  # its record's id (see archive)
        seat=seat,
        seats=seats,
        rated=table.rated,
        counts=table.counts(),
        unrated=unrated_text(table),
        clock=round(table.clock),
        days=table.days,
        time_left=max(0, round(table.deadline() - now))
        if running and now is not None else None,
        bank=round(table.bank),
        bank_left=[max(0, round(table.bank_left(s, now))) for s in (0, 1)]
        if running and now is not None and not table.correspondence else None,
        scores=[game.score(0).total, game.score(1).total],
        observation=observation_to_dict(obs),
    )

"""The host's standings: ratings as shown, the leaderboard (established players only, and
the bots: see rating_rules), a player's page, whether a rated game about to start will
count, and the recording of rated games' results (and of forfeits). A part the host holds;
it shares the host's player registry, ratings store, list of storage errors and clock."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from ..core import EndReason
from ..wire.protocol import ProtocolError
from .archive import Archived, archived
from .glicko2 import Rating
from .players import PlayerRegistry, clash_keys
from .rating_pools import CORRESPONDENCE, LIVE, pool_key, pool_of_days, split_key
from .rating_rules import Played, board_rule, is_bot, missing_for_board
from .ratings import Change, Ratings, Result, result_of
from .tables import MIN_DECISIONS, Table, end_game

#: Rows in one page of the leaderboard (it fits 80x24 with its title and your place).
LEADERS_PAGE = 15

log = logging.getLogger("solstis.host")
#: What a rated game that ended before each player made MIN_DECISIONS did to the ratings.
ABANDONED = f"not counted: abandoned before each player made {MIN_DECISIONS} decisions"


def rated_key(table: Table, identity: str) -> str:
    """The key of ``identity``'s rating in the pool of ``table``'s game."""
    return pool_key(identity, pool_of_days(table.days))


def bot_name(identity: str) -> str:
    """How a bot's identity (``bot:<tier>``) is shown: "greedy bot"."""
    return f"{identity[4:]} bot"


class Standings:
    """Ratings as people see them, and the results that make them."""

    def __init__(self, ratings: Ratings, players: PlayerRegistry,
                 storage_errors: list[str], bot_seconds: float = 1.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.ratings = ratings
        self.clock = clock  # the host's time: ratings widen, and activity ages, by it
        self.bot_seconds = bot_seconds  # how long the host's bots think (their seats' kind)
        self.players = players
        self.storage_errors = storage_errors
        self._refusing: set[str] = set()  # tables whose result the database refused

    def name_of(self, key: str) -> str | None:
        """The name a rated identity (or its key in a pool) goes by (None: a player the
        registry forgot)."""
        identity = split_key(key)[0]
        if identity.startswith("bot:"):
            return bot_name(identity)
        code = self.players.code_of(identity)
        return self.players.lookup(code) if code else None

    async def names(self, pool: str = LIVE) -> dict[str, str]:
        """The name of every identity rated in ``pool`` the registry knows, by its key
        there (one read, off the loop)."""
        keys = {split_key(k)[0]: k for k in self.ratings.known if split_key(k)[1] == pool}
        bots = [i for i in keys if i.startswith("bot:")]
        people = await self.players.names_of(set(keys) - set(bots))
        return {**{keys[bot]: bot_name(bot) for bot in bots},
                **{keys[i]: name for i, name in people.items()}}

    async def identity_named(self, name: str) -> str | None:
        """The rated identity whose name is ``name`` (up to case and look-alikes)."""
        wanted = set(clash_keys(name))
        named = {**await self.names(CORRESPONDENCE), **await self.names(LIVE)}
        return next((split_key(key)[0] for key, shown in named.items()
                     if wanted & set(clash_keys(shown))), None)

    async def player_page(self, asker: str | None, name: str | None) -> dict[str, Any]:
        """A player's page: rating, rated games (the latest first, at most 10 listed) and
        their rating after each of the latest 40 (oldest first, for a chart). ``name``
        None: the page of ``asker`` (their rated identity, None for a guest)."""
        identity = asker if name is None else await self.identity_named(name)
        if identity is None:
            raise ProtocolError("no_player", "only rated players have a page: "
                                + ("play a rated game first" if name is None
                                   else f"nobody rated here is called {name}"))
        games = await self.ratings.games_of(identity)
        slow = await self.ratings.games_of(pool_key(identity, CORRESPONDENCE), 10)
        return {"name": self.name_of(identity), "rating": self.rating_text(identity),
                "games": self._listed(games)[:10],
                "chart": [round(after) for _o, _s, after in games],
                "board": self.board_note(identity),
                "correspondence": {
                    "rating": self.rating_text(pool_key(identity, CORRESPONDENCE)),
                    "games": self._listed(slow)}}

    def _listed(self, games: list[tuple[str, float, float]]) -> list[dict[str, Any]]:
        """Rated games as a player's page lists them, newest first."""
        return [{"opponent": self.name_of(other) or "(gone)", "score": score,
                 "rating": round(after)} for other, score, after in reversed(games)]

    def board_note(self, identity: str) -> str | None:
        """Why ``identity`` is not on the leaderboard, as a person reads it (None: listed,
        or a bot, always listed)."""
        if is_bot(identity):
            return None
        now = self.clock()
        missing = missing_for_board(self.ratings.played.get(identity, Played()),
                                    self.ratings.rating_now(identity, now) or Rating(), now)
        if not missing:
            return None
        return f"Not on the leaderboard yet: {board_rule()}. Still needed: " + \
            "; ".join(missing) + "."

    def listed(self, identity: str) -> bool:
        """Whether ``identity`` is on the leaderboard: a bot, or an established player."""
        return self.board_note(identity) is None

    async def leaders(self, me: str | None, offset: int = 0,
                      pool: str = LIVE) -> dict[str, Any]:
        """A page of ``pool``'s leaderboard (``LEADERS_PAGE`` rows from ``offset``: place,
        name, rating; the bots among established players), ``me``'s place (None: not
        listed) and, if ``me`` is rated but not listed, what they still need (``board``);
        ``other``: ``me``'s rating in the other pool, so that the board shows both.
        A player the registry forgot is not shown."""
        other = pool_key(me, LIVE if pool == CORRESPONDENCE else CORRESPONDENCE)
        me = pool_key(me, pool)
        board = [(-self.ratings.known[identity].rating, identity, name)
                 for identity, name in (await self.names(pool)).items()
                 if self.listed(identity)]
        board.sort()
        rows = [{"place": i + 1, "name": name, "rating": self.rating_text(identity),
                 "you": identity == me}
                for i, (_r, identity, name) in enumerate(board)
                if offset <= i < offset + LEADERS_PAGE]
        place = next((i + 1 for i, (_r, identity, _n) in enumerate(board)
                      if identity == me), None)
        return {"rows": rows, "offset": offset, "total": len(board), "place": place,
                "pool": pool,
                "rating": self.rating_text(me), "other": self.rating_text(other),
                "board": None if me is None else self.board_note(me)}

    def rating_text(self, identity: str | None) -> str | None:
        """A rating as shown: "1580", "1500?" while provisional (its deviation as it
        stands now, widened for idle days, is over 110); None for nobody's."""
        rating = self.ratings.rating_now(identity, self.clock())
        if rating is None:
            return None
        return f"{round(rating.rating)}{'?' if rating.provisional else ''}"

    async def unrated_at(self, table: Table, joiner: str | None,
                         tables: Iterable[Table]) -> str | None:
        """For the person ``joiner`` about to take the open seat of the rated ``table``:
        whether the game will count ("") or be played unrated, and why (rating_rules),
        counting the same two players' games being played that will count (``tables``:
        the host's). None if that is not for now (not rated, or not two identities)."""
        others = [s.identity for s in table.seats if not s.is_open]
        if not table.rated or joiner is None or len(others) != 1 or others[0] is None:
            return None
        pair = {others[0], joiner}
        promised = sum(1 for t in tables if t.id != table.id and t.rated and t.unrated == ""
                       and not t.recorded and {s.identity for s in t.seats} == pair
                       and t.correspondence == table.correspondence  # the same pool
                       and not (t.game.is_over and not t.played()))
        try:
            return await self.ratings.rule_for((rated_key(table, others[0]),
                                                rated_key(table, joiner)), self.clock(),
                                               promised)
        except OSError as exc:  # cannot tell now: decided by the same rule when recorded
            log.error("could not tell whether the game at %s will count: %s", table.id, exc)
            return None

    def result(self, table: Table) -> Result:
        """The result of the finished game at ``table``, with its record; who sat there for
        an unrated game: the identity, the bot, or "" (a guest, the host's own account). A
        rated table's game counts only if it was played (``Table.played``), and not if
        its players were told it would be played unrated (``Table.unrated``)."""
        ids = [rated_key(table, s.identity or (f"bot:{s.bot}" if s.bot else ""))
               for s in table.seats]
        return result_of(table.game_id, (ids[0], ids[1]), table.game.winner,
                         table.last_active, table.rated and table.played(),
                         table_id=table.id, record=self.archived(table, table.last_active),
                         unrated=table.unrated)

    def archived(self, table: Table, finished: float) -> Archived | None:
        """The record of the finished game at ``table`` (see archive); None, logged, for a
        game that does not replay from its deal (a table file made by hand)."""
        try:
            return archived(table, self.bot_seconds, finished)
        except ValueError as exc:
            log.error("the game at %s has no record: %s", table.id, exc)
            return None

    async def forfeit(self, table: Table, now: float) -> bool:
        """An abandoned rated game counts as lost by whoever left it: the seat whose
        decision it was when everybody had gone (if both players made their
        ``MIN_DECISIONS``; else it is stored unrated). True once stored."""
        ids = [rated_key(table, s.identity or "") for s in table.seats]
        loser = table.game.to_play
        ended = table.copy()  # its record: lost on time (abandoned, if nobody really played)
        end_game(ended, loser, EndReason.TIME)
        try:
            await self.ratings.record(result_of(table.game_id, (ids[0], ids[1]), 1 - loser,
                                                now, table.rated and table.played(),
                                                table_id=table.id,
                                                record=self.archived(ended, now),
                                                unrated=table.unrated))
        except OSError as exc:
            self.storage_errors.append(f"the forfeit of {table.id}: {exc}")
            log.error("could not record the forfeit of %s: %s", table.id, exc)
            return False
        return True

    async def record(self, table: Table) -> bool:
        """Store a finished game's result, and a rated one's ratings (once: see ratings);
        True once stored. A disk that refuses is logged (once a table) and the table keeps
        the result until a later try (``Housekeeping``, or the next start) stores it."""
        try:
            change = await self.ratings.record(self.result(table))
        except OSError as exc:
            self._refused(table, exc)
            return False
        self._stored(table)
        self._show(table, change)
        return True

    @staticmethod
    def _show(table: Table, change: Change | None) -> None:
        """What the game just stored did to each rating, for the table's states."""
        if change is not None:
            table.changes = change.shown()
        elif table.rated and not table.played():
            table.changes = (ABANDONED, ABANDONED)

    def record_at_start(self, table: Table) -> None:
        """At start-up: store the result of the finished game at ``table`` if it is not
        stored yet (the host stopped in between); a refusal leaves it for later tries."""
        if self.ratings.is_recorded(table.game_id):
            table.recorded = True
            return
        try:
            change = self.ratings.record_now(self.result(table))
        except OSError as exc:
            self._refused(table, exc)
            return
        self._stored(table)
        self._show(table, change)

    def _refused(self, table: Table, exc: OSError) -> None:
        if table.id not in self._refusing:
            self._refusing.add(table.id)
            self.storage_errors.append(f"the result of {table.id}: {exc}")
            log.error("could not record the result of %s: %s; it is kept with the table and "
                      "tried again", table.id, exc)

    def _stored(self, table: Table) -> None:
        table.recorded = True
        if table.id in self._refusing:
            self._refusing.discard(table.id)
            log.info("the result of %s is recorded now", table.id)

"""The host's bot seats: each table's bots decide in the worker pool (botpool) or on a
bot cluster (bot_cluster), one table at a time per worker, and their moves are stored like
a person's before anyone sees them. A decision asked for a game that has since ended or
been replaced is cancelled.

A stored change puts a new Table in its old one's place (``Host._commit``), so a table's
bots look their table up by id before each decision and again once it is made."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from ..core import IllegalMove, Move
from ..core.rng import derive
from ..wire.protocol import ProtocolError
from .botpool import DEADLINE_SECONDS, BotFailed, Bots, Decision, WorkerLost
from .tables import Table

log = logging.getLogger("solstis.host")

#: The upper bounds (seconds) of the decision-latency histogram's buckets.
LATENCY_BUCKETS: Final = (0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0)

#: How the host stores a change to a table (``Host._commit``): the table, the change, and
#: what it is in words (for a refusal); it returns the table as stored, now in the host's.
Commit = Callable[[Table, Callable[[Table], None], str], Awaitable[Table]]


class BotSeats:
    """Plays the bot seats of a host's ``tables`` (shared with the host) in the worker
    ``pool``: ``seconds`` a decision, each move stored by ``commit`` like a person's and
    then announced by ``after_change``."""

    def __init__(self, pool: Bots, seconds: float, tables: dict[str, Table],
                 commit: Commit, after_change: Callable[[Table], Awaitable[None]]) -> None:
        self.pool = pool
        self.seconds = seconds
        self.tables = tables
        self.commit = commit
        self.after_change = after_change
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.waiting: dict[str, tuple[int, int, bool]] = {}
        """Table id → the game (``_stamp``) its bot's pending decision is for."""
        self.closed = False
        self.storage_retry = 5.0
        """Seconds before a bot whose move the disk refused decides again."""
        self.random_moves = 0
        """Decisions no bot answered, played as a random legal move (each one logged)."""
        self.errors = 0
        """Bot turns that raised an error (logged); the table went on."""
        self.latency = Histogram(LATENCY_BUCKETS)
        """Seconds from asking a decision to having its move, wherever it was answered."""

    def stats(self) -> dict[str, Any]:
        return {"random_moves": self.random_moves, "errors": self.errors,
                "deciding": sum(not t.done() for t in self.tasks.values()),
                "latency": self.latency.data()}

    async def close(self) -> None:
        """Stop every table's bots and the worker pool."""
        self.closed = True
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.pool.close()

    async def _bot_play(self, table: Table, move: Move) -> None:
        """Play a bot's move once it is stored; if the disk refuses, wait and let the bot
        loop ask again (the table is unchanged)."""
        seq = len(table.game.history)

        def play(t: Table) -> None:
            if len(t.game.history) != seq:
                raise ProtocolError("stale", "the game moved on")
            try:
                t.game.play(move)
            except IllegalMove:  # the table changed under the bot's feet
                raise ProtocolError("stale", "the game moved on") from None

        try:
            stored = await self.commit(table, play, "a bot's move")
        except ProtocolError as exc:
            if exc.code == "storage":
                await asyncio.sleep(self.storage_retry)
            return
        await self.after_change(stored)

    def schedule(self, table: Table) -> None:
        """Let the bot to move at ``table`` (if any) decide, unless one already does; a
        decision pending for a game that ended or was replaced is cancelled first."""
        table_id = table.id
        task = self.tasks.get(table_id)
        asked = self.waiting.get(table_id)
        if task is not None and asked is not None and asked != _stamp(table):
            task.cancel()  # its answer would be thrown away: free the worker now
            self.waiting.pop(table_id, None)
            task = None
        game = table.game
        if game.is_over or table.seats[game.to_play].bot is None:
            return
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._bot_turns(table_id))
            self.tasks[table_id] = task
            task.add_done_callback(
                lambda t: self.tasks.pop(table_id) if self.tasks.get(table_id) is t else None)

    def _bot_to_move(self, table_id: str) -> tuple[Table, str] | None:
        """The table ``table_id`` as it now stands and the tier of the bot to move there
        (None: the table went, its game is over, or a person is to move)."""
        table = self.tables.get(table_id)
        if self.closed or table is None or table.game.is_over:
            return None
        tier = table.seats[table.game.to_play].bot
        return None if tier is None else (table, tier)

    async def _bot_turns(self, table_id: str) -> None:
        """Play the table's bot seats; an error anywhere is logged and counted, and the
        table's bot is asked again a moment later: a table never stalls."""
        try:
            await self._play_turns(table_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            self.errors += 1
            log.exception("table %s: the bots' turn failed; asking again", table_id)
            await asyncio.sleep(1.0)
            if (table := self.tables.get(table_id)) is not None and not self.closed:
                asyncio.get_running_loop().call_soon(self.schedule, table)

    async def _play_turns(self, table_id: str) -> None:
        """Play the table's bot seats through the worker pool; the loop only waits."""
        while (now := self._bot_to_move(table_id)) is not None:
            table, tier = now
            game = table.game
            seat = game.to_play
            seq = len(game.history)
            bot_seed = derive(game.seed, b"host-bot", seq * 2 + seat)  # reveals nothing
            decision = Decision(tier, bot_seed, game.observation(seat), self.seconds)
            self.waiting[table_id] = _stamp(table)
            asked = time.monotonic()
            try:
                move, why = await self._ask(table_id, decision)
            finally:
                if self.waiting.get(table_id) == _stamp(table):
                    del self.waiting[table_id]
            self.latency.add(time.monotonic() - asked)
            later = self._bot_to_move(table_id)  # the table may have changed meanwhile
            if (later is None or len(later[0].game.history) != seq
                    or later[0].game.seed != game.seed):  # moved on, or another table now
                return
            table = later[0]
            if move is None or move not in table.game.legal_moves():
                move = random.Random(bot_seed).choice(table.game.legal_moves())
                self.random_moves += 1  # never silent: counted and said
                log.warning("table %s: no bot answered (%s); played the random legal move "
                            "%s for %s", table_id, why, move, tier)
            await self._bot_play(table, move)  # on a storage failure the loop asks again

    async def _ask(self, table_id: str, decision: Decision) -> tuple[Move | None, str]:
        """The bot's move for ``decision``, or None and why there is none. Whatever goes
        wrong (a lost worker is asked once more), the table's loop goes on. A decision
        that must wait thinks less: none waits much past its thinking time plus
        ``DEADLINE_SECONDS``."""
        why = "no answer"
        deadline = time.monotonic() + decision.seconds + DEADLINE_SECONDS
        for _ in range(2):
            try:
                return Move.parse(await self.pool.decide(table_id, decision, deadline)), ""
            except WorkerLost as exc:
                why = str(exc)
            except (BotFailed, ValueError) as exc:
                return None, f"the bot failed: {exc}"
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # never a dead bot task: say it, count it, play on
                self.errors += 1
                log.exception("table %s: the bot's turn failed", table_id)
                return None, f"an error: {type(exc).__name__}"
        return None, why


class Histogram:
    """Counts of values at or under each bound (cumulative, as Prometheus reads them), with
    their sum and count."""

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * len(bounds)
        self.total = 0.0
        self.count = 0

    def add(self, value: float) -> None:
        self.count += 1
        self.total += value
        for i, bound in enumerate(self.bounds):
            if value <= bound:
                self.counts[i] += 1

    def data(self) -> dict[str, Any]:
        return {"buckets": [[b, c] for b, c in zip(self.bounds, self.counts, strict=True)],
                "count": self.count, "sum": round(self.total, 6)}


def _stamp(table: Table) -> tuple[int, int, bool]:
    """Which game a table holds, and how far it is: a change means a pending bot decision
    is for a position that no longer stands."""
    game = table.game
    return game.seed, len(game.history), game.is_over

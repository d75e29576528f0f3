"""The host's bot seats: each table's bots decide in the worker pool (botpool) or on a
bot cluster (bot_cluster), one table at a time per worker, and their moves are stored like
a person's before anyone sees them. A decision asked for a game that has since ended or
been replaced is cancelled.

A stored change puts a new Table in its old one's place (``Host._commit``), so a table's
bots look their table up by id before each decision and again once it is made."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from ..core import IllegalMove, Move
from ..core.rng import derive
from ..wire.protocol import ProtocolError
from .botpool import BotFailed, Bots, Decision, WorkerLost
from .tables import Table

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
        """Play the table's bot seats through the worker pool; the loop only waits."""
        while (now := self._bot_to_move(table_id)) is not None:
            table, tier = now
            game = table.game
            seat = game.to_play
            seq = len(game.history)
            bot_seed = derive(game.seed, b"host-bot", seq * 2 + seat)  # reveals nothing
            decision = Decision(tier, bot_seed, game.observation(seat), self.seconds)
            move = None
            self.waiting[table_id] = _stamp(table)
            try:
                for _ in range(2):  # a lost worker is replaced: ask once more
                    try:
                        move = Move.parse(await self.pool.decide(table_id, decision))
                        break
                    except WorkerLost:
                        continue
                    except (BotFailed, ValueError):
                        break
            finally:
                if self.waiting.get(table_id) == _stamp(table):
                    del self.waiting[table_id]
            later = self._bot_to_move(table_id)  # the table may have changed meanwhile
            if (later is None or len(later[0].game.history) != seq
                    or later[0].game.seed != game.seed):  # moved on, or another table now
                return
            table = later[0]
            if move not in table.game.legal_moves():  # a broken bot must not stop the table
                move = random.Random(bot_seed).choice(table.game.legal_moves())
            await self._bot_play(table, move)  # on a storage failure the loop asks again


def _stamp(table: Table) -> tuple[int, int, bool]:
    """Which game a table holds, and how far it is: a change means a pending bot decision
    is for a position that no longer stands."""
    game = table.game
    return game.seed, len(game.history), game.is_over

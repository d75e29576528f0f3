"""The host's bot seats: each table's bots decide in the worker pool (botpool), one table
at a time per worker, and their moves are stored like a person's before anyone sees them."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from ..core import Move
from ..core.rng import derive
from ..wire.protocol import ProtocolError
from .botpool import BotFailed, BotPool, Decision, WorkerLost
from .tables import Table

#: How the host stores a change to a table (``Host._commit``): the table, the change, and
#: what it is in words (for a refusal).
Commit = Callable[[Table, Callable[[Table], None], str], Awaitable[None]]


class BotSeats:
    """Plays the bot seats of a host's ``tables`` (shared with the host) in the worker
    ``pool``: ``seconds`` a decision, each move stored by ``commit`` like a person's and
    then announced by ``after_change``."""

    def __init__(self, pool: BotPool, seconds: float, tables: dict[str, Table],
                 commit: Commit, after_change: Callable[[Table], Awaitable[None]]) -> None:
        self.pool = pool
        self.seconds = seconds
        self.tables = tables
        self.commit = commit
        self.after_change = after_change
        self.tasks: dict[str, asyncio.Task[None]] = {}
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
            t.game.play(move)

        try:
            await self.commit(table, play, "a bot's move")
        except ProtocolError as exc:
            if exc.code == "storage":
                await asyncio.sleep(self.storage_retry)
            return
        await self.after_change(table)

    def schedule(self, table: Table) -> None:
        """Let the bot to move at ``table`` (if any) decide, unless one already does."""
        game = table.game
        if game.is_over or table.seats[game.to_play].bot is None:
            return
        task = self.tasks.get(table.id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._bot_turns(table))
            self.tasks[table.id] = task
            task.add_done_callback(
                lambda t: self.tasks.pop(table.id) if self.tasks.get(table.id) is t else None)

    async def _bot_turns(self, table: Table) -> None:
        """Play the table's bot seats through the worker pool; the loop only waits."""
        game = table.game
        while not game.is_over and (tier := table.seats[game.to_play].bot) and not self.closed:
            seat = game.to_play
            seq = len(game.history)
            bot_seed = derive(game.seed, b"host-bot", seq * 2 + seat)  # reveals nothing
            decision = Decision(tier, bot_seed, game.observation(seat), self.seconds)
            move = None
            for _ in range(2):  # a lost worker is replaced: ask once more
                try:
                    move = Move.parse(await self.pool.decide(table.id, decision))
                    break
                except WorkerLost:
                    continue
                except (BotFailed, ValueError):
                    break
            if (self.closed or self.tables.get(table.id) is not table
                    or len(game.history) != seq):
                return
            if move not in game.legal_moves():  # a broken bot must not stop the table
                move = random.Random(bot_seed).choice(game.legal_moves())
            await self._bot_play(table, move)  # on a storage failure the loop asks again

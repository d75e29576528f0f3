"""The host's bot seats: each table's bots decide in the worker pool (botpool), one table
at a time per worker, and their moves are stored like a person's before anyone sees them."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core import Move
from ..core.rng import derive
from .botpool import BotFailed, BotPool, Decision, WorkerLost
from .protocol import ProtocolError

if TYPE_CHECKING:
    from .tables import Table


class BotSeats:
    """Plays the bot seats of ``Host``'s tables (which provides the attributes)."""

    tables: dict[str, Table]
    bots: BotPool
    bot_tasks: dict[str, asyncio.Task[None]]
    bot_seconds: float
    closed: bool
    storage_retry: float

    if TYPE_CHECKING:  # Host's own, which the bots' moves go through like a person's
        async def _commit(self, table: Table, change: Callable[[Table], None],
                          what: str) -> None: ...

        async def _after_change(self, table: Table) -> None: ...

    async def _bot_play(self, table: Table, move: Move) -> None:
        """Play a bot's move once it is stored; if the disk refuses, wait and let the bot
        loop ask again (the table is unchanged)."""
        seq = len(table.game.history)

        def play(t: Table) -> None:
            if len(t.game.history) != seq:
                raise ProtocolError("stale", "the game moved on")
            t.game.play(move)

        try:
            await self._commit(table, play, "a bot's move")
        except ProtocolError as exc:
            if exc.code == "storage":
                await asyncio.sleep(self.storage_retry)
            return
        await self._after_change(table)

    def _schedule_bot(self, table: Table) -> None:
        game = table.game
        if game.is_over or table.seats[game.to_play].bot is None:
            return
        task = self.bot_tasks.get(table.id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._bot_turns(table))
            self.bot_tasks[table.id] = task
            task.add_done_callback(
                lambda t: self.bot_tasks.pop(table.id) if self.bot_tasks.get(table.id) is t
                else None)

    async def _bot_turns(self, table: Table) -> None:
        """Play the table's bot seats through the worker pool; the loop only waits."""
        game = table.game
        while not game.is_over and (tier := table.seats[game.to_play].bot) and not self.closed:
            seat = game.to_play
            seq = len(game.history)
            bot_seed = derive(game.seed, b"host-bot", seq * 2 + seat)  # reveals nothing
            decision = Decision(tier, bot_seed, game.observation(seat), self.bot_seconds)
            move = None
            for _ in range(2):  # a lost worker is replaced: ask once more
                try:
                    move = Move.parse(await self.bots.decide(table.id, decision))
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

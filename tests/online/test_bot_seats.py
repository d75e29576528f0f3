"""Whatever goes wrong in a bot's turn, the table goes on and nothing is silent: an error
in the pool ends in a move that is counted and logged, and the next decision is asked as
usual; new games against bots beyond what the workers can serve are refused, saying when
to come back, while running games keep their bots."""

from __future__ import annotations

import logging
from typing import Any

from solstis_tui.client.client import HostClient
from solstis_tui.host.botpool import BotPool, Decision
from solstis_tui.host.limits import Limits

from .conftest import start_host
from .test_botpool import bot_table, state_with


class BrokenThenHonest:
    """A pool whose first answer is an error no code path expects (as a worker's
    ``(0, None, 0.0)`` once raised a TypeError in the table's task); then it is honest."""

    def __init__(self, honest: BotPool) -> None:
        self.honest = honest
        self.broken = True

    def start(self) -> None:
        self.honest.start()

    def capacity(self) -> int:
        return self.honest.capacity()

    async def decide(self, key: str, decision: Decision,
                     deadline: float | None = None) -> str:
        if self.broken:
            self.broken = False
            raise TypeError("'int' object is not subscriptable")
        return await self.honest.decide(key, decision, deadline)

    def stats(self) -> dict[str, Any]:
        return self.honest.stats()

    async def close(self, timeout: float = 5.0) -> None:
        await self.honest.close(timeout)


async def test_an_error_in_a_bots_turn_never_freezes_the_table_and_is_said(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="solstis.host")
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05, bot_workers=1)
    host.bots = host.bot_seats.pool = BrokenThenHonest(host.bots)
    ann = await HostClient.connect(host.socket_path)
    try:
        await ann.hello("Ann")
        table = await bot_table(ann, "greedy")
        state = await state_with(ann, table, 1)  # the broken turn still ended in a move
        status = host.status()
        assert status["bot_seats"]["random_moves"] == 1
        assert status["bot_seats"]["errors"] == 1
        assert "the bot's turn failed" in caplog.text
        assert "played the random legal move" in caplog.text
        while not host.bots.stats()["served"]:  # Ann plays on until the bot decides again
            obs = state["observation"]
            if obs["to_play"] == 1 and obs["legal_moves"]:
                await ann.send({"type": "move", "table": table, "seq": len(obs["history"]),
                                "move": obs["legal_moves"][0]})
            state = await ann.receive_until("state", table=table)
        assert host.status()["bot_seats"]["random_moves"] == 1  # the rest were answered
    finally:
        ann.writer.close()
        await host.close()
    assert state["table"] == table


async def test_new_bot_games_beyond_the_workers_are_refused_saying_when_to_come_back(
        tmp_path):
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05, bot_workers=1,
                            limits=Limits(bot_tables_per_worker=1))
    ann = await HostClient.connect(host.socket_path)
    bob = await HostClient.connect(host.socket_path)
    try:
        await ann.hello("Ann")
        await bob.hello("Bob")
        table = await bot_table(ann, "greedy")
        await state_with(ann, table, 1)
        await bob.send({"type": "create", "opponent": "greedy", "seat": 1})
        refused = await bob.receive_until("error")
        assert refused["code"] == "busy"
        assert "bots here are all busy" in refused["message"]
        assert "try again in 2 minutes" in refused["message"]
        assert host.status()["bot_tables"] == 1  # Bob's game was not made
        await bob.send({"type": "create", "opponent": "friend"})  # people still play
        assert (await bob.receive_until("joined"))["table"]
        assert host.status()["bot_table_capacity"] == 1
    finally:
        ann.writer.close()
        bob.writer.close()
        await host.close()

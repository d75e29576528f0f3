"""The host's bot workers when something goes wrong: a bot that fails gives its reason and
the worker serves on; a decision that waited past its deadline thinks only for the least
time; a bot stuck past its time and grace is killed and replaced; closing fails every
decision waiting or running, and refuses new ones; a worker that cannot start fails its
decision in words; a pool of no workers is refused."""

from __future__ import annotations

import asyncio
import time

import pytest

from solstis_tui.ai import workers as processes
from solstis_tui.core import Game
from solstis_tui.host.botpool import LEAST_THINKING, BotFailed, BotPool, Decision, WorkerLost

SAFETY = 60.0  # seconds: a net for a broken build, never a measured time


class TellingBot:
    """Fails, saying how long it was given to think."""

    def choose(self, obs, budget=None, cancel=None):
        raise ValueError(f"given {budget.seconds:.1f} s")


def telling_bot(tier: str, seed: int) -> TellingBot:
    return TellingBot()


class StuckBot:
    """Never answers (within the test's safety net)."""

    def choose(self, obs, budget=None, cancel=None):
        time.sleep(SAFETY)


def stuck_bot(tier: str, seed: int) -> StuckBot:
    return StuckBot()


def a_decision(seconds: float = 0.5) -> Decision:
    game = Game.new(seed=5)
    return Decision("random", 1, game.observation(game.to_play), seconds)


async def test_a_bot_that_fails_gives_its_reason_and_its_worker_serves_on():
    pool = BotPool(1, telling_bot)
    try:
        for _ in range(2):
            with pytest.raises(BotFailed, match=r"^ValueError: given 0\.5 s$"):
                await asyncio.wait_for(pool.decide("t", a_decision()), SAFETY)
        stats = pool.stats()
    finally:
        await pool.close()
    assert stats["lost"] == 0 and list(stats["served"].values()) == [2]


async def test_a_decision_that_waited_past_its_deadline_thinks_for_the_least_time():
    pool = BotPool(1, telling_bot)
    try:
        late = time.monotonic() - 1.0
        with pytest.raises(BotFailed, match=f"given {LEAST_THINKING:.1f} s"):
            await asyncio.wait_for(pool.decide("t", a_decision(), late), SAFETY)
        with pytest.raises(BotFailed, match=r"given 0\.5 s"):  # in time: its whole time
            await asyncio.wait_for(pool.decide("t", a_decision(), time.monotonic() + 60),
                                   SAFETY)
    finally:
        await pool.close()


async def test_a_bot_stuck_past_its_time_is_killed_and_a_new_worker_takes_the_next():
    pool = BotPool(1, stuck_bot, grace=0.2)
    try:
        with pytest.raises(WorkerLost, match="the bot worker overran its time"):
            await asyncio.wait_for(pool.decide("t", a_decision(0.05)), SAFETY)
        assert pool.stats()["lost"] == 1 and pool.stats()["workers"] == []  # it is gone
        pool.factory = telling_bot
        pool.grace = SAFETY  # a new worker's start-up counts in its first decision's time
        with pytest.raises(BotFailed):
            await asyncio.wait_for(pool.decide("t", a_decision()), SAFETY)
        assert len(pool.stats()["workers"]) == 1  # a new worker answered
    finally:
        await pool.close()


async def test_closing_fails_the_decisions_running_and_waiting_and_refuses_new_ones():
    pool = BotPool(1, stuck_bot)
    running = asyncio.ensure_future(pool.decide("a", a_decision()))
    waiting = asyncio.ensure_future(pool.decide("b", a_decision()))
    async with asyncio.timeout(SAFETY):
        while pool.stats()["running"] != 1:
            await asyncio.sleep(0.01)
    assert pool.stats()["queued"] == 1
    await pool.close(timeout=SAFETY)
    for decision in (running, waiting):
        with pytest.raises(WorkerLost, match="the host is closing"):
            await decision
    with pytest.raises(WorkerLost, match="the bot workers are shut down"):
        await pool.decide("c", a_decision())
    assert pool.stats()["workers"] == []


async def test_a_worker_that_cannot_start_fails_its_decision_in_words(monkeypatch):
    def no_process(self) -> None:
        raise processes.WorkerLost("fork: out of memory")

    monkeypatch.setattr(processes.Worker, "start", no_process)
    pool = BotPool(1, telling_bot)
    try:
        with pytest.raises(WorkerLost, match="cannot start a bot worker: fork: out of memory"):
            await asyncio.wait_for(pool.decide("t", a_decision()), SAFETY)
    finally:
        await pool.close()


def test_a_pool_of_no_workers_is_refused():
    with pytest.raises(ValueError, match="at least one bot worker"):
        BotPool(0)

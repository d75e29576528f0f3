"""What the host does with each kind of reply its fleet gateway gives, and how it counts
it for ``solstis host status``: a move that is no move is refused; each way a decision can
fail on the fleet is counted under a reason an operator reads; a retry said after the
answer still counts as a retry; a gateway that dies mid-decision, floods or talks nonsense
is started again while the local pool decides; a fleet busy with twice its workers' worth
of decisions leaves the next one to an idle local pool; a gateway that cannot start at all
leaves every decision to it. Every decision gets a legal move. No Dask: a scripted
stand-in gateway (``scripted_gateway.py``) speaks the wire."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import pytest

from solstis_tui.core import Game, Move
from solstis_tui.host.botpool import BotPool, Decision
from solstis_tui.host.fleet import FleetPool, FleetProblem, FleetSettings, fleet_settings

from .conftest import quick_bot

SCRIPT = Path(__file__).with_name("scripted_gateway.py")
SAFETY = 60.0  # seconds: a net for a broken build, never a measured time


async def a_fleet(fleet_files, *script: str, command: list[str] | None = None,
                  **pool) -> FleetPool:
    """A fleet pool whose gateway is the scripted one (``script``: its mode, workers)."""
    fleet = FleetPool(FleetSettings("tls://127.0.0.1:1", fleet_files), BotPool(1, quick_bot),
                      command=command or [sys.executable, str(SCRIPT), *script], **pool)
    fleet.start()
    return fleet


async def present(fleet: FleetPool) -> None:
    await asyncio.wait_for(fleet.present.wait(), SAFETY)


def a_decision(seed: int = 1) -> tuple[Game, Decision]:
    game = Game.new(seed=seed)
    return game, Decision("random", seed, game.observation(game.to_play), 0.05)


async def decided(fleet: FleetPool, seed: int = 1) -> None:
    """One decision, which must come back as a legal move."""
    game, decision = a_decision(seed)
    move = await asyncio.wait_for(fleet.decide(f"t{seed}", decision), SAFETY)
    assert Move.parse(move) in game.legal_moves()


async def stats_after_one_decision(fleet_files, *script: str) -> dict:
    """A fleet whose gateway plays ``script``: its counts once it is there and one
    decision (a legal move) came back."""
    fleet = await a_fleet(fleet_files, *script)
    try:
        await present(fleet)
        await decided(fleet)
        return fleet.stats()
    finally:
        await fleet.close()


async def until(condition) -> None:
    async with asyncio.timeout(SAFETY):
        while not condition():
            await asyncio.sleep(0.01)


async def test_an_answer_that_is_no_move_is_refused_and_the_local_pool_decides(fleet_files):
    stats = await stats_after_one_decision(fleet_files, "not-a-move")
    assert stats["refused"] == 1 and stats["answered"] == 0
    assert stats["refusals"] == ["worker 'tls://scripted:1': 'dance a jig' is not a move"]
    assert stats["to_local_why"] == {"a bad answer": 1}


@pytest.mark.parametrize(("said", "counted"), [
    ("the bot failed: ValueError: no legal move", "the bot failed on the fleet"),
    ("not connected to the scheduler", "the scheduler cannot be reached"),
    ("no answer in time from the worker", "no answer in time"),
    ("KilledWorker: the worker died twice", "the fleet lost the decision"),
])
async def test_each_failure_on_the_fleet_is_counted_under_a_reason_an_operator_reads(
        fleet_files, said, counted):
    stats = await stats_after_one_decision(fleet_files, f"failed:{said}")
    assert stats["to_local_why"] == {counted: 1}
    assert stats["refused"] == 0 and stats["answered"] == 0


async def test_a_bad_answer_the_gateway_caught_is_counted_as_refused(fleet_files):
    stats = await stats_after_one_decision(
        fleet_files, "failed:a malformed answer from a worker (tuple)")
    assert stats["refused"] == 1 and stats["to_local_why"] == {"a bad answer": 1}
    assert stats["refusals"] == ["the gateway: a malformed answer from a worker (tuple)"]


async def test_a_retry_said_after_its_answer_still_counts_as_a_retry(fleet_files):
    fleet = await a_fleet(fleet_files, "retried-late")
    try:
        await present(fleet)
        await decided(fleet)
        await until(lambda: fleet.stats()["retried"] == 1)
        stats = fleet.stats()
    finally:
        await fleet.close()
    assert stats["answered"] == 1 and stats["retried"] == 1 and stats["to_local"] == 0


async def test_a_gateway_that_dies_mid_decision_leaves_it_to_the_local_pool_and_restarts(
        fleet_files, caplog):
    caplog.set_level(logging.INFO, logger="solstis.host")
    fleet = await a_fleet(fleet_files, "dies")
    try:
        await present(fleet)
        await decided(fleet)
        await until(lambda: fleet.gateway_starts >= 2)
        stats = fleet.stats()
    finally:
        await fleet.close()
    assert stats["to_local_why"] == {"the fleet lost the decision": 1}
    assert "the gateway stopped (exit 4)" in caplog.text


@pytest.mark.parametrize(("mode", "said"), [
    ("flood", "refused a bad answer (the gateway sent over 2000 lines a second)"),
    ("bad-lines", "50 bad lines from one gateway; starting it again"),
])
async def test_a_gateway_that_floods_or_talks_nonsense_is_started_again(
        fleet_files, caplog, mode, said):
    caplog.set_level(logging.INFO, logger="solstis.host")
    fleet = await a_fleet(fleet_files, mode)
    try:
        await present(fleet)
        await decided(fleet)
        await until(lambda: fleet.gateway_starts >= 2)
    finally:
        await fleet.close()
    assert said in caplog.text


async def test_a_fleet_busy_with_twice_its_workers_leaves_the_next_decision_to_the_local_pool(
        fleet_files):
    fleet = await a_fleet(fleet_files, "hold", "1", grace=SAFETY)
    try:
        await present(fleet)
        held = [asyncio.ensure_future(fleet.decide(f"held{n}", a_decision(n)[1]))
                for n in (2, 3)]
        await until(lambda: fleet.stats()["in_flight"] == 2)
        await decided(fleet, 4)  # the fleet has one worker and two decisions: not there
        assert fleet.stats()["to_local_why"] == {"the fleet is busy": 1}
        for task in held:
            task.cancel()
        await asyncio.gather(*held, return_exceptions=True)
    finally:
        await fleet.close()


async def test_a_gateway_that_cannot_start_leaves_every_decision_to_the_local_pool(
        fleet_files, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="solstis.host")
    fleet = await a_fleet(fleet_files, command=[str(tmp_path / "no-such-gateway")])
    try:
        await until(lambda: "the gateway could not run" in caplog.text)
        await decided(fleet)
        stats = fleet.stats()
    finally:
        await fleet.close()
    assert stats["gateway"] == "down" and stats["path"] == "local pool"
    assert stats["to_local_why"] == {"the gateway is down": 1}


@pytest.mark.parametrize(("user", "says"), [
    ("no-such-account-here", "--fleet-user no-such-account-here: no such user"),
    ("root", "--fleet-user root: that account is root; give one without rights"),
])
def test_a_root_host_refuses_a_fleet_user_that_is_missing_or_root(fleet_files, user, says):
    import os

    if os.geteuid() != 0:
        pytest.skip("the gateway's account is chosen only where the host runs as root")
    with pytest.raises(FleetProblem, match=says):
        fleet_settings("tls://10.0.0.5:8786", ",".join(fleet_files), user)

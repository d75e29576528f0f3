"""The host believes nothing its fleet gateway says without checking it: a gateway that
answers garbage, the wrong types, an illegal move or an impossible time, never answers,
falls silent, floods or dies costs the table nothing (the local pool decides), and each case
is counted in the host's status. No Dask here: a stand-in gateway (``fake_gateway``)
speaks the wire."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import pytest

from solstis_tui.client.client import HostClient
from solstis_tui.host import status_cli
from solstis_tui.host.fleet import FleetPool, FleetSettings

from .conftest import start_host
from .test_botpool import SAFETY, bot_table, state_with

FAKE = Path(__file__).with_name("fake_gateway.py")


async def host_with(tmp_path, fleet_files, mode: str, **pool):
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05, bot_workers=1)
    fleet = FleetPool(FleetSettings("tls://127.0.0.1:1", fleet_files), host.bots,
                      command=[sys.executable, str(FAKE), mode], **pool)
    host.bots = host.bot_seats.pool = fleet
    fleet.start()
    return host


async def bot_moved_once(host) -> dict:
    ann = await HostClient.connect(host.socket_path)
    try:
        await ann.hello("Ann")
        table = await bot_table(ann)
        await state_with(ann, table, 1)
        return host.status()
    finally:
        ann.writer.close()


async def test_an_honest_gateways_answers_are_played(tmp_path, fleet_files):
    host = await host_with(tmp_path, fleet_files, "honest")
    try:
        await asyncio.wait_for(host.bots.present.wait(), SAFETY)
        status = await bot_moved_once(host)
    finally:
        await host.close()
    bots = status["bots"]
    assert bots["answered"] >= 1 and bots["to_local"] == 0 and bots["refused"] == 0
    assert bots["local"]["served"] == {}
    assert status["bot_seats"]["random_moves"] == 0


@pytest.mark.parametrize(("mode", "counted"), [
    ("garbage", "refused"),
    ("wrong-types", "refused"),
    ("illegal", "refused"),
    ("slow-thinker", "refused"),
    ("never", "no answer in time"),
    ("no-workers", "the fleet has no workers"),
])
async def test_a_bad_or_silent_fleet_costs_the_table_nothing_and_is_counted(
        tmp_path, fleet_files, mode, counted, caplog):
    caplog.set_level(logging.WARNING, logger="solstis.host")
    host = await host_with(tmp_path, fleet_files, mode, grace=0.5 if mode == "never" else 60)
    try:
        async with asyncio.timeout(SAFETY):  # the gateway has said it is connected
            while not host.bots.connected:
                await asyncio.sleep(0.02)
        status = await bot_moved_once(host)  # the local pool decided
        assert host.internal_errors == []
    finally:
        await host.close()
    bots = status["bots"]
    assert sum(bots["local"]["served"].values()) >= 1
    assert status["bot_seats"]["random_moves"] == 0
    if counted == "refused":
        assert bots["refused"] >= 1, bots
        assert "refused a bad answer" in caplog.text
    else:
        assert bots["to_local_why"].get(counted, 0) >= 1, bots
    assert bots["answered"] == 0


@pytest.mark.parametrize("mode", ["crash", "silent", "oversize"])
async def test_a_gateway_that_dies_falls_silent_or_floods_is_started_again(
        tmp_path, fleet_files, mode, caplog):
    caplog.set_level(logging.INFO, logger="solstis.host")
    host = await host_with(tmp_path, fleet_files, mode,
                           **({"silence": 0.5} if mode == "silent" else {}))
    try:
        async with asyncio.timeout(SAFETY):
            while host.bots.gateway_starts < 2:
                await asyncio.sleep(0.05)
        status = await bot_moved_once(host)
    finally:
        await host.close()
    assert status["bots"]["gateway_starts"] >= 2
    assert sum(status["bots"]["local"]["served"].values()) >= 1
    assert status["bot_seats"]["random_moves"] == 0
    said = {"crash": "the gateway stopped (exit", "silent": "fell silent",
            "oversize": "over the limit"}[mode]
    assert said in caplog.text


async def test_host_status_says_where_bots_decide_and_how_many_went_each_way(
        tmp_path, fleet_files, capsys):
    host = await host_with(tmp_path, fleet_files, "illegal", grace=60)
    try:
        await asyncio.wait_for(host.bots.present.wait(), SAFETY)
        await bot_moved_once(host)
        code = await asyncio.to_thread(status_cli.main, ["--socket", str(host.socket_path)])
    finally:
        await host.close()
    out = capsys.readouterr().out
    assert code == 0
    assert "bots decide on the fleet tls://127.0.0.1:1 (2 workers)" in out
    assert "bad answers refused" in out and "refused: worker 'tls://fake:1'" in out
    assert "is not legal here" in out
    assert "0 random moves: every bot decision was answered" in out

"""Bots on a Dask cluster (``solstis host --bot-cluster``): decisions go to the cluster's
workers, which learn only the seat's observation; a killed worker costs a retry, never a
move; an unreachable scheduler means the local pool until it is back; a game that ends
cancels its pending decision on the cluster; TLS keeps strangers out."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the bot cluster needs the [cluster] extra "
                                          "(pip install -e '.[cluster]')")

from solstis_tui.client.client import HostClient
from solstis_tui.core.observation import Observation
from solstis_tui.host.bot_cluster import ClusterSettings

from .conftest import start_host
from .dask_cluster import SAFETY, Cluster, bot_tasks, tls_files
from .test_botpool import asked, bot_table, gated_bot, state_with


@pytest.fixture
def gate(tmp_path, monkeypatch) -> Path:
    """Where gated bots report what they were asked, and wait until ``open`` appears there
    (local workers and the cluster's alike)."""
    folder = tmp_path / "gate"
    folder.mkdir()
    monkeypatch.setenv("SOLSTIS_TEST_GATE", str(folder))
    yield folder
    (folder / "open").touch()


@pytest.fixture
def cluster(tmp_path, gate):
    """A scheduler and two workers (each one thread) on loopback."""
    folder = tmp_path / "cluster"
    folder.mkdir()
    made = Cluster(folder, {"SOLSTIS_TEST_GATE": str(gate)})
    made.start_scheduler()
    made.start_worker()
    made.start_worker()
    yield made
    made.stop()


class Seated:
    """A host whose bots use the test's cluster, Ann connected to it, and a client of the
    test's own that looks at the scheduler."""

    def __init__(self, host, ann: HostClient, watcher) -> None:
        self.host, self.ann, self.watcher = host, ann, watcher


@pytest.fixture
async def seated(tmp_path, cluster):
    watcher = await cluster.client(workers=2)
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05, bot_factory=gated_bot, bot_workers=1,
                            bot_cluster=ClusterSettings(cluster.address))
    await asyncio.wait_for(host.bots.connected.wait(), SAFETY)
    ann = await HostClient.connect(host.socket_path)
    await ann.hello("Ann")
    yield Seated(host, ann, watcher)
    ann.writer.close()
    (Path(os.environ["SOLSTIS_TEST_GATE"]) / "open").touch()
    await host.close()
    await watcher.close()
    assert host.internal_errors == [], host.internal_errors


async def test_bots_decide_on_the_cluster_and_its_workers_learn_only_the_seat_observation(
        seated, cluster, gate):
    table = await bot_table(seated.ann)
    [report] = await asked(gate)
    game = seated.host.tables[table].game
    assert report["observation"] == game.observation(0) != game.observation(1)
    assert isinstance(report["observation"], Observation)
    assert report["games"] == 0  # no Game anywhere in the cluster's worker
    assert report["pid"] in [worker.pid for worker in cluster.workers]
    (gate / "open").touch()
    await state_with(seated.ann, table, 1)
    stats = seated.host.bots.stats()
    assert stats["path"] == "cluster" and stats["answered"] >= 1  # the bot may go on
    assert sum(stats["served"].values()) == stats["answered"]
    assert stats["local"]["served"] == {}


async def test_a_worker_killed_mid_decision_costs_a_retry_on_another_never_a_move(
        seated, gate):
    table = await bot_table(seated.ann)
    [first] = await asked(gate)
    os.kill(first["pid"], signal.SIGKILL)
    reports = await asked(gate, 2)  # the scheduler gave the decision to the other worker
    assert reports[1]["pid"] != first["pid"]
    assert reports[1]["observation"] == first["observation"]
    (gate / "open").touch()
    state = await state_with(seated.ann, table, 1)
    assert state["observation"]["history"][0][0] == 0  # the bot moved
    stats = seated.host.bots.stats()
    assert (stats["retried"], stats["lost"]) == (1, 0) and stats["answered"] >= 1
    [retry] = stats["retries"]  # when it started, started again and was answered
    assert retry["first_start"] < retry["restart"] <= retry["answered"]
    assert stats["local"]["served"] == {}


async def test_a_game_that_ends_cancels_its_pending_decision_on_the_cluster(seated, gate):
    table = await bot_table(seated.ann)
    await asked(gate)
    assert len(await bot_tasks(seated.watcher)) == 1
    await seated.ann.send({"type": "resign", "table": table})
    await seated.ann.receive_until("state", table=table)
    async with asyncio.timeout(SAFETY):
        while await bot_tasks(seated.watcher):
            await asyncio.sleep(0.05)
    assert seated.host.bots.stats()["cancelled"] == 1


async def test_a_scheduler_lost_mid_decision_hands_it_to_the_local_pool(
        seated, cluster, gate, caplog):
    caplog.set_level(logging.WARNING, logger="solstis.host")
    table = await bot_table(seated.ann)
    await asked(gate)
    cluster.scheduler.kill()
    await asyncio.wait_for(seated.host.bots.fell_back.wait(), SAFETY)
    reports = await asked(gate, 2)  # asked again, in the local pool
    assert reports[1]["pid"] in seated.host.bots.local.stats()["workers"]
    (gate / "open").touch()
    await state_with(seated.ann, table, 1)
    assert seated.host.bots.stats()["path"] == "local pool"
    assert "lost the connection" in caplog.text and "local pool" in caplog.text


async def test_an_unreachable_cluster_means_the_local_pool_until_it_answers(
        tmp_path, gate, caplog):
    caplog.set_level(logging.INFO, logger="solstis.host")
    folder = tmp_path / "cluster"
    folder.mkdir()
    later = Cluster(folder, {"SOLSTIS_TEST_GATE": str(gate)})  # not started yet
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05, bot_factory=gated_bot, bot_workers=1,
                            bot_cluster=ClusterSettings(later.address))
    host.bots.retry_seconds = 0.2
    ann = await HostClient.connect(host.socket_path)
    try:
        await ann.hello("Ann")
        (gate / "open").touch()
        table = await bot_table(ann)
        await state_with(ann, table, 1)  # the local pool answered
        assert host.bots.fell_back.is_set()
        assert host.bots.stats()["answered"] == 0
        assert "cannot reach it" in caplog.text
        later.start_scheduler()
        later.start_worker()
        await asyncio.wait_for(host.bots.connected.wait(), SAFETY)
        assert "connected; bots decide there" in caplog.text
        second = await bot_table(ann)
        await state_with(ann, second, 1)
        assert host.bots.stats()["answered"] >= 1  # the cluster again
    finally:
        ann.writer.close()
        await host.close()
        later.stop()


async def test_over_tls_only_a_certificate_from_the_clusters_ca_gets_in(tmp_path, gate):
    trustme = pytest.importorskip("trustme")
    ca, stranger_ca = trustme.CA(), trustme.CA()
    certs = tmp_path / "certs"
    folder = tmp_path / "cluster"
    folder.mkdir()
    cluster = Cluster(folder, {"SOLSTIS_TEST_GATE": str(gate)},
                      tls=tls_files(certs, ca, "scheduler"))
    cluster.start_scheduler()
    cluster.start_worker()
    (gate / "open").touch()
    hosts = []
    try:
        watcher = await cluster.client(workers=1)
        await watcher.close()
        for name, issuer in (("host", ca), ("stranger", stranger_ca)):
            files = tls_files(certs / name, issuer, name)
            host = await start_host(tmp_path / name, tmp_path / name / "host.sock",
                                    bot_seconds=0.05, bot_factory=gated_bot, bot_workers=1,
                                    bot_cluster=ClusterSettings(cluster.address, files))
            hosts.append(host)
            await asyncio.wait_for((host.bots.connected if issuer is ca
                                    else host.bots.fell_back).wait(), SAFETY)
            ann = await HostClient.connect(host.socket_path)
            await ann.hello("Ann")
            table = await bot_table(ann)
            await state_with(ann, table, 1)
            ann.writer.close()
        trusted, stranger = (h.bots.stats() for h in hosts)
        assert trusted["path"] == "cluster" and trusted["answered"] >= 1
        assert (stranger["path"], stranger["answered"]) == ("local pool", 0)
    finally:
        for host in hosts:
            await host.close()
        cluster.stop()

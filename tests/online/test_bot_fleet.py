"""Bots on a real TLS Dask fleet behind the host's gateway: decisions run on the workers,
which learn only the seat's observation; a killed worker costs a retry, never a move; a lost
or absent scheduler means the local pool until it is back; a game that ends cancels its
decision on the fleet; a hostile worker runs no code in the host and freezes no table; a
gateway without the fleet's certificate never gets in; the host never imports Dask."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed", reason="the bot fleet needs the [cluster] extra "
                                          "(pip install -e '.[cluster]')")

from solstis_tui.client.client import HostClient
from solstis_tui.core.observation import Observation
from solstis_tui.host.fleet import FleetSettings
from solstis_tui.host.fleet_certs import make

from .conftest import quick_bot, start_host
from .dask_cluster import ROOT, SAFETY, Cluster, bot_tasks
from .test_botpool import asked, bot_table, gated_bot, state_with


@pytest.fixture
def gate(tmp_path, monkeypatch) -> Path:
    """Where gated bots report what they were asked, and wait until ``open`` appears there
    (local workers and the fleet's alike). The gateway finds the tests' factory through
    PYTHONPATH."""
    folder = tmp_path / "gate"
    folder.mkdir()
    monkeypatch.setenv("SOLSTIS_TEST_GATE", str(folder))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    yield folder
    (folder / "open").touch()


def two_worker_fleet(folder: Path, gate: Path) -> Cluster:
    """A TLS scheduler and two workers (each one thread) on loopback, gated at ``gate``."""
    folder.mkdir()
    made = Cluster(folder, {"SOLSTIS_TEST_GATE": str(gate)})
    made.start_scheduler()
    made.start_worker()
    made.start_worker()
    return made


@pytest.fixture
def cluster(tmp_path, gate):
    """A fleet of the test's own, which it may kill or restart."""
    made = two_worker_fleet(tmp_path / "cluster", gate)
    yield made
    made.stop()


@pytest.fixture(scope="module")
def one_fleet(tmp_path_factory):
    """One fleet for the tests that kill and restart none of it (each Dask process takes
    about a second of CPU to start), and its gate."""
    folder = tmp_path_factory.mktemp("one-fleet")
    gate = folder / "gate"
    gate.mkdir()
    made = two_worker_fleet(folder / "cluster", gate)
    yield made, gate
    (gate / "open").touch()
    made.stop()


async def workers_idle(cluster: Cluster) -> None:
    """Until no worker of ``cluster`` runs a decision (a gated one ends once its gate
    opens) and the scheduler holds none."""
    def running(dask_worker: Any) -> int:
        return len(dask_worker.active_threads)

    client = await cluster.client(workers=len(cluster.workers))
    try:
        async with asyncio.timeout(SAFETY):
            while (await bot_tasks(client)
                   or any((await client.run(running)).values())):
                await asyncio.sleep(0.02)
    finally:
        await client.close()


@pytest.fixture
async def shared(one_fleet, monkeypatch):
    """The shared fleet, idle, with its gate closed and empty: the test's gate, as the
    ``gate`` fixture's is (the host's local workers wait at it too)."""
    fleet, gate = one_fleet
    (gate / "open").touch()  # what an earlier test left waiting ends
    await workers_idle(fleet)
    for left in gate.iterdir():
        left.unlink()
    monkeypatch.setenv("SOLSTIS_TEST_GATE", str(gate))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    yield fleet, gate
    (gate / "open").touch()


class Seated:
    """A host whose bots use the test's fleet, Ann connected to it, and a client of the
    test's own that looks at the scheduler."""

    def __init__(self, host, ann: HostClient, watcher) -> None:
        self.host, self.ann, self.watcher = host, ann, watcher


async def seat(tmp_path, cluster, settings=None, **host) -> Seated:
    watcher = await cluster.client(workers=len(cluster.workers))
    made = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05, bot_factory=host.pop("factory", gated_bot),
                            bot_workers=1, bot_cluster=settings or cluster.settings(), **host)
    ann = await HostClient.connect(made.socket_path)
    await ann.hello("Ann")
    return Seated(made, ann, watcher)


async def unseat(seated: Seated) -> None:
    seated.ann.writer.close()
    (Path(os.environ["SOLSTIS_TEST_GATE"]) / "open").touch()
    await seated.host.close()
    await seated.watcher.close()
    assert seated.host.internal_errors == [], seated.host.internal_errors


async def seat_ready(tmp_path, cluster) -> Seated:
    made = await seat(tmp_path, cluster)
    await asyncio.wait_for(made.host.bots.present.wait(), SAFETY)
    made.host.bots.grace = SAFETY  # these tests are not about time: a busy machine is slow
    return made


@pytest.fixture
async def seated(tmp_path, cluster):
    made = await seat_ready(tmp_path, cluster)
    yield made
    await unseat(made)


@pytest.fixture
async def seated_shared(tmp_path, shared):
    made = await seat_ready(tmp_path, shared[0])
    yield made
    await unseat(made)


async def test_bots_decide_on_the_fleet_and_its_workers_learn_only_the_seat_observation(
        seated_shared, shared):
    seated, (cluster, gate) = seated_shared, shared
    table = await bot_table(seated.ann)
    [report] = await asked(gate)
    game = seated.host.tables[table].game
    assert report["observation"] == game.observation(0) != game.observation(1)
    assert isinstance(report["observation"], Observation)
    assert report["games"] == 0  # no Game anywhere in the fleet's worker
    assert report["pid"] in [worker.pid for worker in cluster.workers]
    (gate / "open").touch()
    await state_with(seated.ann, table, 1)
    stats = seated.host.bots.stats()
    assert stats["path"] == "cluster" and stats["answered"] >= 1  # the bot may go on
    assert stats["cluster_workers"] == 2
    assert stats["local"]["served"] == {}
    assert seated.host.status()["bot_seats"]["random_moves"] == 0


async def test_a_worker_killed_mid_decision_costs_a_retry_on_another_never_a_move(
        seated, gate):
    table = await bot_table(seated.ann)
    [first] = await asked(gate)
    async with asyncio.timeout(SAFETY):  # the host knows the decision has started
        while not seated.host.bots.starts:
            await asyncio.sleep(0.01)
    os.kill(first["pid"], signal.SIGKILL)
    reports = await asked(gate, 2)  # the scheduler gave the decision to the other worker
    assert reports[1]["pid"] != first["pid"]
    assert reports[1]["observation"] == first["observation"]
    (gate / "open").touch()
    state = await state_with(seated.ann, table, 1)
    assert state["observation"]["history"][0][0] == 0  # the bot moved
    async with asyncio.timeout(SAFETY):  # the second start may be said after the answer
        while seated.host.bots.stats()["retried"] < 1:
            await asyncio.sleep(0.01)
    stats = seated.host.bots.stats()
    assert stats["retried"] == 1 and stats["answered"] >= 1
    assert stats["local"]["served"] == {}
    assert seated.host.status()["bot_seats"]["random_moves"] == 0


async def test_a_game_that_ends_cancels_its_pending_decision_on_the_fleet(seated_shared,
                                                                         shared):
    seated, (_, gate) = seated_shared, shared
    table = await bot_table(seated.ann)
    await asked(gate)
    assert len(await bot_tasks(seated.watcher)) == 1
    await seated.ann.send({"type": "resign", "table": table})
    await seated.ann.receive_until("state", table=table)
    async with asyncio.timeout(SAFETY):
        while await bot_tasks(seated.watcher):
            await asyncio.sleep(0.05)


async def test_a_scheduler_killed_mid_decision_hands_it_to_the_local_pool(
        seated, cluster, gate, caplog):
    caplog.set_level(logging.WARNING, logger="solstis.host")
    table = await bot_table(seated.ann)
    await asked(gate)
    cluster.scheduler.kill()
    await asyncio.wait_for(seated.host.bots.absent.wait(), SAFETY)
    reports = await asked(gate, 2)  # asked again, in the local pool
    assert reports[1]["pid"] in seated.host.bots.local.stats()["workers"]
    (gate / "open").touch()
    await state_with(seated.ann, table, 1)
    status = seated.host.status()
    assert status["bots"]["path"] == "local pool" and status["bots"]["to_local"] >= 1
    assert status["bot_seats"]["random_moves"] == 0
    assert "bots decide in the local pool" in caplog.text


async def test_a_restarted_scheduler_and_its_supervised_workers_take_decisions_again(
        seated, cluster, gate):
    (gate / "open").touch()
    first = await bot_table(seated.ann)
    await state_with(seated.ann, first, 1)
    cluster.scheduler.kill()  # kill -9; the workers end without it
    cluster.scheduler.wait()
    await asyncio.wait_for(seated.host.bots.absent.wait(), SAFETY)
    for worker in cluster.workers:
        worker.kill()
        worker.wait()
    cluster.workers.clear()
    cluster.start_scheduler()  # as systemd's Restart=always would
    cluster.start_worker()
    await asyncio.wait_for(seated.host.bots.present.wait(), SAFETY)
    answered = seated.host.bots.stats()["answered"]
    second = await bot_table(seated.ann)
    await state_with(seated.ann, second, 1)
    stats = seated.host.bots.stats()
    assert stats["answered"] > answered, stats["to_local_why"]  # on the fleet again
    assert seated.host.status()["bot_seats"]["random_moves"] == 0


async def test_an_unreachable_fleet_means_the_local_pool_until_it_has_workers(
        tmp_path, gate, caplog):
    caplog.set_level(logging.INFO, logger="solstis.host")
    folder = tmp_path / "cluster"
    folder.mkdir()
    later = Cluster(folder, {"SOLSTIS_TEST_GATE": str(gate)})  # not started yet
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05, bot_factory=gated_bot, bot_workers=1,
                            bot_cluster=later.settings())
    host.bots.grace = SAFETY  # not about time: a busy machine is slow
    ann = await HostClient.connect(host.socket_path)
    try:
        await ann.hello("Ann")
        (gate / "open").touch()
        table = await bot_table(ann)
        await state_with(ann, table, 1)  # the local pool answered
        assert host.bots.stats()["answered"] == 0
        later.start_scheduler()
        later.start_worker()
        await asyncio.wait_for(host.bots.present.wait(), SAFETY)
        assert "1 workers; bots decide there" in caplog.text
        second = await bot_table(ann)
        await state_with(ann, second, 1)
        assert host.bots.stats()["answered"] >= 1  # the fleet again
    finally:
        ann.writer.close()
        await host.close()
        later.stop()


async def test_a_gateway_without_a_certificate_from_the_fleets_ca_never_gets_in(
        tmp_path, shared, caplog):
    cluster, gate = shared
    caplog.set_level(logging.INFO, logger="solstis.host")
    stranger = tmp_path / "stranger"
    make(stranger, ["127.0.0.1"], ["localhost"])
    files = (str(stranger / "ca.pem"), str(stranger / "gateway.pem"),
             str(stranger / "gateway.key"))
    seated = await seat(tmp_path, cluster, FleetSettings(cluster.address, files))
    try:
        (gate / "open").touch()
        table = await bot_table(seated.ann)
        await state_with(seated.ann, table, 1)
        async with asyncio.timeout(SAFETY):  # it has tried and failed at least once
            while "cannot reach the scheduler" not in caplog.text:
                await asyncio.sleep(0.05)
        stats = seated.host.bots.stats()
        assert (stats["answered"], stats["cluster_workers"]) == (0, 0)
        assert stats["to_local"] >= 1
    finally:
        await unseat(seated)


@pytest.fixture
def markers():
    """A folder anyone may write in (the gateway may run as another user): a hostile
    object's code leaves ``ran-in-PID`` there if it runs."""
    folder = tempfile.mkdtemp(prefix="solstis-markers-")
    os.chmod(folder, 0o777)
    yield Path(folder)
    for marker in Path(folder).iterdir():
        marker.unlink()
    os.rmdir(folder)


@pytest.fixture(scope="module")
def hostile_fleet(tmp_path_factory):
    """One fleet whose worker is hostile (``hostile_worker``), for each mode in turn: what
    it does is the file ``orders`` (a test writes it before its host starts)."""
    folder = tmp_path_factory.mktemp("hostile-fleet")
    orders = folder / "orders"
    orders.write_text("", encoding="utf-8")
    (folder / "cluster").mkdir()
    hostile = Cluster(folder / "cluster", {"SOLSTIS_TEST_HOSTILE": str(orders)})
    hostile.start_scheduler()
    hostile.start_worker(preload="tests.online.hostile_worker")
    yield hostile, orders
    orders.write_text("", encoding="utf-8")  # a worker that answers never lets go
    hostile.stop()


@pytest.mark.parametrize(("mode", "counted"), [
    ("pickle", "refused"), ("garbage", "refused"), ("illegal", "refused"),
    ("never", "no answer in time"),
])
async def test_a_hostile_worker_runs_no_code_in_the_host_and_freezes_no_table(
        tmp_path, gate, markers, hostile_fleet, mode, counted):
    hostile, orders = hostile_fleet
    data = tmp_path / "data"
    orders.write_text(f"{mode}\n{markers}:{data}\n", encoding="utf-8")
    await workers_idle(hostile)  # nothing an earlier test asked is still running
    (gate / "open").touch()
    seated = await seat(tmp_path, hostile, factory=quick_bot)
    try:
        await asyncio.wait_for(seated.host.bots.present.wait(), SAFETY)
        seated.host.bots.grace = 1.0 if mode == "never" else SAFETY
        table = await bot_table(seated.ann)
        await state_with(seated.ann, table, 1)  # the local pool answered for the fleet
        status = seated.host.status()
    finally:
        orders.write_text("", encoding="utf-8")
        await unseat(seated)
    bots = status["bots"]
    assert status["bot_seats"]["random_moves"] == 0
    assert sum(bots["local"]["served"].values()) >= 1
    if counted == "refused":
        assert bots["refused"] >= 1, bots["to_local_why"]
    else:
        assert bots["to_local_why"].get(counted, 0) >= 1, bots["to_local_why"]
    ran = sorted(p.name for p in markers.iterdir())
    assert f"ran-in-{os.getpid()}" not in ran  # never in the host's process
    if os.geteuid() == 0:  # the gateway ran as another user: the host's data is closed
        assert not list(data.glob("ran-in-*"))
    if mode == "pickle":
        assert ran, "the hostile object never ran: the test proves nothing"


def test_the_host_never_imports_dask(tmp_path, one_fleet):
    """In a process of its own (the tests import Dask): a host with a fleet, one decision."""
    cluster, gate = one_fleet
    (gate / "open").touch()  # (a real bot decides here: no gated decision is left waiting)
    script = f"""
import asyncio, sys
from solstis_tui.host.botpool import BotPool, Decision
from solstis_tui.host.fleet import FleetPool
from solstis_tui.host.fleet import FleetSettings
from solstis_tui.core import Game

async def main():
    pool = FleetPool(FleetSettings({cluster.address!r}, {cluster.settings().tls!r}), BotPool(1),
                     grace={SAFETY})
    pool.start()
    await asyncio.wait_for(pool.present.wait(), {SAFETY})
    game = Game.new(seed=1)
    await pool.decide("t", Decision("random", 1, game.observation(game.to_play), 0.05))
    answered = pool.stats()["answered"]
    await pool.close()
    print(answered, "distributed" in sys.modules, "dask" in sys.modules)

asyncio.run(main())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=SAFETY * 2, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.split() == ["1", "False", "False"], done.stdout + done.stderr

"""The scale of a host with a bot fleet and TLS front ends, measured on this machine.

    .venv/bin/python benchmarks/cluster_load.py [--players 500] [--bot-tables 50]
        [--frontends 4] [--seconds 30] [--workers 1,2,MAX] [--kill-worker]

Needs the cluster extra and trustme (``pip install -e '.[test,cluster]'``). Everything runs
on loopback, each part a process of its own, as deployed: a Dask scheduler and workers
(``dask scheduler``, ``dask worker --nthreads 1``), the host (``solstis host
--bot-cluster ... --listen-tls ...``) and front-end processes, each holding a share of the
simulated players over TLS with its front-end certificate (each player is an SSH key the
keys file names, as after an SSH login). Prints:

1. the cluster path's overhead per decision against the local pool: the same decisions
   (the random tier: no thinking) one at a time through each, round trip p50/p95/p99;
2. bot decisions per second against the number of workers (``--tier`` at
   ``--bot-seconds``, twice as many asked at once as there are workers);
3. under load (``--players`` people in pairs at friend tables, ``--bot-tables`` people
   each answering a bot at once): people's move round trip p50/p95/p99 (from sending a
   move to the state that shows it), errors and drops, and the host's own figures (bot
   queue wait and thinking, decisions retried and lost); with ``--kill-worker``, one Dask
   worker is killed halfway through;
4. with the scheduler away: how long the first decision takes (the local pool answers);
   then, the scheduler started, how long until decisions go to it again.

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import host_load

from solstis_tui.client.client import HostClient
from solstis_tui.core import Game
from solstis_tui.host import status_cli
from solstis_tui.host.bot_cluster import ClusterPool, ClusterSettings
from solstis_tui.host.botpool import BotPool, Decision
from solstis_tui.host.identity import key_line
from solstis_tui.wire.tls import TlsTarget, client_context

DASK = Path(sys.executable).with_name("dask")
SAFETY = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Fleet:
    """A scheduler and ``workers`` worker processes (one thread each) on loopback."""

    def __init__(self, folder: Path, workers: int, port: int | None = None,
                 nice: int = 0) -> None:
        self.port = port or free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.folder = folder
        log = (folder / "scheduler.log").open("ab")
        self.scheduler = subprocess.Popen(
            [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(self.port),
             "--no-dashboard"], stdout=log, stderr=subprocess.STDOUT)
        log = (folder / "workers.log").open("ab")
        self.nanny = subprocess.Popen(
            ["nice", "-n", str(nice), str(DASK), "worker", self.address, "--nworkers",
             str(workers), "--nthreads", "1", "--no-dashboard",
             "--preload", "solstis_tui.host.bot_cluster"],
            stdout=log, stderr=subprocess.STDOUT)
        self.workers = workers

    async def ready(self) -> None:
        from distributed import Client

        async with asyncio.timeout(SAFETY):
            while True:
                client = Client(self.address, asynchronous=True, timeout=5,
                                set_as_default=False)
                try:
                    await client
                    break
                except OSError:
                    await client.close()
                    await asyncio.sleep(0.2)
            await client.wait_for_workers(self.workers)
            await client.close()

    def worker_pids(self) -> list[int]:
        """The worker processes: the children of the ``dask worker`` command (its nannies
        run in it) but for multiprocessing's resource tracker."""
        out = subprocess.run(["pgrep", "-P", str(self.nanny.pid)], capture_output=True,
                             text=True).stdout.split()
        return [int(pid) for pid in out
                if "resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_text()]

    def stop(self) -> None:
        for process in (self.nanny, self.scheduler):
            process.send_signal(signal.SIGTERM)
        for process in (self.nanny, self.scheduler):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def decision(seed: int, tier: str, seconds: float) -> Decision:
    game = Game.new(seed=seed)
    rand = random.Random(seed)
    for _ in range(rand.randrange(0, 20)):
        if game.is_over:
            break
        game.play(rand.choice(game.legal_moves()))
    if game.is_over:
        game = Game.new(seed=seed)
    return Decision(tier, seed, game.observation(game.to_play), seconds)


# ---------------------------------------------------------------------- 1. overhead
async def overhead(folder: Path, count: int) -> None:
    fleet = Fleet(folder, 1)
    try:
        await fleet.ready()
        local = BotPool(1)
        cluster = ClusterPool(ClusterSettings(fleet.address), BotPool(1))
        times: dict[str, list[float]] = {"local pool": [], "cluster": []}
        for i in range(count + 10):
            for name, pool in (("local pool", local), ("cluster", cluster)):
                start = time.perf_counter()
                await pool.decide("t", decision(i, "random", 0.0))
                if i >= 10:  # the first ones start processes and load code
                    times[name].append(time.perf_counter() - start)
        for name, found in times.items():
            print(f"  {name:10s}: {host_load.percentiles(found)}", flush=True)
        extra = [c - lo for c, lo in zip(sorted(times["cluster"]), sorted(times["local pool"]),
                                         strict=True)]
        print(f"  cluster path overhead (quantile by quantile): {host_load.percentiles(extra)}",
              flush=True)
        await cluster.close()
        await local.close()
    finally:
        fleet.stop()


# ---------------------------------------------------------------------- 2. throughput
async def throughput(folder: Path, workers: int, tier: str, seconds: float,
                     span: float) -> None:
    fleet = Fleet(folder, workers)
    try:
        await fleet.ready()
        cluster = ClusterPool(ClusterSettings(fleet.address), BotPool(1))
        await cluster.decide("warm", decision(0, "random", 0.0))
        done = 0
        until = time.perf_counter() + span

        async def asker(k: int) -> None:
            nonlocal done
            i = 0
            while time.perf_counter() < until:
                await cluster.decide(f"t{k}", decision(1000 * k + i, tier, seconds))
                done += 1
                i += 1

        start = time.perf_counter()
        await asyncio.gather(*(asker(k) for k in range(2 * workers)))
        took = time.perf_counter() - start
        stats = cluster.stats()
        print(f"  {workers} workers: {done / took:.2f} decisions/s ({done} in {took:.0f} s; "
              f"ideal {workers / seconds:.2f}); queue wait "
              f"p50 {stats['queue_wait_ms']['p50']} ms, p95 {stats['queue_wait_ms']['p95']} "
              f"ms; local pool used {sum(stats['local']['served'].values())}", flush=True)
        await cluster.close()
    finally:
        fleet.stop()


# ---------------------------------------------------------------------- 4. away and back
async def away_and_back(folder: Path) -> None:
    """A scheduler that is not there: how long the first decision takes (the local pool
    answers it); then the scheduler starts: how long until decisions go there again."""
    port = free_port()
    cluster = ClusterPool(ClusterSettings(f"tcp://127.0.0.1:{port}"), BotPool(1))
    await BotPool.decide(cluster.local, "warm", decision(0, "random", 0.0))  # spawn first
    start = time.perf_counter()
    await cluster.decide("t", decision(1, "random", 0.0))
    first = time.perf_counter() - start
    fleet = Fleet(folder, 1, port)
    try:
        started = time.perf_counter()
        await asyncio.wait_for(cluster.connected.wait(), SAFETY)
        back = time.perf_counter() - started
        await cluster.decide("t", decision(2, "random", 0.0))
        print(f"  scheduler unreachable: the first decision answered by the local pool in "
              f"{first:.2f} s; the scheduler started: decisions there again after "
              f"{back:.1f} s (its start included; the host tries every "
              f"{cluster.retry_seconds:g} s); answered there {cluster.stats()['answered']}",
              flush=True)
    finally:
        await cluster.close()
        fleet.stop()


# ---------------------------------------------------------------------- 3. load
def ssh_key(name: str) -> str:
    """A made-up ed25519 public key for ``name`` (the host only matches key blobs)."""
    kind = b"ssh-ed25519"
    blob = len(kind).to_bytes(4, "big") + kind + (32).to_bytes(4, "big") + os.urandom(32)
    return f"ssh-ed25519 {base64.b64encode(blob).decode()} {name}@loadtest"


def make_certs(folder: Path, frontends: int) -> dict[str, Any]:
    import trustme

    host_ca, frontend_ca = trustme.CA(), trustme.CA()
    files: dict[str, Any] = {"host_ca": folder / "host-ca.pem",
                             "frontend_ca": folder / "frontend-ca.pem",
                             "cert": folder / "host.pem", "key": folder / "host.key",
                             "frontends": []}
    host_ca.cert_pem.write_to_path(str(files["host_ca"]))
    frontend_ca.cert_pem.write_to_path(str(files["frontend_ca"]))
    leaf = host_ca.issue_cert("127.0.0.1", "localhost")
    leaf.cert_chain_pems[0].write_to_path(str(files["cert"]))
    leaf.private_key_pem.write_to_path(str(files["key"]))
    for i in range(frontends):
        fe = frontend_ca.issue_cert(f"frontend{i}", common_name=f"frontend{i}")
        pair = (folder / f"frontend{i}.pem", folder / f"frontend{i}.key")
        fe.cert_chain_pems[0].write_to_path(str(pair[0]))
        fe.private_key_pem.write_to_path(str(pair[1]))
        files["frontends"].append([str(pair[0]), str(pair[1])])
    return {k: (str(v) if isinstance(v, Path) else v) for k, v in files.items()}


async def frontend(job: dict[str, Any]) -> dict[str, Any]:
    """One front-end process: its share of the players, over TLS; returns its tallies."""
    context = client_context(Path(job["host_ca"]), Path(job["cert"]), Path(job["key"]))
    target = TlsTarget("127.0.0.1", job["port"], context)
    keys: dict[str, str] = job["keys"]

    async def dial(name: str) -> HostClient:
        client = await HostClient.connect(tls=target)
        client.ssh_key = keys[name]
        await client.hello(name)
        return client

    run = host_load.Run(Path("unused"), job["think"], job["seconds"], dial=dial,
                        bot_tier=job["tier"])
    return await host_load.share(run, job["pairs"], job["bots"], job["start_at"])


async def load(folder: Path, args: argparse.Namespace, workers: int) -> None:
    fleet = Fleet(folder, workers, nice=args.nice_workers)
    certs = make_certs(folder, args.frontends)
    names = [f"{kind}{i}" for i in range(args.players // 2) for kind in "AB"]
    names += [f"Bot{i}" for i in range(args.bot_tables)]
    keys = {name: ssh_key(name) for name in names}
    (folder / "keys").write_text("".join(key_line(k, n) + "\n" for n, k in keys.items()))
    port = free_port()
    sock = folder / "host.sock"
    host = None
    try:
        await fleet.ready()
        with (folder / "host.err").open("w+b") as errors:
            host = await host_load.start_host(
                [sys.executable, "-m", "solstis_tui.cli", "host", "--socket", str(sock),
                 "--data", str(folder / "data"), "--new-names-per-minute", "100000",
                 "--max-connections", str(len(names) + 100),
                 "--max-open-tables", str(len(names)),  # every pair opens one at once
                 "--bot-seconds", str(args.bot_seconds), "--bot-cluster", fleet.address,
                 "--keys-file", str(folder / "keys"),
                 "--listen-tls", f"127.0.0.1:{port}", "--cert", certs["cert"],
                 "--key", certs["key"], "--frontend-ca", certs["frontend_ca"]],
                errors)
            start_at = time.time() + 10 + len(names) / 50  # time for everyone to connect
            procs = []
            for f in range(args.frontends):
                job = {"port": port, "host_ca": certs["host_ca"],
                       "cert": certs["frontends"][f][0], "key": certs["frontends"][f][1],
                       "keys": keys, "think": args.think, "seconds": args.seconds,
                       "tier": args.tier, "start_at": start_at,
                       "pairs": list(range(f, args.players // 2, args.frontends)),
                       "bots": list(range(f, args.bot_tables, args.frontends))}
                procs.append(await asyncio.create_subprocess_exec(
                    sys.executable, __file__, "--frontend-job", json.dumps(job),
                    stdout=asyncio.subprocess.PIPE))
            killed_at = None
            if args.kill_worker:
                await asyncio.sleep(max(0.0, start_at - time.time()) + args.seconds / 2)
                pids = fleet.worker_pids()
                if pids:
                    os.kill(pids[0], signal.SIGKILL)
                    killed_at = time.time()
                    print(f"  killed Dask worker {pids[0]} halfway through", flush=True)
            outs = [json.loads((await p.communicate())[0]) for p in procs]
            status = await asyncio.to_thread(status_cli.ask, sock)
        times = [t for out in outs for t in out["times"]]
        print(f"  {args.players} people over {args.frontends} TLS front ends, "
              f"{args.bot_tables} bot tables ({args.tier} at {args.bot_seconds} s), "
              f"{workers} Dask workers (nice {args.nice_workers}), {args.seconds:.0f} s:",
              flush=True)
        print(f"  people's moves: {host_load.percentiles(times)}", flush=True)
        errors: dict[str, int] = {}
        for out in outs:
            for code, n in out["errors"].items():
                errors[code] = errors.get(code, 0) + n
        print(f"  bot moves {sum(o['bot_moves'] for o in outs)}; errors {errors}; drops "
              f"{sum(o['drops'] for o in outs)}", flush=True)
        bots = status["bots"]
        print(f"  host: bots on the {bots['path']}; answered {bots['answered']}, retried "
              f"{bots['retried']}, lost {bots['lost']}, cancelled {bots['cancelled']}; "
              f"queue wait {bots['queue_wait_ms']}; thinking {bots['thinking_ms']}; local "
              f"pool served {sum(bots['local']['served'].values())}", flush=True)
        for retry in bots["retries"]:
            since = retry["first_start"] if killed_at is None else killed_at
            print(f"  a retried decision: started again {retry['restart'] - since:.2f} s and "
                  f"answered {retry['answered'] - since:.2f} s after "
                  f"{'its first start' if killed_at is None else 'the kill'} (budget "
                  f"{args.bot_seconds:g} s + 2 s = {args.bot_seconds + 2:g} s)", flush=True)
    finally:
        if host is not None:
            host.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                host.wait(timeout=30)
        fleet.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--bot-tables", type=int, default=50)
    parser.add_argument("--frontends", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean seconds a person waits before moving")
    parser.add_argument("--tier", default="mcts")
    parser.add_argument("--bot-seconds", type=float, default=0.5)
    parser.add_argument("--workers", default=f"1,2,{os.cpu_count() or 1}")
    parser.add_argument("--overhead-decisions", type=int, default=200)
    parser.add_argument("--kill-worker", action="store_true")
    parser.add_argument("--nice-workers", type=int, default=0,
                        help="niceness of the workers under load (to stand in for workers "
                             "on machines of their own, let the host's processes go first)")
    parser.add_argument("--only", choices=("overhead", "throughput", "load", "away"),
                        default=None)
    parser.add_argument("--frontend-job", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.frontend_job:
        print(json.dumps(asyncio.run(frontend(json.loads(args.frontend_job)))))
        return
    workers = sorted({int(w) for w in args.workers.split(",")})
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.only in (None, "overhead"):
            print("1. the cluster path against the local pool, one decision at a time:")
            asyncio.run(overhead(folder, args.overhead_decisions))
        if args.only in (None, "throughput"):
            print(f"2. decisions per second ({args.tier} at {args.bot_seconds} s):")
            for w in workers:
                asyncio.run(throughput(folder, w, args.tier, args.bot_seconds, args.seconds))
        if args.only in (None, "away"):
            print("4. the scheduler away, and back:")
            asyncio.run(away_and_back(folder))
        if args.only in (None, "load"):
            print("3. under load:")
            asyncio.run(load(folder, args, max(workers)))


if __name__ == "__main__":
    main()

"""The host's bot fleet under load and failure, measured on this machine (issue 59).

    .venv/bin/python benchmarks/cluster_load.py SCENARIO [options]

Everything runs on loopback as deployed: a Dask scheduler and ``dask worker`` processes with
mutual TLS (files from ``solstis fleet certs``' ``make``, ``require-encryption`` on, the
fleet's preload), the host (``solstis host --bot-cluster tls://... --bot-cluster-tls DIR
--bot-workers 1``) with its fleet gateway, and players over the host's Unix socket.
Scenarios (each prints counts, p50/p95/max; nothing is asserted):

``overhead``   the same decisions one at a time through the local pool and through the
               fleet (FleetPool → gateway → Dask): round trip less the thinking the answer
               reports, per path, and the fleet's extra (random tier, then ``--tier``).
``capacity``   1, 2, ... workers each kept busy by one asker: decisions a second and search
               iterations a second, in all and per worker (what shows cores).
``burst``      ``--tables`` players ask for a bot table at the same moment; those refused
               and why; the rest play for ``--seconds``, each waiting ``--delay`` seconds
               before a move (``0``: at once), and every bot decision's wait as the player
               sees it (from the state that gives the bot the move to the state with its move).
``scheduler-kill``  kill -9 the scheduler after ``--kill-at`` s; a supervisor starts the
               scheduler and any worker again 1 s after it exits (systemd Restart=always,
               RestartSec=1).
``scheduler-gone``  kill -9 the scheduler and every worker; nothing starts again.
``worker-kill``     kill -9 one worker after ``--kill-at`` s (both are deciding then); it is
               started again 1 s after, as above.
``load``       people at friend tables over TLS front-end processes while bot tables think
               (the people's move round trips), optionally ``--kill-worker`` halfway.
"""

from __future__ import annotations

import argparse
import asyncio
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
from collections import Counter
from pathlib import Path
from typing import Any

import host_load

from solstis_tui.ai.arena_stats import percentile
from solstis_tui.client.client import HostClient, HostError
from solstis_tui.core import Game
from solstis_tui.core.observation_json import observation_to_dict
from solstis_tui.host import status_cli
from solstis_tui.host.botpool import BotPool, Decision
from solstis_tui.host.fleet import FleetPool, FleetSettings
from solstis_tui.host.fleet_certs import make

ROOT = Path(__file__).resolve().parents[1]
DASK = Path(sys.executable).with_name("dask")
SAFETY = 120.0  # seconds: a net for a broken run, never a measured time


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def figures(values: list[float], unit: str = "s", scale: float = 1.0) -> str:
    """Count, p50, p95 and max of ``values`` (times ``scale``, in ``unit``)."""
    if not values:
        return "none"
    ranked = sorted(v * scale for v in values)
    digits = 1 if unit == "ms" else 2
    return (f"n={len(ranked)} p50 {percentile(ranked, 50):.{digits}f} {unit}, p95 "
            f"{percentile(ranked, 95):.{digits}f} {unit}, max {ranked[-1]:.{digits}f} {unit}")


def say(text: str) -> None:
    print(text, flush=True)


class Fleet:
    """A TLS scheduler and ``workers`` worker processes (one thread each) on loopback; with
    ``supervise``, each is started again 1 s after it exits."""

    def __init__(self, folder: Path, workers: int, nice: int = 5) -> None:
        self.folder, self.nice = folder, nice
        self.certs = folder / "certs"
        make(self.certs, ["127.0.0.1"], ["localhost"])
        self.port = free_port()
        self.address = f"tls://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True"}
        self.scheduler = self._scheduler()
        self.workers = [self._worker(i) for i in range(workers)]
        self.starts: list[tuple[float, str]] = []
        self.supervising = False

    def _start(self, args: list[str], name: str, part: str, nice: int) -> subprocess.Popen[bytes]:
        files = [str(self.certs / f) for f in ("ca.pem", f"{part}.pem", f"{part}.key")]
        log = (self.folder / f"{name}.log").open("ab")
        return subprocess.Popen(
            ["nice", "-n", str(nice), str(DASK), *args, "--tls-ca-file", files[0],
             "--tls-cert", files[1], "--tls-key", files[2]],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def _scheduler(self) -> subprocess.Popen[bytes]:
        return self._start(["scheduler", "--protocol", "tls", "--host", "127.0.0.1", "--port",
                            str(self.port), "--no-dashboard", "--dashboard-address",
                            "127.0.0.1:0", "--preload", "solstis_tui.host.fleet_node"],
                           "scheduler", "scheduler", 0)

    def _worker(self, i: int) -> subprocess.Popen[bytes]:
        return self._start(["worker", self.address, "--name", f"local-{i:02d}", "--nthreads",
                            "1", "--no-nanny", "--no-dashboard", "--dashboard-address",
                            "127.0.0.1:0", "--listen-address", f"tls://127.0.0.1:{free_port()}",
                            "--death-timeout", "30", "--preload",
                            "solstis_tui.host.fleet_node"], f"worker{i}", "worker-localhost",
                           self.nice)

    def settings(self) -> FleetSettings:
        return FleetSettings(self.address, tuple(  # type: ignore[arg-type]
            str(self.certs / f) for f in ("ca.pem", "gateway.pem", "gateway.key")))

    async def client(self, workers: int) -> Any:
        """A Dask client of the benchmark's own, once ``workers`` workers are in."""
        from distributed import Client, Security

        ca, cert, key = self.settings().tls
        security = Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key,
                            require_encryption=True)
        async with asyncio.timeout(SAFETY):
            while True:
                client = Client(self.address, asynchronous=True, timeout=5,
                                set_as_default=False, security=security)
                try:
                    await client
                    break
                except OSError:
                    await client.close()
                    await asyncio.sleep(0.2)
            await client.wait_for_workers(workers)
        return client

    async def supervise(self) -> None:
        """systemd's Restart=always, RestartSec=1: start a part again 1 s after it exits."""
        self.supervising = True
        exited: dict[int, float] = {}
        while self.supervising:
            now = time.monotonic()
            parts = [self.scheduler, *self.workers]
            for index, process in enumerate(parts):
                if process.poll() is None:
                    continue
                since = exited.setdefault(index, now)
                if now - since >= 1.0:
                    del exited[index]
                    if index == 0:
                        self.scheduler = self._scheduler()
                    else:
                        self.workers[index - 1] = self._worker(index - 1)
                    self.starts.append((now, "scheduler" if index == 0 else f"worker{index - 1}"))
            await asyncio.sleep(0.05)

    def stop(self) -> None:
        self.supervising = False
        for process in self.workers:
            if process.poll() is None:
                process.kill()
            process.wait()
        self.scheduler.send_signal(signal.SIGTERM)
        try:
            self.scheduler.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.scheduler.kill()
            self.scheduler.wait()


def decision(seed: int, tier: str, seconds: float) -> Decision:
    """A bot seat's decision a few random moves into a game of ``seed``."""
    game = Game.new(seed=seed)
    rand = random.Random(seed)
    for _ in range(rand.randrange(0, 20)):
        if game.is_over:
            break
        game.play(rand.choice(game.legal_moves()))
    if game.is_over:
        game = Game.new(seed=seed)
    return Decision(tier, seed, game.observation(game.to_play), seconds)


# ---------------------------------------------------------------------- overhead
async def overhead(folder: Path, args: argparse.Namespace) -> None:
    """Paths alternate decision by decision: the local pool, the fleet through the gateway
    (as the host asks), and the fleet by a Dask client in this process (no gateway: what
    the gateway's pipe and checks add is the difference)."""
    from solstis_tui.host.fleet_node import decide

    fleet = Fleet(folder, 1, args.nice_workers)
    local = BotPool(1)
    pool = FleetPool(fleet.settings(), BotPool(1))
    client = await fleet.client(1)

    async def direct(d: Decision) -> float:
        obs = json.dumps(observation_to_dict(d.observation))
        reply = await client.submit(decide, None, d.tier, d.seed, obs, d.seconds, pure=False)
        return float(reply[3])

    try:
        pool.start()
        await asyncio.wait_for(pool.present.wait(), SAFETY)
        for tier, seconds, count in (("random", 0.0, args.decisions),
                                     (args.tier, args.bot_seconds, args.thinking_decisions)):
            extra: dict[str, list[float]] = {"local pool": [], "gateway": [], "no gateway": []}
            went_local = 0
            for i in range(count + 5):  # the first five start processes and load code
                d = decision(i, tier, seconds)
                for name in extra:
                    answered = pool.outcomes["fleet"]
                    start = time.perf_counter()
                    if name == "no gateway":
                        thought = await direct(d)
                    else:
                        path = pool if name == "gateway" else local
                        await path.decide("t", d)
                        thought = path.thinking.values[-1]
                    took = time.perf_counter() - start
                    if name == "gateway" and pool.outcomes["fleet"] == answered:
                        went_local += 1
                    elif i >= 5:
                        extra[name].append(took - thought)
            say(f"  {tier} at {seconds:g} s, one decision at a time; round trip less the "
                f"thinking the answer reports:")
            for name, values in extra.items():
                say(f"    {name:10s}: {figures(values, 'ms', 1000)}")
            if went_local:
                say(f"    the fleet passed {went_local} to the local pool: {dict(pool.to_local)}")
            base = sorted(extra["local pool"])
            for name in ("gateway", "no gateway"):
                ranked = sorted(extra[name])
                if ranked and base:
                    say(f"    fleet ({name}) less the local pool: p50 "
                        f"{(percentile(ranked, 50) - percentile(base, 50)) * 1000:.1f} ms, p95 "
                        f"{(percentile(ranked, 95) - percentile(base, 95)) * 1000:.1f} ms "
                        f"(quantile less quantile)")
    finally:
        await client.close()
        await pool.close()
        await local.close()
        fleet.stop()


# ---------------------------------------------------------------------- capacity
async def capacity(folder: Path, args: argparse.Namespace) -> None:
    from solstis_tui.host.fleet_node import decide

    counts = sorted({int(w) for w in args.workers.split(",")})
    fleet = Fleet(folder, max(counts), args.nice_workers)
    client = await fleet.client(max(counts))
    try:
        obs = [json.dumps(observation_to_dict(decision(i, args.tier, 0).observation))
               for i in range(50)]
        await client.submit(decide, None, "random", 0, obs[0], 0.0, pure=False)
        for busy in counts:
            done: list[tuple[int, float]] = []
            until = time.perf_counter() + args.seconds

            async def asker(k: int, done: list[tuple[int, float]] = done,
                            until: float = until) -> None:
                i = 0
                while time.perf_counter() < until:
                    _move, error, iterations, thought, _w = await client.submit(
                        decide, None, args.tier, 1000 * k + i, obs[(k * 7 + i) % len(obs)],
                        args.bot_seconds, pure=False)
                    if error is None:
                        done.append((iterations, thought))
                    i += 1

            start = time.perf_counter()
            await asyncio.gather(*(asker(k) for k in range(busy)))
            took = time.perf_counter() - start
            total = sum(n for n, _ in done)
            rates = [n / t for n, t in done if t > 0]
            say(f"  {busy} workers busy ({args.tier} at {args.bot_seconds:g} s, {took:.0f} s): "
                f"{len(done) / took:.2f} decisions/s; {total / took:,.0f} iterations/s in all, "
                f"{total / took / busy:,.0f} per worker; per decision iterations/s "
                f"p50 {percentile(sorted(rates), 50):,.0f}; load {os.getloadavg()[0]:.2f}")
    finally:
        await client.close()
        fleet.stop()


# ---------------------------------------------------------------------- players at bot tables
class Person:
    """A player at one bot table at a time, over the host's Unix socket; a reader task keeps
    the newest state of each table and the time it came."""

    def __init__(self, client: HostClient) -> None:
        self.client = client
        self.states: dict[str, tuple[dict[str, Any], float]] = {}
        self.joined: list[str] = []
        self.errors: list[tuple[str, str]] = []
        self.changed = asyncio.Event()
        self.closed = False
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                message = await self.client.receive()
                kind = message.get("type")
                if kind == "state":
                    self.states[message["table"]] = (message, time.monotonic())
                elif kind == "joined":
                    self.joined.append(message["table"])
                elif kind == "error":
                    self.errors.append((str(message.get("code")), str(message.get("message"))))
                self.changed.set()
        except (HostError, OSError, ValueError):
            self.closed = True
            self.changed.set()

    async def until(self, test: Any, timeout: float) -> bool:
        try:
            async with asyncio.timeout(timeout):
                while not test():
                    if self.closed:
                        return False
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            return False
        return True

    async def past(self, table: str, seq: int) -> bool:
        """Wait for a state of ``table`` with more than ``seq`` moves (False: none came)."""
        return await self.until(lambda: self.moves(table) > seq, SAFETY)

    def moves(self, table: str) -> int:
        state = self.states.get(table)
        return len(state[0]["observation"]["history"]) if state else -1


class Tally:
    def __init__(self) -> None:
        self.turns: list[tuple[float, float]] = []  # (bot to move, its move shown)
        self.refused: Counter[str] = Counter()
        self.accepted = 0  # tables given at the players' first ask
        self.again = 0  # new tables given after a finished game
        self.games = 0
        self.stuck = 0  # a bot move never shown within SAFETY, or a line closed


async def bot_table(person: Person, tier: str, delay: tuple[float, float], until: float,
                    gate: asyncio.Event, tally: Tally, rand: random.Random) -> None:
    """Ask for a bot table (the bot moves first) when ``gate`` opens; then play, a random
    legal move after ``delay`` seconds each, a new table after each game, until ``until``."""
    await gate.wait()
    first = True
    while True:
        errors, joined = len(person.errors), len(person.joined)
        await person.client.send({"type": "create", "opponent": tier, "seat": 1})
        if not await person.until(lambda j=joined, e=errors: len(person.joined) > j
                                  or len(person.errors) > e, SAFETY) \
                or len(person.joined) == joined:
            if first:
                tally.refused[" ".join(person.errors[-1]) if person.errors else "no answer"] += 1
            return
        tally.accepted += first
        tally.again += not first
        first = False
        table = person.joined[-1]
        while True:
            if not await person.until(lambda t=table: t in person.states, SAFETY):
                tally.stuck += 1
                return
            state, arrived = person.states[table]
            obs, seq = state["observation"], person.moves(table)
            if obs["is_over"]:
                tally.games += 1
                break
            if obs["to_play"] != 1:  # the bot's: wait for its move, whenever it comes
                if not await person.past(table, seq):
                    tally.stuck += 1
                    return
                tally.turns.append((arrived, person.states[table][1]))
                continue
            if time.monotonic() >= until:
                return
            await asyncio.sleep(rand.uniform(*delay))
            await person.client.send({"type": "move", "table": table, "seq": seq,
                                      "move": rand.choice(obs["legal_moves"])})
            if not await person.past(table, seq):
                tally.stuck += 1
                return
        if time.monotonic() >= until:
            return


class Watch:
    """The host's status every ``every`` seconds, with the time it was read."""

    def __init__(self, sock: Path) -> None:
        self.sock = sock
        self.rows: list[tuple[float, dict[str, Any]]] = []

    async def run(self, every: float = 0.1) -> None:
        while True:
            with contextlib.suppress(OSError):
                status = await asyncio.to_thread(status_cli.ask, self.sock)
                self.rows.append((time.monotonic(), status))
            await asyncio.sleep(every)

    def first(self, after: float, test: Any) -> float | None:
        """The time of the first status read at or after ``after`` that passes ``test``."""
        return next((t for t, s in self.rows if t >= after and test(s)), None)


def host_command(folder: Path, fleet: Fleet, args: argparse.Namespace,
                 people: int) -> list[str]:
    return [sys.executable, "-m", "solstis_tui.cli", "host", "--socket",
            str(folder / "host.sock"), "--data", str(folder / "data"), "--bot-seconds",
            str(args.bot_seconds), "--bot-workers", "1", "--bot-cluster", fleet.address,
            "--bot-cluster-tls", str(fleet.certs), "--new-names-per-minute", "100000",
            "--max-connections", str(people + 50), "--max-open-tables", str(people + 10)]


def on_fleet(status: dict[str, Any]) -> bool:
    return bool(status["bots"].get("path") == "cluster")


async def bot_tables(folder: Path, args: argparse.Namespace, scenario: str) -> None:
    fleet = Fleet(folder, args.fleet_workers, args.nice_workers)
    sock = folder / "host.sock"
    supervisor = host = None
    watch = Watch(sock)
    errors = (folder / "host.err").open("w+b")
    try:
        await (await fleet.client(args.fleet_workers)).close()
        host = await host_load.start_host(host_command(folder, fleet, args, args.tables),
                                          errors)
        watcher = asyncio.create_task(watch.run())
        async with asyncio.timeout(SAFETY):
            while not (watch.rows and on_fleet(watch.rows[-1][1])
                       and watch.rows[-1][1]["bots"]["cluster_workers"] == args.fleet_workers):
                await asyncio.sleep(0.1)
        capacity_now = watch.rows[-1][1]["bot_table_capacity"]
        people = []
        for i in range(args.tables):
            client = await HostClient.connect(sock)
            await client.hello(f"P{i}")
            people.append(Person(client))
        tally, gate = Tally(), asyncio.Event()
        start = time.monotonic()
        until = start + args.seconds
        jobs = [asyncio.create_task(bot_table(p, args.tier, args.delay, until, gate, tally,
                                              random.Random(i)))
                for i, p in enumerate(people)]
        load_before = os.getloadavg()
        gate.set()
        killed = None
        if scenario != "burst":
            await asyncio.sleep(args.kill_at)
            if scenario != "scheduler-gone":
                supervisor = asyncio.create_task(fleet.supervise())
            victims = {"scheduler-kill": [fleet.scheduler],
                       "scheduler-gone": [fleet.scheduler, *fleet.workers],
                       "worker-kill": fleet.workers[:1]}[scenario]
            killed = time.monotonic()
            for victim in victims:
                victim.send_signal(signal.SIGKILL)
        await asyncio.gather(*jobs)
        load_after = os.getloadavg()
        await asyncio.sleep(0.3)
        watcher.cancel()
        final = watch.rows[-1][1]
        for p in people:
            p.reader.cancel()
            await p.client.close()
    finally:
        if supervisor is not None:
            supervisor.cancel()
        if host is not None:
            host.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                host.wait(timeout=30)
        fleet.stop()
        errors.close()
    report(args, scenario, tally, final, watch, killed, fleet, capacity_now,
           (load_before, load_after), start)
    lines = (folder / "host.err").read_text(errors="replace").splitlines()
    said = Counter(line.split(" on ")[0][:110] for line in lines
                   if "bot fleet" in line or "random legal move" in line)
    for line, n in said.most_common(8):
        say(f"    host log ×{n}: {line}")


def report(args: argparse.Namespace, scenario: str, tally: Tally, final: dict[str, Any],
           watch: Watch, killed: float | None, fleet: Fleet, capacity_now: int,
           load: tuple[tuple[float, ...], tuple[float, ...]], start: float) -> None:
    delay = "at once" if args.delay == (0.0, 0.0) else \
        f"after {args.delay[0]:g}-{args.delay[1]:g} s (uniform)"
    budget = args.bot_seconds + (3 if scenario in ("burst", "worker-kill") else 5)
    say(f"  {args.tables} players ask for a {args.tier} table ({args.bot_seconds:g} s) at "
        f"once, moving {delay}; {args.fleet_workers} fleet workers (nice "
        f"{args.nice_workers}) + 1 local pool worker; capacity {capacity_now} bot tables; "
        f"{args.seconds:.0f} s; load {load[0][0]:.2f} -> {load[1][0]:.2f}")
    say(f"  tables given {tally.accepted}, refused {sum(tally.refused.values())}; games "
        f"finished {tally.games}, new tables after them {tally.again}; stuck {tally.stuck}")
    for why, n in tally.refused.most_common(3):
        say(f"    refused ×{n}: {why}")
    waits = [b - a for a, b in tally.turns]
    say(f"  bot decisions as players see them: {figures(waits)}; over thinking + "
        f"{budget - args.bot_seconds:g} s ({budget:g} s): {sum(w > budget for w in waits)}")
    bots, seats = final["bots"], final["bot_seats"]
    say(f"  host: fleet answered {bots['answered']} (retried {bots['retried']}), local pool "
        f"{bots['to_local']} {bots['to_local_why']}, refused {bots['refused']}; random moves "
        f"{seats['random_moves']}, errors {seats['errors']}; gateway starts "
        f"{bots['gateway_starts']}; fleet queue wait {bots['queue_wait_ms']}")
    if killed is None:
        return
    inflight = [(a, b) for a, b in tally.turns if a < killed < b]
    after = [b - a for a, b in tally.turns if a >= killed]
    say(f"  kill at {killed - start:.1f} s: decisions under way {len(inflight)}, answered "
        f"{figures([b - killed for _, b in inflight])} after the kill (their waits "
        f"{figures([b - a for a, b in inflight])})")
    say(f"  decisions asked after the kill: {figures(after)}")

    def since(t: float | None) -> str:
        return "never" if t is None else f"{t - killed:.2f} s"

    local0 = max((s["bots"]["to_local"] for t, s in watch.rows if t < killed), default=0)
    say(f"  the host's route off the fleet {since(watch.first(killed, lambda s: not on_fleet(s)))}"
        f" after the kill; the first decision handed to the local pool "
        f"{since(watch.first(killed, lambda s: s['bots']['to_local'] > local0))} after "
        f"(status read every 0.1 s)")
    if scenario != "scheduler-gone":
        say(f"  restarts (s after the kill): "
            f"{', '.join(f'{w} {t - killed:.1f}' for t, w in fleet.starts) or 'none'}")
    if scenario == "scheduler-kill":
        back = watch.first(killed + 0.5, on_fleet)
        if back is not None:
            answered0 = max((s["bots"]["answered"] for t, s in watch.rows if t <= back),
                            default=0)
            later = [b - a for a, b in tally.turns if a >= back]
            fleet_again = watch.first(back, lambda s: s["bots"]["answered"] > answered0)
            say(f"  decisions go to the fleet again {since(back)} after the kill; its first "
                f"answer then {since(fleet_again)}"
                f"; the first decision asked then waited "
                f"{later[0] if later else float('nan'):.2f} s; all asked after: {figures(later)}")


# ---------------------------------------------------------------------- people over TLS
def ssh_key(name: str) -> str:
    import base64

    kind = b"ssh-ed25519"
    blob = len(kind).to_bytes(4, "big") + kind + (32).to_bytes(4, "big") + os.urandom(32)
    return f"ssh-ed25519 {base64.b64encode(blob).decode()} {name}@loadtest"


def frontend_certs(folder: Path, frontends: int) -> dict[str, Any]:
    import trustme

    host_ca, frontend_ca = trustme.CA(), trustme.CA()
    files: dict[str, Any] = {k: str(folder / v) for k, v in (
        ("host_ca", "host-ca.pem"), ("frontend_ca", "frontend-ca.pem"), ("cert", "host.pem"),
        ("key", "host.key"))}
    host_ca.cert_pem.write_to_path(files["host_ca"])
    frontend_ca.cert_pem.write_to_path(files["frontend_ca"])
    leaf = host_ca.issue_cert("127.0.0.1", "localhost")
    leaf.cert_chain_pems[0].write_to_path(files["cert"])
    leaf.private_key_pem.write_to_path(files["key"])
    files["frontends"] = []
    for i in range(frontends):
        fe = frontend_ca.issue_cert(f"frontend{i}", common_name=f"frontend{i}")
        pair = [str(folder / f"frontend{i}.pem"), str(folder / f"frontend{i}.key")]
        fe.cert_chain_pems[0].write_to_path(pair[0])
        fe.private_key_pem.write_to_path(pair[1])
        files["frontends"].append(pair)
    return files


async def frontend(job: dict[str, Any]) -> dict[str, Any]:
    """One front-end process: its share of the players, over TLS; returns its tallies."""
    from solstis_tui.wire.tls import TlsTarget, client_context

    context = client_context(Path(job["host_ca"]), Path(job["cert"]), Path(job["key"]))
    target = TlsTarget("127.0.0.1", job["port"], context)

    async def dial(name: str) -> HostClient:
        client = await HostClient.connect(tls=target)
        client.ssh_key = job["keys"][name]
        await client.hello(name)
        return client

    run = host_load.Run(Path("unused"), job["think"], job["seconds"], dial=dial,
                        bot_tier=job["tier"])
    return await host_load.share(run, job["pairs"], job["bots"], job["start_at"])


async def people_load(folder: Path, args: argparse.Namespace) -> None:
    from solstis_tui.host.identity import key_line

    fleet = Fleet(folder, args.fleet_workers, args.nice_workers)
    certs = frontend_certs(folder, args.frontends)
    names = [f"{k}{i}" for i in range(args.players // 2) for k in "AB"]
    names += [f"Bot{i}" for i in range(args.tables)]
    keys = {name: ssh_key(name) for name in names}
    (folder / "keys").write_text("".join(key_line(k, n) + "\n" for n, k in keys.items()))
    port, host = free_port(), None
    try:
        await (await fleet.client(args.fleet_workers)).close()
        with (folder / "host.err").open("w+b") as errors:
            host = await host_load.start_host(
                [*host_command(folder, fleet, args, len(names)), "--keys-file",
                 str(folder / "keys"), "--listen-tls", f"127.0.0.1:{port}", "--cert",
                 certs["cert"], "--key", certs["key"], "--frontend-ca", certs["frontend_ca"]],
                errors)
            await asyncio.sleep(3)  # the gateway finds the fleet
            start_at = time.time() + 10 + len(names) / 50
            procs = []
            for f in range(args.frontends):
                job = {"port": port, "host_ca": certs["host_ca"], "keys": keys,
                       "cert": certs["frontends"][f][0], "key": certs["frontends"][f][1],
                       "think": args.think, "seconds": args.seconds, "tier": args.tier,
                       "start_at": start_at,
                       "pairs": list(range(f, args.players // 2, args.frontends)),
                       "bots": list(range(f, args.tables, args.frontends))}
                procs.append(await asyncio.create_subprocess_exec(
                    sys.executable, __file__, "load", "--frontend-job", json.dumps(job),
                    stdout=asyncio.subprocess.PIPE))
            if args.kill_worker:
                await asyncio.sleep(max(0.0, start_at - time.time()) + args.seconds / 2)
                fleet.workers[0].send_signal(signal.SIGKILL)
                say("  killed a Dask worker halfway through")
            outs = [json.loads((await p.communicate())[0]) for p in procs]
            status = await asyncio.to_thread(status_cli.ask, folder / "host.sock")
    finally:
        if host is not None:
            host.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                host.wait(timeout=30)
        fleet.stop()
    times = [t for out in outs for t in out["times"]]
    codes: Counter[str] = sum((Counter(o["errors"]) for o in outs), Counter())
    say(f"  {args.players} people over {args.frontends} TLS front ends, {args.tables} bot "
        f"tables ({args.tier} at {args.bot_seconds:g} s), {args.fleet_workers} workers (nice "
        f"{args.nice_workers}), {args.seconds:.0f} s; load {os.getloadavg()[0]:.2f}")
    say(f"  people's moves: {figures(times, 'ms', 1000)}; bot moves "
        f"{sum(o['bot_moves'] for o in outs)}; errors {dict(codes)}; drops "
        f"{sum(o['drops'] for o in outs)}")
    bots = status["bots"]
    say(f"  host: fleet answered {bots['answered']} (retried {bots['retried']}), local pool "
        f"{bots['to_local']} {bots['to_local_why']}; random moves "
        f"{status['bot_seats']['random_moves']}; fleet queue wait {bots['queue_wait_ms']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=("overhead", "capacity", "burst", "scheduler-kill",
                                             "scheduler-gone", "worker-kill", "load"))
    parser.add_argument("--tier", default="mcts")
    parser.add_argument("--bot-seconds", type=float, default=1.0)
    parser.add_argument("--fleet-workers", type=int, default=2)
    parser.add_argument("--nice-workers", type=int, default=5,
                        help="the fleet workers' niceness (the systemd unit's Nice=5)")
    parser.add_argument("--tables", type=int, default=None,
                        help="players each at a bot table (default: 200 for burst, 4 else)")
    parser.add_argument("--delay", default="0",
                        help="seconds a player waits before each move: N, or LOW,HIGH")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--kill-at", type=float, default=10.0)
    parser.add_argument("--decisions", type=int, default=200, help="overhead: random tier")
    parser.add_argument("--thinking-decisions", type=int, default=20,
                        help="overhead: decisions at --tier, --bot-seconds")
    parser.add_argument("--workers", default="1,2,4", help="capacity: busy worker counts")
    parser.add_argument("--players", type=int, default=200, help="load: people in pairs")
    parser.add_argument("--frontends", type=int, default=2)
    parser.add_argument("--think", type=float, default=2.0, help="load: people's mean delay")
    parser.add_argument("--kill-worker", action="store_true")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="run in DIR and keep it (the fleet's and the host's logs)")
    parser.add_argument("--frontend-job", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.frontend_job:
        print(json.dumps(asyncio.run(frontend(json.loads(args.frontend_job)))))
        return
    low, _, high = args.delay.partition(",")
    args.delay = (float(low), float(high or low))
    if args.tables is None:
        args.tables = 200 if args.scenario == "burst" else 4
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    say(f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}; {os.cpu_count()} cores; uptime: {uptime}")
    say(f"cluster_load.py {' '.join(sys.argv[1:])}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) if args.keep is None else args.keep
        folder.mkdir(parents=True, exist_ok=True)
        run = {"overhead": overhead, "capacity": capacity, "load": people_load}.get(
            args.scenario)
        if run is not None:
            asyncio.run(run(folder, args))
        else:
            asyncio.run(bot_tables(folder, args, args.scenario))


if __name__ == "__main__":
    main()

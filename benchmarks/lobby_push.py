"""The lobby the host pushes: what it costs the host, and how soon a new table is seen.

Run: python benchmarks/lobby_push.py [--lobby 1300] [--changes 50] [--seconds 30]
     [--latency-lobby 500] [--creations 40]

The host runs in its own process (a ``Host`` with the limits raised so that one machine
can open this many connections; nothing else differs from ``solstis host``). Its CPU time
is read from /proc over a measured window.

- **Cost**: ``--lobby`` connections sit in the lobby, reading what is pushed; pairs of
  players at friend tables make ``--changes`` table changes a second between them (a move
  each, as fast as the rate asks). The same load is run again with no lobby connections;
  the difference in the host's CPU is the cost of the pushes (target: at most 10% of a
  core at 1,300 connections and 50 changes a second).
- **Latency**: ``--latency-lobby`` connections sit in the lobby of a quiet host; a player
  creates a table every 2.5 s or so (and closes it once seen); for each, the time from
  sending ``create`` to each lobby connection reading a pushed page that lists it
  (target: p95 at most 200 ms). The same
  is measured while the changes of the cost run go on, where a push round waits up to a
  second after the last (each connection gets at most one page a second).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

from solstis_tui.ai.arena_stats import percentile
from solstis_tui.client.client import HostClient


def raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def host_process(data: str, sock: str, ready: multiprocessing.synchronize.Event) -> None:
    """The host, in its own process, until it is terminated."""
    raise_fd_limit()
    from solstis_tui.host.host import Host
    from solstis_tui.host.limits import Limits

    limits = Limits(max_connections=4000, new_names_per_minute=1e6, backlog=4096,
                    message_rate=100.0, message_burst=1000.0, new_tables_per_minute=1e6,
                    max_open_tables=10_000)

    async def serve() -> None:
        host = Host(Path(data), limits=limits, bot_workers=1)
        await host.serve_unix(Path(sock))
        ready.set()
        await asyncio.Event().wait()

    asyncio.run(serve())


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Lobby:
    """Connections in the lobby, each reading every line the host sends it; ``seen``
    holds, for each table id watched for, when each connection first read it."""

    def __init__(self) -> None:
        self.clients: list[HostClient] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.watch_for: dict[bytes, dict[int, float]] = {}
        self.pushes = 0
        #: each connection's latest pushed pages and when they came: a table's first
        #: page may come before its maker heard its id
        self.recent: dict[int, deque[tuple[float, bytes]]] = {}

    async def open(self, sock: Path, count: int, prefix: str) -> None:
        for start in range(0, count, 100):  # in batches: the listen queue is deep enough
            batch = await asyncio.gather(*(self._one(sock, f"{prefix}{i}")
                                           for i in range(start, min(count, start + 100))))
            self.clients.extend(batch)
        for i, client in enumerate(self.clients):
            self.tasks.append(asyncio.create_task(self._read(i, client)))

    @staticmethod
    async def _one(sock: Path, name: str) -> HostClient:
        client = await HostClient.connect(sock)
        await client.hello(name)
        return client

    async def _read(self, index: int, client: HostClient) -> None:
        with contextlib.suppress(Exception):
            while line := await client.reader.readline():
                if b'"push":true' not in line:
                    continue
                self.pushes += 1
                now = time.monotonic()
                self.recent.setdefault(index, deque(maxlen=4)).append((now, line))
                for table, seen in self.watch_for.items():
                    if index not in seen and table in line:
                        seen[index] = now

    def watch(self, table: bytes, since: float) -> dict[int, float]:
        """Start watching for ``table`` (made at ``since``): pages already read count."""
        seen = self.watch_for[table] = {}
        for index, pages in self.recent.items():
            first = next((t for t, line in pages if t >= since and table in line), None)
            if first is not None:
                seen[index] = first
        return seen

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for client in self.clients:
            client.hang_up()


MADE = [0]  # moves sent by play_pairs so far


async def play_pairs(sock: Path, pairs: int, changes: float, stop: asyncio.Event,
                     tag: str) -> None:
    """``pairs`` friend tables whose players move at random, ``changes`` moves a second
    between all of them, until ``stop`` (``MADE`` counts the moves)."""
    players = []
    for i in range(pairs):
        a, b = await HostClient.connect(sock), await HostClient.connect(sock)
        await a.hello(f"{tag}p{i}a")
        await b.hello(f"{tag}p{i}b")
        await a.send({"type": "create", "opponent": "friend", "seat": 0})
        table = (await a.receive_until("joined"))["table"]
        await b.send({"type": "join", "table": table})
        await b.receive_until("joined")
        players.append((table, a, b))
    rand = random.Random(1)

    async def pair(table: str, a: HostClient, b: HostClient) -> None:
        states = {0: None, 1: None}
        seq = 0

        async def follow(seat: int, client: HostClient) -> None:
            while True:
                message = await client.receive()
                if message.get("type") == "state" and message.get("table") == table:
                    states[seat] = message

        followers = [asyncio.create_task(follow(0, a)), asyncio.create_task(follow(1, b))]
        try:
            while not stop.is_set():
                await asyncio.sleep(rand.expovariate(changes / pairs))
                for seat, client in ((0, a), (1, b)):
                    state = states[seat]
                    if state is None:
                        continue
                    obs = state["observation"]
                    if obs["is_over"]:
                        return
                    if obs["legal_moves"] and len(obs["history"]) >= seq:
                        seq = len(obs["history"]) + 1
                        await client.send({"type": "move", "table": table,
                                           "move": rand.choice(obs["legal_moves"])})
                        MADE[0] += 1
                        break
        finally:
            for task in followers:
                task.cancel()
            await asyncio.gather(*followers, return_exceptions=True)

    async def keep_playing(index: int) -> None:
        table, a, b = players[index]
        while not stop.is_set():
            await pair(table, a, b)
            if stop.is_set():
                return
            await a.send({"type": "create", "opponent": "friend", "seat": 0})
            table = (await a.receive_until("joined"))["table"]
            await b.send({"type": "join", "table": table})
            await b.receive_until("joined")

    await asyncio.gather(*(keep_playing(i) for i in range(pairs)))


async def measure_cost(sock: Path, pid: int, lobby_size: int, changes: float,
                       seconds: float, tag: str) -> tuple[float, int, int]:
    """Host CPU (share of a core) over ``seconds`` with ``lobby_size`` lobby connections
    and ``changes`` moves a second; the moves made and pushes read."""
    lobby = Lobby()
    await lobby.open(sock, lobby_size, f"{tag}l")
    stop = asyncio.Event()
    playing = asyncio.create_task(play_pairs(sock, 40, changes, stop, tag))
    await asyncio.sleep(5)  # warm up: tables made, the pushes going
    before, pushes_before, start = cpu_seconds(pid), lobby.pushes, time.monotonic()
    made_before = MADE[0]
    await asyncio.sleep(seconds)
    used, elapsed = cpu_seconds(pid) - before, time.monotonic() - start
    pushes, made = lobby.pushes - pushes_before, MADE[0] - made_before
    stop.set()
    await playing
    await lobby.close()
    return used / elapsed, made, pushes


async def measure_latency(sock: Path, lobby_size: int, creations: int, changes: float,
                          tag: str) -> list[float]:
    """Seconds from each ``create`` to each lobby connection seeing the table pushed."""
    lobby = Lobby()
    await lobby.open(sock, lobby_size, f"{tag}l")
    stop = asyncio.Event()
    playing = asyncio.create_task(play_pairs(sock, 40, changes, stop, tag)) if changes \
        else None
    maker = await HostClient.connect(sock)
    await maker.hello(f"{tag}maker")
    await asyncio.sleep(3)
    delays: list[float] = []
    for _ in range(creations):
        # the last table's closing was pushed; a random pause, so that a creation falls
        # anywhere between two rounds of the players' changes
        await asyncio.sleep(random.uniform(2.0, 3.5))
        sent = time.monotonic()
        await maker.send({"type": "create", "opponent": "friend", "seat": 0})
        table = (await maker.receive_until("joined"))["table"]
        seen = lobby.watch(table.encode(), sent)
        deadline = time.monotonic() + 10
        while len(seen) < lobby_size and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        delays += [t - sent for t in seen.values()]
        delays += [float("inf")] * (lobby_size - len(seen))  # never seen: counted so
        del lobby.watch_for[table.encode()]
        await maker.send({"type": "leave", "table": table, "for_good": True})
        await maker.receive_until("left")
    stop.set()
    if playing is not None:
        await playing
    await lobby.close()
    maker.hang_up()
    return delays


def shown(delays: list[float]) -> str:
    ranked = sorted(delays)
    missed = sum(d == float("inf") for d in ranked)
    return (f"p50 {percentile(ranked, 50) * 1000:.0f} ms, p95 {percentile(ranked, 95) * 1000:.0f}"
            f" ms, max {max(d for d in ranked if d != float('inf')) * 1000:.0f} ms over "
            f"{len(ranked)} sightings, {missed} never seen")


async def main(args: argparse.Namespace) -> None:
    raise_fd_limit()
    with tempfile.TemporaryDirectory() as tmp:
        ready = multiprocessing.get_context("spawn").Event()
        sock = Path(tmp) / "host.sock"
        proc = multiprocessing.get_context("spawn").Process(
            target=host_process, args=(str(Path(tmp) / "data"), str(sock), ready))
        proc.start()
        try:
            if not await asyncio.to_thread(ready.wait, 60):
                raise SystemExit("the host did not start")
            assert proc.pid is not None
            print(f"host pid {proc.pid}; {os.cpu_count()} cores", flush=True)
            quiet = await measure_latency(sock, args.latency_lobby, args.creations, 0, "q")
            print(f"latency, quiet host, {args.latency_lobby} lobby connections: "
                  f"{shown(quiet)}", flush=True)
            busy = await measure_latency(sock, args.latency_lobby, args.creations // 2,
                                         args.changes, "b")
            print(f"latency, {args.changes:g} changes/s, {args.latency_lobby} lobby "
                  f"connections: {shown(busy)}", flush=True)
            base, made0, _ = await measure_cost(sock, proc.pid, 0, args.changes,
                                                args.seconds, "c0")
            print(f"cost, no lobby connections: host {base * 100:.1f}% of a core "
                  f"({made0 / args.seconds:.0f} moves/s)", flush=True)
            full, made1, pushes = await measure_cost(sock, proc.pid, args.lobby,
                                                     args.changes, args.seconds, "c1")
            print(f"cost, {args.lobby} lobby connections: host {full * 100:.1f}% of a core "
                  f"({made1 / args.seconds:.0f} moves/s, {pushes / args.seconds:.0f} pages "
                  f"pushed/s); the pushes' share: {(full - base) * 100:.1f}% of a core",
                  flush=True)
        finally:
            proc.terminate()
            proc.join(10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lobby", type=int, default=1300)
    parser.add_argument("--changes", type=float, default=50.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--latency-lobby", type=int, default=500)
    parser.add_argument("--creations", type=int, default=40)
    asyncio.run(main(parser.parse_args(sys.argv[1:])))

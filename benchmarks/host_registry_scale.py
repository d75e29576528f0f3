"""The player registry at the size one attacker could make it: 2.6 million players.

Run: python benchmarks/host_registry_scale.py [--players 2592000] [--seconds 10] [--data DIR]

2.6 million is the host-wide allowance of new names (60 a minute, Limits.new_names_per_minute)
for the 30 days a code is kept. The players are written straight into ``players.db`` with
the registry's own functions (seen spread over 30 days, so none has expired); then a fresh
process opens the host (``Host.load``: the data folder, tables, players, ratings) and puts
the registry under load on its event loop: ``--workers`` tasks registering new names and
saying hello with known codes, while a ticker measures how late the loop runs it. Printed:
the fill, start time, the database's size, the process's memory, hellos and new names a
second, the time the registry's reads take on the loop, and how late the loop runs the
ticker (which also waits for the other tasks' turns). Pinned to one core (taskset), the
loop shares it with the writer thread.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solstis_tui.host import player_db
from solstis_tui.host.host import Host
from solstis_tui.host.player_db import Player
from solstis_tui.host.players import PlayerRegistry

DAY = 24 * 3600.0


def code_of(i: int) -> str:
    return f"{i:022d}"  # as long as a real code (secrets.token_urlsafe(16))


def fill(data: Path, players: int) -> None:
    """``players`` players, each with their own name and identity, written in batches."""
    registry = PlayerRegistry(data)
    registry.load()
    conn = registry._out
    assert conn is not None
    now, batch, start = time.time(), 100_000, time.perf_counter()
    for first in range(0, players, batch):
        player_db.put_all(conn, [player_db.change(code_of(i), Player(
            f"Mallory{i}", now - (i % 29) * DAY, identity=f"key:Mallory{i}"))
            for i in range(first, min(players, first + batch))])
        print(f"  {min(players, first + batch):>9} players written "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    asyncio.run(registry.close())


def memory() -> tuple[int, int]:
    """This process's resident memory now and at its peak, in MB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text()
                  .splitlines() if ":" in line)
    return (int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024)


async def under_load(host: Host, players: int, seconds: float, workers: int) -> None:
    registry = host.players
    done = {"hello": 0, "new": 0}
    stalls: list[float] = []
    calls: dict[str, list[float]] = {"hello": [], "new": []}  # registry time on the loop
    end = time.perf_counter() + seconds

    async def ticker() -> None:
        while time.perf_counter() < end:
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            stalls.append(time.perf_counter() - before - 0.001)

    async def worker(n: int) -> None:
        rand = random.Random(n)
        while time.perf_counter() < end:
            began = time.perf_counter()
            if rand.random() < 0.2:  # a newcomer: the name checked, then registered
                name = f"New{n}-{done['new']}"
                taken = registry.name_taken(name)
                calls["new"].append(time.perf_counter() - began)
                if not taken:
                    await registry.register(name, f"key:{name}")
                done["new"] += 1
            else:  # a returning player: their identity, the code, "last seen"
                i = rand.randrange(players)
                registry.code_of(f"key:Mallory{i}")
                assert registry.lookup(code_of(i)) == f"Mallory{i}"
                registry.touch(code_of(i))
                calls["hello"].append(time.perf_counter() - began)
                done["hello"] += 1
                await asyncio.sleep(0)

    await asyncio.gather(ticker(), *(worker(n) for n in range(workers)))
    pruned = time.perf_counter()
    await host.housekeeping.prune_players()
    pruned = time.perf_counter() - pruned
    print(f"under load for {seconds:g} s, {workers} tasks: {done['hello'] / seconds:.0f} "
          f"hellos/s and {done['new'] / seconds:.0f} new names/s")
    for what, times in (("a hello's registry reads", calls["hello"]),
                        ("a new name's check", calls["new"]), ("event loop lateness", stalls)):
        print(f"{what}: {spread(times)}")
    print(f"a round of pruning (nothing due): {pruned * 1000:.0f} ms, in the worker thread")


def spread(times: list[float]) -> str:
    """Median, 99th percentile and longest of ``times``, in milliseconds."""
    times = sorted(times)
    return (f"median {statistics.median(times) * 1000:.2f} ms, 99th percentile "
            f"{times[int(len(times) * 0.99)] * 1000:.2f} ms, longest {times[-1] * 1000:.1f} "
            f"ms ({len(times)})")


def measure(data: Path, players: int, seconds: float, workers: int) -> None:
    start = time.perf_counter()
    host = Host(data)
    host.load()
    print(f"host start (Host.load: data folder, tables, {players} players, ratings): "
          f"{time.perf_counter() - start:.2f} s")
    size = sum(p.stat().st_size for p in data.glob("players.db*"))
    print(f"players.db on disk: {size / 1e6:.0f} MB ({size / players:.0f} bytes a player)")
    print(f"memory after start: {memory()[0]} MB resident")

    async def run() -> None:
        try:
            await under_load(host, players, seconds, workers)
        finally:
            await host.close()

    asyncio.run(run())
    now, peak = memory()
    print(f"memory at the end: {now} MB resident, {peak} MB at the peak")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60 * 24 * 30 * 60)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--data", type=Path, default=None,
                        help="a data folder to fill (kept) or, with --measure, to measure")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.data, args.players, args.seconds, args.workers)
        return
    with tempfile.TemporaryDirectory() as scratch:
        data = args.data or Path(scratch) / "data"
        start = time.perf_counter()
        if not (data / "players.db").exists():
            fill(data, args.players)
            print(f"filled in {time.perf_counter() - start:.0f} s (not part of the figures)")
        subprocess.run([sys.executable, __file__, "--measure", "--data", str(data),
                        "--players", str(args.players), "--seconds", str(args.seconds),
                        "--workers", str(args.workers)], check=True)


if __name__ == "__main__":
    main()

"""Host saturation: how many moves a second one host carries on its core, and what it writes.

Run: python benchmarks/host_saturation.py [--pairs 50,100,200] [--procs 2] [--seconds 20]

The host runs in its own process as deployed (``solstis host`` on a Unix socket), pinned to
one core with taskset (its event loop is one thread; its table files and SQLite writes go
through threads beside it on the same core). The simulated people run in ``--procs``
processes pinned to the other cores: pairs at friend tables, each moving as soon as it is
their turn (``--think`` 0) or after a random wait about ``--think`` seconds, a new table
after each game. For each number of pairs it prints:

- moves a second, and the messages the host received and sent a second;
- the host's CPU use in the measured time (utime + stime from /proc, all its threads) as a
  share of its one core, and the moves a second that share implies for a full core (where
  the host saturates, if the clients could not take it there);
- table files written a second (each move and each new table writes its table's file) and
  SQLite write transactions a second (the ``stamp`` counters of ``players.db`` and
  ``ratings.db``: each finished game's result, record and ratings, and players' writes);
- the move round trip p50/p95/p99.

Prints figures; asserts nothing. Linux only (taskset, /proc).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import host_load

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system time of process ``pid`` and all its threads so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def sqlite_writes(data: Path) -> int:
    """Write transactions the host's SQLite files have counted so far."""
    total = 0
    for name in ("players.db", "ratings.db"):
        if (data / name).exists():
            with sqlite3.connect(f"file:{data / name}?mode=ro", uri=True) as conn:
                total += int(conn.execute("SELECT writes FROM stamp").fetchone()[0])
    return total


async def clients(job: dict[str, Any]) -> dict[str, Any]:
    """One client process: its share of the pairs, over the host's Unix socket."""
    run = host_load.Run(Path(job["sock"]), job["think"], job["seconds"])
    return await host_load.share(run, job["pairs"], [], job["start_at"])


async def saturate(pairs: int, procs: int, seconds: float, cores: int, think: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sock, data = folder / "host.sock", folder / "data"
        with (folder / "host.err").open("w+b") as errors:
            host = await host_load.start_host(
                ["taskset", "-c", "0", sys.executable, "-m", "solstis_tui.cli", "host",
                 "--socket", str(sock), "--data", str(data),
                 "--new-names-per-minute", "100000", "--max-connections", str(2 * pairs + 50)],
                errors)
            try:
                start_at = time.time() + 5 + pairs / 50
                others = ",".join(str(c) for c in range(1, cores)) or "0"
                jobs = [await asyncio.create_subprocess_exec(
                    "taskset", "-c", others, sys.executable, __file__, "--client-job",
                    json.dumps({"sock": str(sock), "seconds": seconds, "start_at": start_at,
                                "think": think,
                                "pairs": list(range(p, pairs, procs))}),
                    stdout=asyncio.subprocess.PIPE) for p in range(procs)]
                await asyncio.sleep(max(0.0, start_at - time.time()))
                cpu0, writes0 = cpu_seconds(host.pid), sqlite_writes(data)
                await asyncio.sleep(seconds)
                cpu1, writes1 = cpu_seconds(host.pid), sqlite_writes(data)
                outs = [json.loads((await p.communicate())[0]) for p in jobs]
            finally:
                host.send_signal(signal.SIGTERM)
                host.wait(timeout=60)
    times = [t for out in outs for t in out["times"]]
    games = sum(out["games"] for out in outs)
    moves = len(times) / seconds
    share = (cpu1 - cpu0) / seconds
    errors = {k: v for out in outs for k, v in out["errors"].items()}
    print(f"{pairs:4d} pairs, think {think:g} s: {moves:6.0f} moves/s; host received "
          f"{sum(o['sent'] for o in outs) / seconds:5.0f} and sent "
          f"{sum(o['received'] for o in outs) / seconds:5.0f} messages/s; host CPU "
          f"{share:4.0%} of its core (so ~{moves / max(share, 1e-9):5.0f} moves/s at 100%); "
          f"table files {(len(times) + games) / seconds:5.0f}/s; SQLite writes "
          f"{(writes1 - writes0) / seconds:4.1f}/s ({games / seconds:.1f} games ended/s); "
          f"round trip {host_load.percentiles(times)}; "
          f"errors {errors}, drops {sum(o['drops'] for o in outs)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default="50,100,200")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a person waits before moving (0: at once)")
    parser.add_argument("--client-job", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client_job:
        print(json.dumps(asyncio.run(clients(json.loads(args.client_job)))))
        return
    cores = os.cpu_count() or 1
    print(f"{cores} cores; load average {os.getloadavg()[0]:.2f}; the host on core 0, the "
          f"clients on the others; {args.seconds:.0f} s a run", flush=True)
    for pairs in (int(p) for p in args.pairs.split(",")):
        asyncio.run(saturate(pairs, args.procs, args.seconds, cores, args.think))


if __name__ == "__main__":
    main()

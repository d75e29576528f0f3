"""New names a second at a host that already knows 1,000 and 8,000 players.

Run: python benchmarks/host_names.py [--sizes 1000 8000] [--measure 1000] [--clients 32]

The host runs in its own process (`solstis host`, as deployed, with the host-wide limit on
new names lifted); clients connect, say hello with a new name and hang up, ``--clients`` at a
time. Filling the registry up to each size is not timed; the next ``--measure`` names are.
``--host-args`` replaces the extra host arguments (e.g. to time an older host).
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solstis_tui.client.client import HostClient

HOST_ARGS = "--new-names-per-minute 100000000 --max-connections 1000 --bot-workers 1"


async def new_names(sock: Path, names: list[str], clients: int) -> float:
    """Register ``names`` with ``clients`` connections at a time; the seconds it took."""
    queue = list(reversed(names))

    async def worker() -> None:
        while queue:
            name = queue.pop()
            client = await HostClient.connect(sock)
            try:
                await client.hello(name)
            finally:
                await client.close()

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    return time.perf_counter() - start


async def run(sizes: list[int], measure: int, clients: int, sock: Path) -> None:
    known = 0
    for size in sorted(sizes):
        if size > known:
            await new_names(sock, [f"fill{i}" for i in range(known, size)], clients)
            known = size
        seconds = await new_names(sock, [f"new{size}-{i}" for i in range(measure)], clients)
        known += measure
        print(f"{size:>6} players known: {measure / seconds:8.0f} new names/s "
              f"({measure} names, {clients} clients at a time)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 8000])
    parser.add_argument("--measure", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--host-args", default=HOST_ARGS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sock = Path(tmp) / "host.sock"
        host = subprocess.Popen(
            [sys.executable, "-m", "solstis_tui.cli", "host", "--socket", str(sock),
             "--data", str(Path(tmp) / "data"), *shlex.split(args.host_args)],
            stdout=subprocess.PIPE, text=True)
        try:
            while "listening" not in (line := host.stdout.readline()):
                if not line:
                    raise SystemExit("the host did not start")
            asyncio.run(run(args.sizes, args.measure, args.clients, sock))
        finally:
            host.terminate()
            host.wait(timeout=60)


if __name__ == "__main__":
    main()

"""Mass expiry: a day's worth of guest codes (86,400) expiring in one housekeeping round.

Run: python benchmarks/host_mass_expiry.py [--codes 86400] [--data DIR]

The codes are written straight into ``players.db`` (guests last seen two days ago, so all
have expired), plus a few live players. Then the host's housekeeping forgets them
(``Housekeeping.prune_players``) while a ticker on the same event loop measures how late
the loop runs it (asking for 1 ms, with hellos of a live player in between). Printed: how
long the round took, how many codes went, and the loop's lateness (median, p99, worst).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from solstis_tui.host import player_db
from solstis_tui.host.host import Host
from solstis_tui.host.player_db import Player
from solstis_tui.host.players import PlayerRegistry

DAY = 24 * 3600.0


def fill(data: Path, codes: int) -> None:
    registry = PlayerRegistry(data)
    registry.load()
    conn = registry._out
    assert conn is not None
    now = time.time()
    player_db.put_all(conn, [player_db.change(f"{i:022d}", Player(
        f"Guest{i}", now - 2 * DAY - i, identity="guest")) for i in range(codes)])
    player_db.put_all(conn, [player_db.change("live-player-code-000000", Player(
        "Ann", now, identity="key:ann"))])
    asyncio.run(registry.close())


async def expire(data: Path) -> None:
    host = Host(data, bot_workers=1)
    host.load()
    late: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            late.append(time.perf_counter() - before - 0.001)
            assert host.players.lookup("live-player-code-000000") == "Ann"

    ticking = asyncio.create_task(ticker())
    began = time.perf_counter()
    gone = await host.housekeeping.prune_players()
    took = time.perf_counter() - began
    done.set()
    await ticking
    await host.close()
    late.sort()
    print(f"forgot {len(gone)} codes in {took:.2f} s; loop lateness over {len(late)} ticks: "
          f"median {statistics.median(late) * 1000:.1f} ms, "
          f"p99 {late[int(len(late) * 0.99)] * 1000:.1f} ms, worst {late[-1] * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--codes", type=int, default=86_400)
    parser.add_argument("--data", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        data = args.data or Path(scratch) / "data"
        fill(data, args.codes)
        asyncio.run(expire(data))


if __name__ == "__main__":
    main()

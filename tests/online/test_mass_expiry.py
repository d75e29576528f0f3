"""A day's worth of resume codes expiring at once (after a day of downtime, say) must not
freeze the tables: they are forgotten in bounded batches, each read and written in the
registry's worker thread, with the event loop free between them.
(benchmarks/host_mass_expiry.py measures the loop's lateness with 86,400 codes.)"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time

from solstis_tui.host import player_db, players
from solstis_tui.host.player_db import Player
from solstis_tui.host.players import PlayerRegistry

DAY = 24 * 3600.0


async def test_mass_expiry_goes_in_small_batches_with_the_loop_free_between(
        tmp_path, monkeypatch):
    monkeypatch.setattr(players, "PRUNE_BATCH", 50)
    registry = PlayerRegistry(tmp_path)
    registry.load()
    assert registry._out is not None
    now = time.time()
    player_db.put_all(registry._out, [player_db.change(f"guest{i:04d}", Player(
        f"Guest{i}", now - 2 * DAY - i, identity="guest")) for i in range(1000)])
    live = await registry.register("Ann", "key:ann")
    seated = "guest0500"  # expired, but at a table: kept
    heartbeats = 0
    beats_at_each_write: list[int] = []
    sizes: list[int] = []
    off_loop: list[bool] = []
    real_forget, real_unseen = player_db.forget, player_db.unseen

    def forget(conn, codes):
        off_loop.append(threading.current_thread() is not threading.main_thread())
        sizes.append(len(codes))
        beats_at_each_write.append(heartbeats)
        real_forget(conn, codes)

    def unseen(*args):
        off_loop.append(threading.current_thread() is not threading.main_thread())
        return real_unseen(*args)

    monkeypatch.setattr(player_db, "forget", forget)
    monkeypatch.setattr(player_db, "unseen", unseen)
    done = asyncio.Event()

    async def heartbeat() -> None:
        nonlocal heartbeats
        while not done.is_set():
            heartbeats += 1
            assert registry.lookup(live) == "Ann"  # hellos are answered meanwhile
            await asyncio.sleep(0)

    beating = asyncio.create_task(heartbeat())
    gone = await registry.prune(keep={seated})
    done.set()
    await beating
    assert len(gone) == 999 and seated not in gone and live not in gone
    assert registry.lookup(live) == "Ann"
    assert off_loop and all(off_loop)  # every read and write in the worker thread
    assert len(sizes) >= 20 and max(sizes) <= 50 and sum(sizes) == 999
    # the loop ran other tasks between any two batches
    assert all(b > a for a, b in itertools.pairwise(beats_at_each_write))
    await registry.close()
    again = PlayerRegistry(tmp_path)
    again.load()
    assert set(again) == {live, seated}
    await again.close()

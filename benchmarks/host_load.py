"""Host load: 20 concurrent clients at 10 tables; move round-trip p50/p95/max.

Run: python benchmarks/host_load.py [--clients 20] [--moves 40]
A round trip is from sending a move to receiving the state that shows it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from solstis_tui.online.client import HostClient
from solstis_tui.online.host import Host


async def seat(client: HostClient, table: str, seat_no: int, moves: int, rand: random.Random,
               times: list[float], done: asyncio.Event) -> None:
    made, pending = 0, None
    while made < moves and not done.is_set():
        state, pending = pending or await client.receive(), None
        if state.get("type") != "state":
            continue
        obs = state["observation"]
        if obs["is_over"]:
            done.set()
            return
        if obs["to_play"] != seat_no or not obs["legal_moves"]:
            continue
        seq = len(obs["history"])
        start = time.perf_counter()
        await client.send({"type": "move", "table": table, "seq": seq,
                           "move": rand.choice(obs["legal_moves"])})
        while True:
            reply = await client.receive()
            if reply.get("type") == "state" and len(reply["observation"]["history"]) > seq:
                times.append(time.perf_counter() - start)
                pending = reply
                break
            if reply.get("type") == "error":
                break
        made += 1


async def main_async(clients: int, moves: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        host = Host(Path(tmp) / "data")
        sock = Path(tmp) / "host.sock"
        await host.serve_unix(sock)
        times: list[float] = []
        jobs = []
        for i in range(clients // 2):
            a = await HostClient.connect(sock)
            await a.hello(f"A{i}")
            await a.send({"type": "create", "opponent": "friend", "seat": 0})
            table = (await a.receive_until("joined"))["table"]
            b = await HostClient.connect(sock)
            await b.hello(f"B{i}")
            await b.send({"type": "join", "table": table})
            await b.receive_until("joined")
            done = asyncio.Event()
            jobs += [seat(a, table, 0, moves, random.Random(i), times, done),
                     seat(b, table, 1, moves, random.Random(100 + i), times, done)]
        start = time.perf_counter()
        await asyncio.gather(*jobs)
        elapsed = time.perf_counter() - start
        await host.close()
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"{clients} clients, {clients // 2} tables, {len(times)} moves in {elapsed:.1f} s")
    print(f"move round trip: p50 {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms (target p95 <= 50 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--moves", type=int, default=40, help="moves per client")
    args = parser.parse_args()
    asyncio.run(main_async(args.clients, args.moves))


if __name__ == "__main__":
    main()

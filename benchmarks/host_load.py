"""Host load: move round trips for pairs of people, with and without bot tables thinking.

Run: python benchmarks/host_load.py [--clients 20,50,100,200] [--bot-tables 10]
     [--seconds 15] [--think 0.5]

For each client count, the host runs in its own process as deployed (``python -m
solstis_tui.cli host --socket ... --data ...``, default bot time and bot workers; only
the allowance of new names is raised, as every client is a new player). Clients
play in pairs at friend tables, one connection each, waiting ``--think`` seconds before
each move (far under the 20 messages a second a connection may send). A round trip is
from sending a move to receiving the state that shows it. The scenario is run again with
``--bot-tables`` more people each playing the mcts tier, so that many bot decisions are
always asked for. Errors are error replies; drops are connections the host closed and moves
never answered within 10 s. Targets (issue 14): p95 <= 50 ms at 100 clients while 10 bot
tables think; no errors or drops at 200.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from solstis_tui.ai.arena_stats import percentile
from solstis_tui.client.client import HostClient, HostError

ANSWER_WITHIN = 10.0


def percentiles(times: list[float]) -> str:
    """p50, p95 and p99 of ``times`` (seconds) in milliseconds, and how many there were."""
    if not times:
        return "no figures"
    ranked = sorted(times)
    return (f"p50 {percentile(ranked, 50) * 1000:.1f} ms, p95 "
            f"{percentile(ranked, 95) * 1000:.1f} ms, p99 {percentile(ranked, 99) * 1000:.1f} "
            f"ms ({len(ranked)} figures)")


async def start_host(command: list[str], errors: IO[bytes]) -> subprocess.Popen[bytes]:
    """Start a host (``command``, its stderr to ``errors``) and return it once it says it
    is listening; SystemExit if it stops first."""
    host = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors)
    assert host.stdout is not None
    line = await asyncio.to_thread(host.stdout.readline)
    while line and b"listening" not in line:
        line = await asyncio.to_thread(host.stdout.readline)
    if not line:
        raise SystemExit("the host did not start (its errors are in the run's host.err)")
    return host


@dataclass
class Tally:
    times: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    drops: int = 0
    bot_moves: int = 0
    games: int = 0
    sent: int = 0
    """Messages sent to the host."""
    received: int = 0
    """Messages received from the host."""


@dataclass
class Run:
    """What every client of one scenario shares."""

    sock: Path
    think: float
    seconds: float
    dial: Callable[[str], Awaitable[HostClient]] | None = None
    """How a player of this name connects and says hello (default: the Unix socket)."""
    bot_tier: str = "mcts"
    ready: int = 0
    until: float = float("inf")
    started: asyncio.Event = field(default_factory=asyncio.Event)


class Player:
    """One connection; a reader task keeps the newest state of each table."""

    def __init__(self, client: HostClient, tally: Tally) -> None:
        self.client, self.tally = client, tally
        self.states: dict[str, tuple[dict[str, Any], float]] = {}
        self.joined: asyncio.Queue[str] = asyncio.Queue()
        self.changed = asyncio.Event()
        self.closed = False
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                message = await self.client.receive()
                self.tally.received += 1
                kind = message.get("type")
                if kind == "state":
                    self.states[message["table"]] = (message, time.perf_counter())
                elif kind == "joined":
                    self.joined.put_nowait(message["table"])
                elif kind == "error":
                    self.tally.errors[message.get("code", "?")] += 1
                self.changed.set()
        except (HostError, OSError, ValueError):
            if not self.closed:
                self.tally.drops += 1
            self.closed = True
            self.changed.set()

    async def reach(self, table: str, moves: int, timeout: float = ANSWER_WITHIN) -> bool:
        """Wait for a state of ``table`` with ``moves`` or more moves; False on timeout
        or a closed line."""
        try:
            async with asyncio.timeout(timeout):
                while not self.closed:
                    if self.history(table) >= moves:
                        return True
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            return False
        return False

    def history(self, table: str) -> int:
        return len(self.states[table][0]["observation"]["history"]) if table in self.states \
            else -1

    async def close(self) -> None:
        self.closed = True
        self.reader.cancel()
        await self.client.close()


async def connect(run: Run, name: str, tally: Tally) -> Player:
    if run.dial is not None:
        client = await run.dial(name)
    else:
        client = await HostClient.connect(run.sock)
        await client.hello(name)
    run.ready += 1
    return Player(client, tally)


async def new_table(players: list[Player], opponent: str, seat: int) -> str | None:
    """A table created by the first player (and joined by the second, if any)."""
    first = players[0]
    await first.client.send({"type": "create", "opponent": opponent, "seat": seat})
    first.tally.sent += 1
    try:
        table = await asyncio.wait_for(first.joined.get(), ANSWER_WITHIN)
    except TimeoutError:
        return None
    for other in players[1:]:
        await other.client.send({"type": "join", "table": table})
        other.tally.sent += 1
        if not await other.reach(table, 0):
            return None
    return table


async def play(run: Run, players: dict[int, Player], table: str, rand: random.Random,
               tally: Tally, timed: bool) -> bool:
    """Random moves at ``table`` until time is up; True when the game ended first."""
    anyone = next(iter(players.values()))
    while time.perf_counter() < run.until:
        if not await anyone.reach(table, 0):
            return False
        newest = max((p for p in players.values() if table in p.states),
                     key=lambda p: p.history(table))
        obs = newest.states[table][0]["observation"]
        seq = len(obs["history"])
        if obs["is_over"]:
            tally.games += 1
            return True
        mover = players.get(obs["to_play"])
        if mover is None:  # the bot's turn: wait for its move
            if not await anyone.reach(table, seq + 1, 600):
                return False
            tally.bot_moves += 1
            continue
        if not await mover.reach(table, seq):
            tally.drops += 1
            return False
        legal = mover.states[table][0]["observation"]["legal_moves"]
        if mover.history(table) != seq or not legal:
            await asyncio.sleep(0)
            continue
        await asyncio.sleep(run.think * rand.uniform(0.5, 1.5))
        start = time.perf_counter()
        await mover.client.send({"type": "move", "table": table, "seq": seq,
                                 "move": rand.choice(legal)})
        tally.sent += 1
        if not await mover.reach(table, seq + 1):
            tally.drops += 1
            return False
        if timed:
            tally.times.append(mover.states[table][1] - start)
    return False


async def people(run: Run, i: int, tally: Tally) -> None:
    """Two people playing each other, a new table after each game."""
    a = await connect(run, f"A{i}", tally)
    b = await connect(run, f"B{i}", tally)
    rand = random.Random(i)
    try:
        await run.started.wait()
        while time.perf_counter() < run.until and not (a.closed or b.closed):
            table = await new_table([a, b], "friend", 0)
            if table is None or not await play(run, {0: a, 1: b}, table, rand, tally, True):
                break
    finally:
        await a.close()
        await b.close()


async def against_bot(run: Run, i: int, tally: Tally) -> None:
    """A person answering a bot (``run.bot_tier``) at once, so the bot is always asked to
    think."""
    p = await connect(run, f"Bot{i}", tally)
    rand = random.Random(1000 + i)
    try:
        await run.started.wait()
        while time.perf_counter() < run.until and not p.closed:
            table = await new_table([p], run.bot_tier, 1)  # the bot moves first
            if table is None or not await play(run, {1: p}, table, rand, tally, False):
                break
    finally:
        await p.close()


async def share(run: Run, pairs: list[int], bot_tables: list[int],
                start_at: float) -> dict[str, Any]:
    """One process's share of a run spread over processes: the people of ``pairs`` and the
    bot tables numbered ``bot_tables``, connected, then all starting at the wall-clock time
    ``start_at`` for ``run.seconds``. Returns its tallies (JSON-able)."""
    people_tally, bots = Tally(), Tally()
    jobs = [asyncio.create_task(people(run, i, people_tally)) for i in pairs]
    jobs += [asyncio.create_task(against_bot(run, i, bots)) for i in bot_tables]
    while run.ready < 2 * len(pairs) + len(bot_tables) and not any(j.done() for j in jobs):
        await asyncio.sleep(0.05)
    await asyncio.sleep(max(0.0, start_at - time.time()))
    run.until = time.perf_counter() + run.seconds
    run.started.set()
    await asyncio.gather(*jobs, return_exceptions=True)
    return {"times": people_tally.times, "errors": dict(people_tally.errors + bots.errors),
            "drops": people_tally.drops + bots.drops, "bot_moves": bots.bot_moves,
            "games": people_tally.games, "sent": people_tally.sent + bots.sent,
            "received": people_tally.received + bots.received}


async def scenario(clients: int, bot_tables: int, seconds: float, think: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        run = Run(Path(tmp) / "host.sock", think, seconds)
        with open(Path(tmp) / "host.err", "w+b") as errors:
            host = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "solstis_tui.cli", "host", "--socket", str(run.sock),
                "--data", str(Path(tmp) / "data"), "--new-names-per-minute", "10000",
                stdout=asyncio.subprocess.PIPE,
                stderr=errors)
            try:
                line = await asyncio.wait_for(host.stdout.readline(), 60)
                if b"listening" not in line:
                    raise SystemExit(f"the host did not start: {line!r}")
                tally, bots = Tally(), Tally()
                jobs = [asyncio.create_task(people(run, i, tally)) for i in range(clients // 2)]
                jobs += [asyncio.create_task(against_bot(run, i, bots))
                         for i in range(bot_tables)]
                while run.ready < clients // 2 * 2 + bot_tables and not any(
                        j.done() for j in jobs):
                    await asyncio.sleep(0.05)
                load_before = os.getloadavg()[0]
                run.until = time.perf_counter() + seconds
                run.started.set()
                await asyncio.gather(*jobs)
                load_after = os.getloadavg()[0]
            finally:
                host.send_signal(signal.SIGTERM)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(host.wait(), 30)
                if host.returncode is None:
                    host.kill()
                    await host.wait()
                errors.seek(0)
                trouble = errors.read().decode(errors="replace").strip()
    report(clients, bot_tables, seconds, tally, bots, (load_before, load_after))
    if trouble:
        print("  host stderr:", trouble[-600:])


def report(clients: int, bot_tables: int, seconds: float, tally: Tally, bots: Tally,
           load: tuple[float, float]) -> None:
    times = sorted(tally.times)
    codes = dict(tally.errors + bots.errors)
    drops = tally.drops + bots.drops
    head = f"{clients:4d} clients, {bot_tables:2d} bot tables:"
    if not times:
        print(head, "no moves measured; errors", codes, "drops", drops, flush=True)
        return
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"{head} {len(times):5d} moves in {seconds:.0f} s, round trip p50 "
          f"{statistics.median(times) * 1000:6.1f} ms, p95 {p95 * 1000:6.1f} ms, max "
          f"{times[-1] * 1000:6.1f} ms; bot moves {bots.bot_moves}; errors "
          f"{sum(codes.values())}{' ' + str(codes) if codes else ''}; drops {drops}; "
          f"load {load[0]:.2f} -> {load[1]:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="20,50,100,200",
                        help="comma-separated client counts (pairs of people)")
    parser.add_argument("--bot-tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=15.0, help="measured time per run")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a person waits before moving")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}; "
          f"think {args.think} s; {args.seconds:.0f} s a run", flush=True)
    for clients in (int(c) for c in args.clients.split(",")):
        for bot_tables in (0, args.bot_tables):
            asyncio.run(scenario(clients, bot_tables, args.seconds, args.think))


if __name__ == "__main__":
    main()

"""Bots at the host run in worker processes and never hold up people."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import pickle
import random
import signal
import time
from pathlib import Path

import pytest

from solstis_tui.client.client import HostClient
from solstis_tui.core import Game
from solstis_tui.core.observation import Observation
from solstis_tui.host.botpool import BotPool, Decision

from .conftest import quick_bot, start_host

SAFETY = 60.0  # seconds: a net for a broken build, never a measured time


class GatedBot:
    """Reports what it was given, then thinks until the test opens the gate."""

    def __init__(self, tier: str, seed: int) -> None:
        self.tier, self.seed = tier, seed

    def choose(self, obs, budget=None, cancel=None):
        gate = Path(os.environ["SOLSTIS_TEST_GATE"])
        report = {"pid": os.getpid(), "tier": self.tier, "seed": self.seed, "observation": obs,
                  "games": sum(isinstance(o, Game) for o in gc.get_objects())}
        name = f"asked-{time.monotonic_ns()}-{os.getpid()}"
        (gate / f"{name}.tmp").write_bytes(pickle.dumps(report))
        (gate / f"{name}.tmp").rename(gate / f"{name}.pkl")
        stop = time.monotonic() + SAFETY
        while not (gate / "open").exists() and time.monotonic() < stop:
            time.sleep(0.01)
        return random.Random(self.seed).choice(obs.legal_moves)


def gated_bot(tier: str, seed: int) -> GatedBot:
    return GatedBot(tier, seed)


@pytest.fixture
async def gated(tmp_path, monkeypatch):
    """A host whose bots wait at a gate (a folder): ``gate / 'open'`` lets them move."""
    gate = tmp_path / "gate"
    gate.mkdir()
    monkeypatch.setenv("SOLSTIS_TEST_GATE", str(gate))  # workers inherit it when spawned
    host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                            bot_seconds=0.05, bot_factory=gated_bot, bot_workers=2)
    host.gate = gate
    clients: list[HostClient] = []

    async def connect(name: str) -> HostClient:
        client = await HostClient.connect(host.socket_path)
        clients.append(client)
        await client.hello(name)
        return client

    host.connect = connect
    yield host
    (gate / "open").touch()
    for client in clients:
        client.writer.close()
    await host.close()
    assert host.internal_errors == [], host.internal_errors


async def asked(gate: Path, count: int = 1) -> list[dict]:
    """The reports of the first ``count`` decisions the gated bots were asked for."""
    async with asyncio.timeout(SAFETY):
        while len(found := sorted(gate.glob("asked-*.pkl"))) < count:
            await asyncio.sleep(0.01)
    return [pickle.loads(p.read_bytes()) for p in found]


async def state_with(client: HostClient, table: str, moves: int) -> dict:
    """The first state of ``table`` whose history holds at least ``moves`` moves."""
    async with asyncio.timeout(SAFETY):
        while True:
            state = await client.receive_until("state", table=table)
            if len(state["observation"]["history"]) >= moves:
                return state


async def bot_table(client: HostClient, opponent: str = "mcts") -> str:
    """A table where the bot holds seat 0 and so moves first."""
    await client.send({"type": "create", "opponent": opponent, "seat": 1})
    return (await client.receive_until("joined"))["table"]


def gone(pid: int) -> bool:
    """True once ``pid`` has exited and been reaped (no zombie left)."""
    return not Path(f"/proc/{pid}").exists()


def children() -> list[str]:
    """This process's child processes (zombies too), as 'pid state command'."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            pid, rest = stat.read_text().split(" (", 1)
            state, ppid = rest.rsplit(") ", 1)[1].split()[:2]
            if int(ppid) == os.getpid():
                command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ")
                found.append(f"{pid} {state} {command.decode(errors='replace')}")
    return found


async def test_bot_moves_are_chosen_in_worker_processes(host, connect):
    ann = await connect("Ann")
    table = await bot_table(ann, "greedy")
    rand = random.Random(1)
    state = await state_with(ann, table, 1)
    while not state["observation"]["is_over"]:
        obs = state["observation"]
        if obs["to_play"] == 1:
            if sum(row[0] == 0 and not row[2] for row in obs["history"]) >= 3:
                break  # Ann's turn: the bot is not thinking
            await ann.send({"type": "move", "table": table, "seq": len(obs["history"]),
                            "move": rand.choice(obs["legal_moves"])})
        state = await state_with(ann, table, len(obs["history"]) + 1)
    history = host.tables[table].game.history
    bot_moves = sum(player == 0 and not automatic for player, _, automatic in history)
    served = host.bots.stats()["served"]
    assert bot_moves >= 3
    assert sum(served.values()) == bot_moves
    assert os.getpid() not in served


async def test_people_are_answered_while_a_bot_is_still_thinking(gated):
    ann = await gated.connect("Ann")
    bot = await bot_table(ann)
    await asked(gated.gate)  # the bot is now thinking, and will until the gate opens
    carl, dan = await gated.connect("Carl"), await gated.connect("Dan")
    await carl.send({"type": "create", "opponent": "friend", "seat": 0})
    table = (await carl.receive_until("joined"))["table"]
    await dan.send({"type": "join", "table": table})
    await dan.receive_until("joined")
    players, rand = {0: carl, 1: dan}, random.Random(2)
    states = {seat: await state_with(c, table, 0) for seat, c in players.items()}
    for _ in range(8):  # each move is answered, to both, while the bot still thinks
        seat, seq = states[0]["observation"]["to_play"], len(states[0]["observation"]["history"])
        await players[seat].send({"type": "move", "table": table, "seq": seq, "move": rand.choice(
            states[seat]["observation"]["legal_moves"])})
        states = {seat: await state_with(c, table, seq + 1) for seat, c in players.items()}
    assert gated.tables[bot].game.history == []  # the bot has not answered yet
    assert gated.bots.stats()["running"] == 1
    (gated.gate / "open").touch()
    first = await state_with(ann, bot, 1)
    assert first["observation"]["history"][0][0] == 0


async def test_a_worker_gets_the_bot_seat_observation_and_never_the_game(gated):
    ann = await gated.connect("Ann")
    table = await bot_table(ann)
    [report] = await asked(gated.gate)
    game = gated.tables[table].game
    assert isinstance(report["observation"], Observation)
    assert report["observation"] == game.observation(0)
    assert report["observation"] != game.observation(1)
    assert report["games"] == 0  # no Game anywhere in the worker process
    assert report["pid"] != os.getpid()
    assert report["tier"] == "mcts"


async def test_two_unfinished_bot_tables_per_player(host, connect):
    ann = await connect("Ann")
    for _ in range(2):
        await ann.send({"type": "create", "opponent": "mcts", "seat": 0})
        await ann.receive_until("joined")
    await ann.send({"type": "create", "opponent": "greedy", "seat": 0})
    refused = await ann.receive_until("error")
    assert refused["code"] == "too_many"
    assert "2 unfinished games against bots" in refused["message"]
    assert sum(t.seat_of(ann.code) is not None for t in host.tables.values()) == 2
    await ann.send({"type": "create", "opponent": "friend", "seat": 0})
    await ann.receive_until("joined")  # a game with a person is still fine
    bob = await connect("Bob")
    await bob.send({"type": "create", "opponent": "mcts", "seat": 0})
    await bob.receive_until("joined")  # and the cap is per player


async def test_a_killed_worker_does_not_stop_the_table(gated):
    ann = await gated.connect("Ann")
    table = await bot_table(ann)
    [report] = await asked(gated.gate)
    os.kill(report["pid"], signal.SIGKILL)
    async with asyncio.timeout(SAFETY):
        while gated.bots.stats()["lost"] == 0:
            await asyncio.sleep(0.01)
    (gated.gate / "open").touch()
    seq = 0
    while sum(gated.bots.stats()["served"].values()) < 2:  # the bot moves, and again
        state = await state_with(ann, table, seq + 1)
        obs = state["observation"]
        assert not obs["is_over"]
        if obs["to_play"] == 1:
            await ann.send({"type": "move", "table": table, "seq": len(obs["history"]),
                            "move": obs["legal_moves"][0]})
        seq = len(obs["history"])
    served = gated.bots.stats()["served"]
    assert report["pid"] not in served  # a new worker took over
    async with asyncio.timeout(SAFETY):
        while not gone(report["pid"]):
            await asyncio.sleep(0.01)


async def test_closing_the_host_leaves_no_worker_processes(gated):
    before = {c.split()[0] for c in children()}  # earlier tests' leftovers are not the host's
    ann = await gated.connect("Ann")
    await bot_table(ann)
    await bot_table(ann)
    await asked(gated.gate, 2)  # two workers, each in the middle of a decision
    pids = gated.bots.stats()["workers"]
    assert len(pids) == 2
    await gated.close()
    assert all(gone(pid) for pid in pids)
    # multiprocessing's resource tracker serves the whole interpreter and ends with it
    assert [c for c in children() if "resource_tracker" not in c
            and c.split()[0] not in before] == []


async def test_tables_take_turns_for_the_workers():
    game = Game.new(seed=5)
    decision = Decision("random", 1, game.observation(game.to_play), 0.01)
    pool = BotPool(1, quick_bot)
    order: list[str] = []

    async def ask(key: str, label: str) -> None:
        await pool.decide(key, decision)
        order.append(label)

    try:
        await asyncio.wait_for(asyncio.gather(
            ask("a", "a1"), ask("a", "a2"), ask("a", "a3"), ask("b", "b1")), SAFETY)
    finally:
        [idle] = pool.stats()["workers"]
        await pool.close()
    assert order == ["a1", "a2", "b1", "a3"]  # a busy table does not keep b waiting
    assert gone(idle)  # an idle worker stops too


async def test_a_bot_still_plays_after_its_opponent_renamed_while_it_was_thinking(
        tmp_path, monkeypatch, peer):
    """A stored change (here Ann's new name at the table) puts a new table in the old
    one's place while the bot thinks: the bot's move is played at the table as it now
    stands."""
    from solstis_tui.host.identity import KeyRing, Trust, key_line

    from .identities import ANN, PLAYERS_UID, close_all, hello

    gate = tmp_path / "gate"
    gate.mkdir()
    monkeypatch.setenv("SOLSTIS_TEST_GATE", str(gate))
    keys = tmp_path / "authorized_keys"
    keys.write_text(key_line(ANN, "Ann") + "\n")
    host = await start_host(tmp_path / "data", tmp_path / "host.sock", bot_seconds=0.05,
                            trust=Trust(PLAYERS_UID, KeyRing(keys)), bot_factory=gated_bot,
                            bot_workers=1)
    try:
        ann = (await hello(host, ANN))["client"]
        table = await bot_table(ann)
        await asked(gate)  # the bot (seat 0) is thinking
        await ann.send({"type": "rename", "name": "Annie"})
        await ann.receive_until("renamed")
        (gate / "open").touch()
        state = await state_with(ann, table, 1)
        assert state["seats"][1]["name"] == "Annie"
        assert [player for player, _, _ in host.tables[table].game.history][:1] == [0]
    finally:
        (gate / "open").touch()
        await close_all(host)

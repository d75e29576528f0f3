"""The fleet gateway's own rules, in this process with a stand-in for the Dask client: what
a worker answers reaches the host only in the shape a decision has (anything else is said as
a failure, on one printable line); a decision asked while the scheduler is away fails at
once; a lost scheduler is said at once and connected to again; the gateway reads the host's
lines until the host closes them. Every line it says is one the host reads
(``fleet_wire.parse_reply``). The real fleet is in test_bot_fleet.py."""

from __future__ import annotations

import asyncio
import io
import json
import os
import sys
import types

import pytest

from solstis_tui.core import Game
from solstis_tui.core.observation_json import observation_to_dict
from solstis_tui.host import fleet_gateway, fleet_wire
from solstis_tui.host.fleet_gateway import Gateway
from solstis_tui.host.fleet_node import KEY_PREFIX

#: A safety net: an event that never comes fails the test instead of hanging it.
SAFETY = 30
HELLO = {"type": "hello", "address": "tls://127.0.0.1:1", "tls": ["ca.pem", "g.pem", "g.key"]}


class Said(io.StringIO):
    """The gateway's standard output: what it said, parsed as the host parses it."""

    def replies(self) -> list[fleet_wire.Reply]:
        return [fleet_wire.parse_reply(raw.encode())
                for raw in self.getvalue().splitlines()]


class Future:
    """A decision on the stand-in cluster: it resolves when the test says so."""

    def __init__(self) -> None:
        self.result: asyncio.Future[object] = asyncio.get_running_loop().create_future()

    def __await__(self):
        return self.result.__await__()


class StandInClient:
    """What the gateway uses of ``distributed.Client``."""

    def __init__(self, workers: int = 2) -> None:
        self.status = "running"
        self.workers = workers
        self.submitted: list[tuple[tuple[object, ...], str]] = []
        self.futures: list[Future] = []
        self.cancelled: list[tuple[list[Future], bool]] = []
        self.topics: dict[str, object] = {}
        self.closed = False
        self.scheduler = types.SimpleNamespace(identity=self._identity)

    async def _identity(self) -> dict[str, object]:
        return {"workers": {f"tls://10.0.0.{n}:1": {} for n in range(self.workers)}}

    def submit(self, fn, *args, key: str, pure: bool) -> Future:
        self.submitted.append((args, key))
        future = Future()
        self.futures.append(future)
        return future

    async def cancel(self, futures: list[Future], force: bool) -> None:
        self.cancelled.append((futures, force))

    def subscribe_topic(self, topic: str, handler) -> None:
        self.topics[topic] = handler

    async def close(self, timeout: float) -> None:
        self.closed = True
        self.status = "closed"

    def __await__(self):  # connecting: this one always gets through
        return self._connected().__await__()

    async def _connected(self) -> StandInClient:
        return self


def connected_gateway(client: StandInClient | None = None) -> tuple[Gateway, Said]:
    said = Said()
    gateway = Gateway(HELLO, said)
    gateway.client = client or StandInClient()
    return gateway, said


def an_ask(ident: int = 7) -> dict[str, object]:
    game = Game.new(seed=3)
    return {"type": "ask", "id": ident, "tier": "random", "seed": 5, "seconds": 0.5,
            "observation": observation_to_dict(game.observation(game.to_play))}


async def asked(gateway: Gateway, ask: dict[str, object]) -> asyncio.Task[None]:
    """The gateway answering ``ask``, once its decision is on the cluster."""
    task = asyncio.get_running_loop().create_task(gateway.answer(ask))
    async with asyncio.timeout(SAFETY):
        while ask["id"] not in gateway.running and not task.done():
            await asyncio.sleep(0)
    return task


# ---------------------------------------------------------------------- what workers answer
async def test_an_honest_workers_answer_reaches_the_host_with_its_figures():
    gateway, said = connected_gateway()
    task = await asked(gateway, an_ask(7))
    args, key = gateway.client.submitted[0]
    assert key.startswith(KEY_PREFIX)
    assert args == (None, "random", 5, json.dumps(an_ask()["observation"]), 0.5)
    gateway.client.futures[0].result.set_result(("P 3", None, 412, 0.25, "tls://10.0.0.1:1"))
    await task
    assert said.replies() == [fleet_wire.Answer(7, "P 3", 412, 0.25, "tls://10.0.0.1:1")]
    assert gateway.running == {} and gateway.asks == {}  # nothing kept once answered


@pytest.mark.parametrize("reply", [
    object(),
    ("P 3", None, 412),
    ("P 3", None, True, 0.25, "w"),
    ("P 3", None, 412, 1, "w"),
    (b"P 3", None, 412, 0.25, "w"),
    ("P 3", None, 412, 0.25, None),
    "P 3",
], ids=["an object", "too short", "a flag for iterations", "whole seconds", "bytes for a move",
        "no worker", "a bare move"])
async def test_a_worker_answer_of_another_shape_is_said_as_a_failure_never_passed_on(reply):
    gateway, said = connected_gateway()
    task = await asked(gateway, an_ask(8))
    gateway.client.futures[0].result.set_result(reply)
    await task
    [failed] = said.replies()
    assert isinstance(failed, fleet_wire.Failed) and failed.id == 8
    assert failed.why.startswith("a malformed answer from a worker (")


async def test_a_bots_error_is_said_on_one_printable_line_of_bounded_length():
    gateway, said = connected_gateway()
    task = await asked(gateway, an_ask(9))
    error = "ValueError: \x1b[31mred\x1b[0m\nsecond line\t" + "x" * 1000
    gateway.client.futures[0].result.set_result((None, error, 0, 0.1, "w"))
    await task
    [failed] = said.replies()
    assert failed.id == 9
    assert failed.why.startswith("the bot failed: ValueError: [31mred [0m second")
    assert "second line" in failed.why and len(failed.why) <= 250


async def test_a_workers_huge_answer_is_cut_before_it_is_said():
    gateway, said = connected_gateway()
    task = await asked(gateway, an_ask(10))
    gateway.client.futures[0].result.set_result(("P 3", None, 1, 0.1, "w" * 900))
    await task
    [answer] = said.replies()
    assert answer.move == "P 3" and answer.worker == "w" * fleet_wire.MAX_WORKER
    said.seek(0)
    said.truncate()
    task = await asked(gateway, an_ask(16))
    gateway.client.futures[1].result.set_result(("P" * 10**6, None, 1, 0.1, "w"))
    await task
    line = said.getvalue()
    assert len(line) < fleet_wire.MAX_REPLY  # the host reads the line (and refuses the move)
    assert json.loads(line)["move"] == "P" * 100


async def test_a_decision_lost_on_the_cluster_is_said_as_a_failure_with_its_cause():
    gateway, said = connected_gateway()
    task = await asked(gateway, an_ask(11))
    client = gateway.client
    client.futures[0].result.set_exception(KeyError("worker\nlost"))
    await task
    [failed] = said.replies()
    assert failed == fleet_wire.Failed(11, "KeyError: 'worker\\nlost'")
    assert gateway.running == {} and gateway.asks == {}
    await asyncio.gather(*gateway.chores)
    assert client.cancelled == [([client.futures[0]], True)]  # released on the cluster too


@pytest.mark.parametrize("status", [None, "closing"])
async def test_a_decision_asked_while_the_scheduler_is_away_fails_at_once(status):
    gateway, said = connected_gateway()
    if status is None:
        gateway.client = None
    else:
        gateway.client.status = status
    await asyncio.wait_for(gateway.answer(an_ask(12)), SAFETY)
    assert said.replies() == [fleet_wire.Failed(12, "not connected to the scheduler")]


async def test_a_cancelled_decision_is_cancelled_on_the_cluster_with_force():
    gateway, said = connected_gateway()
    task = await asked(gateway, an_ask(13))
    client = gateway.client
    gateway.cancel(13)
    gateway.cancel(13)  # a second cancel (the answer crossed it) finds nothing to do
    await asyncio.gather(*gateway.chores)
    assert client.cancelled == [([client.futures[0]], True)]
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert said.getvalue() == ""


async def test_a_worker_starting_a_decision_is_told_by_the_hosts_id_and_others_tasks_are_not():
    gateway, said = connected_gateway()
    task = await asked(gateway, an_ask(14))
    [(_args, key)] = gateway.client.submitted
    gateway._started((1.0, key))
    gateway._started((1.0, KEY_PREFIX + "someone-elses"))
    gateway._started((1.0, ["not", "a", "key"]))
    assert said.replies() == [fleet_wire.Started(14)]
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


# ---------------------------------------------------------------------- the scheduler
class StandInDask:
    """``distributed`` as ``keep_connected`` uses it: each Client connects or fails as the
    test lined up, and a connected one is lost when the test says."""

    def __init__(self, outcomes: list[StandInClient | Exception]) -> None:
        self.outcomes = outcomes
        self.security: list[dict[str, object]] = []

    def Security(self, **settings: object) -> object:
        self.security.append(settings)
        return settings

    def Client(self, address: str, **settings: object) -> object:
        outcome = self.outcomes.pop(0)
        return Refusing(outcome) if isinstance(outcome, Exception) else outcome


class Refusing:
    """A Client whose connection fails with ``exc``."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    def __await__(self):
        return self._connect().__await__()

    async def _connect(self) -> None:
        raise self.exc

    async def close(self, timeout: float) -> None:
        pass


async def ended(keeper: asyncio.Task[None]) -> None:
    """Cancel ``keeper`` until it ends: Python 3.11's ``wait_for`` loses a cancellation that
    arrives as the awaited call finishes (the stand-in scheduler answers at once)."""
    while not keeper.done():
        keeper.cancel()
        await asyncio.wait([keeper], timeout=0)


async def until_said(said: Said, count: int) -> None:
    async with asyncio.timeout(SAFETY):
        while len(said.replies()) < count:
            await asyncio.sleep(0)


async def test_the_gateway_says_when_it_cannot_reach_the_scheduler_and_tries_again(
        monkeypatch, caplog):
    first = StandInClient(workers=3)
    dask = StandInDask([OSError("Timed out trying to connect\nmore"), first])
    monkeypatch.setitem(sys.modules, "distributed", dask)
    monkeypatch.setattr(fleet_gateway, "RETRY_SECONDS", 0)
    monkeypatch.setattr(fleet_gateway, "PRESENCE_SECONDS", 0.001)
    said = Said()
    gateway = Gateway(HELLO, said)
    keeper = asyncio.get_running_loop().create_task(gateway.keep_connected())
    try:
        await until_said(said, 2)
        assert said.replies()[:2] == [fleet_wire.Presence(False, 0),
                                      fleet_wire.Presence(True, 3)]
        assert "cannot reach the scheduler tls://127.0.0.1:1 (Timed out trying to connect)" \
            in caplog.text
        assert dask.security == [{"tls_ca_file": "ca.pem", "tls_client_cert": "g.pem",
                                  "tls_client_key": "g.key", "require_encryption": True}]
        assert fleet_gateway.START_TOPIC in first.topics
    finally:
        await ended(keeper)


async def test_a_lost_scheduler_is_said_at_once_its_decisions_cancelled_and_it_is_reached_again(
        monkeypatch, caplog):
    first, second = StandInClient(workers=2), StandInClient(workers=1)
    monkeypatch.setitem(sys.modules, "distributed", StandInDask([first, second]))
    monkeypatch.setattr(fleet_gateway, "PRESENCE_SECONDS", 0.001)
    said = Said()
    gateway = Gateway(HELLO, said)
    keeper = asyncio.get_running_loop().create_task(gateway.keep_connected())
    try:
        await until_said(said, 1)
        assert said.replies()[0] == fleet_wire.Presence(True, 2)
        asking = await asked(gateway, an_ask(15))
        cancelled: list[bool] = []
        first.futures[0].cancel = lambda: cancelled.append(True)
        first.status = "closed"  # the scheduler went away
        async with asyncio.timeout(SAFETY):
            while fleet_wire.Presence(True, 1) not in said.replies():
                await asyncio.sleep(0)
        lines = said.replies()
        assert fleet_wire.Presence(False, 0) in lines[:lines.index(fleet_wire.Presence(True, 1))]
        assert first.closed
        assert cancelled == [True]
        assert "lost the scheduler tls://127.0.0.1:1; connecting again" in caplog.text
        asking.cancel()
        await asyncio.gather(asking, return_exceptions=True)
    finally:
        await ended(keeper)


async def test_a_scheduler_that_cannot_say_its_workers_counts_as_having_none(monkeypatch):
    client = StandInClient(workers=2)
    answers = [client.scheduler.identity]

    async def busy() -> dict[str, object]:
        raise OSError("the scheduler is busy")

    async def identity() -> dict[str, object]:  # it answers once, then cannot
        return await (answers.pop() if answers else busy)()

    client.scheduler.identity = identity
    monkeypatch.setitem(sys.modules, "distributed", StandInDask([client]))
    monkeypatch.setattr(fleet_gateway, "PRESENCE_SECONDS", 0.001)
    said = Said()
    keeper = asyncio.get_running_loop().create_task(Gateway(HELLO, said).keep_connected())
    try:
        await until_said(said, 2)
        assert said.replies()[:2] == [fleet_wire.Presence(True, 2), fleet_wire.Presence(True, 0)]
    finally:
        await ended(keeper)


# ---------------------------------------------------------------------- the host's lines
async def test_the_gateway_reads_the_hosts_lines_until_the_host_closes_them(monkeypatch):
    client = StandInClient()
    monkeypatch.setitem(sys.modules, "distributed", StandInDask([client]))
    monkeypatch.setattr(fleet_gateway, "kernel_signal", lambda: None)
    monkeypatch.setattr(fleet_gateway, "PRESENCE_SECONDS", 3600)
    read, write = os.pipe()
    said = Said()
    monkeypatch.setattr(sys, "stdin", os.fdopen(read, "rb", buffering=0))
    monkeypatch.setattr(sys, "stdout", said)
    serving = asyncio.get_running_loop().create_task(fleet_gateway.serve())
    os.write(write, json.dumps(HELLO).encode() + b"\n")
    os.write(write, fleet_wire.ask(21, "random", 5, an_ask()["observation"], 0.5))
    async with asyncio.timeout(SAFETY):
        while not client.submitted:
            await asyncio.sleep(0)
        os.write(write, fleet_wire.cancel(21) + b'{"type": "what"}\n')
        while not client.cancelled:
            await asyncio.sleep(0)
    os.close(write)
    await asyncio.wait_for(serving, SAFETY)
    assert client.closed  # it left the scheduler as it ended
    assert fleet_wire.Presence(False, 0) in said.replies()  # said as it started


async def test_a_line_over_the_gateways_limit_ends_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", StandInDask([StandInClient()]))
    monkeypatch.setattr(fleet_gateway, "kernel_signal", lambda: None)
    monkeypatch.setattr(fleet_gateway, "MAX_ASK", 4096)
    read, write = os.pipe()
    monkeypatch.setattr(sys, "stdin", os.fdopen(read, "rb", buffering=0))
    monkeypatch.setattr(sys, "stdout", Said())
    serving = asyncio.get_running_loop().create_task(fleet_gateway.serve())
    os.write(write, json.dumps(HELLO).encode() + b"\n" + b"x" * 8192)
    try:
        await asyncio.wait_for(serving, SAFETY)
    finally:
        os.close(write)


def test_the_bot_factory_is_the_one_the_host_names_or_the_tiers():
    from solstis_tui.ai.registry import make_solo_bot

    assert Gateway(HELLO, Said()).factory is None
    named = {**HELLO, "factory": "solstis_tui.ai.registry:make_solo_bot"}
    assert Gateway(named, Said()).factory is make_solo_bot

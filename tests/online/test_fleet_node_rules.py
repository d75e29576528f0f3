"""What runs on the fleet's machines, in this process: the preload refuses a scheduler or
worker that is not TLS everywhere with ``require-encryption`` on, and closes Dask's HTTP
server; a worker's decision comes from the seat's observation alone and a malformed
observation is answered as an error, never a crash. The real fleet is in test_bot_fleet.py
and test_fleet_docs.py (processes of their own)."""

from __future__ import annotations

import json
import types

import pytest

pytest.importorskip("distributed", reason="the bot fleet needs the [cluster] extra "
                                          "(pip install -e '.[cluster]')")

import dask
import distributed

from solstis_tui.core import Game, Move
from solstis_tui.core.observation_json import observation_to_dict
from solstis_tui.host.fleet_node import START_TOPIC, InsecureFleet, dask_setup, decide


class HttpServer:
    def __init__(self) -> None:
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True


def a_server(*addresses: str) -> types.SimpleNamespace:
    """A scheduler or worker as the preload sees it: its listeners and its HTTP server."""
    return types.SimpleNamespace(
        listeners=[types.SimpleNamespace(listen_address=a) for a in addresses],
        http_server=HttpServer(), services={"dashboard": object(), "other": object()})


def test_a_fleet_process_without_require_encryption_does_not_run():
    server = a_server("tls://10.0.0.2:8786")
    with dask.config.set({"distributed.comm.require-encryption": False}), \
            pytest.raises(InsecureFleet, match="require-encryption only"):
        dask_setup(server)
    assert not server.http_server.stopped


@pytest.mark.parametrize("addresses", [
    ("tcp://10.0.0.2:8786",),
    ("tls://10.0.0.2:8786", "tcp://10.0.0.2:8787"),
    (),
], ids=["plain tcp", "one listener in the clear", "no listener"])
def test_a_fleet_process_listening_other_than_tls_does_not_run(addresses):
    with dask.config.set({"distributed.comm.require-encryption": True}), \
            pytest.raises(InsecureFleet, match="listens with TLS only"):
        dask_setup(a_server(*addresses))


def test_a_tls_fleet_process_runs_with_its_http_server_closed():
    server = a_server("tls://10.0.0.2:8786", "tls://[::1]:8786")
    with dask.config.set({"distributed.comm.require-encryption": True}):
        dask_setup(server)
    assert server.http_server.stopped
    assert "dashboard" not in server.services and "other" in server.services


class Worker:
    """What ``decide`` uses of the Dask worker it runs on."""

    address = "tls://10.0.0.9:40000"

    def __init__(self) -> None:
        self.events: list[tuple[str, object]] = []

    def get_current_task(self) -> str:
        return "solstis-bot-0a1b"

    def log_event(self, topic: str, message: object) -> None:
        self.events.append((topic, message))


@pytest.fixture
def worker(monkeypatch) -> Worker:
    made = Worker()
    monkeypatch.setattr(distributed, "get_worker", lambda: made)
    return made


def test_a_worker_decides_a_legal_move_from_the_observation_and_logs_its_start(worker):
    game = Game.new(seed=4)
    obs = game.observation(game.to_play)
    move, error, iterations, seconds, where = decide(
        None, "random", 9, json.dumps(observation_to_dict(obs)), 0.2)
    assert error is None and Move.parse(move) in game.legal_moves()
    assert type(iterations) is int and seconds >= 0 and where == Worker.address
    assert worker.events == [(START_TOPIC, "solstis-bot-0a1b")]  # the gateway counts retries


@pytest.mark.parametrize("observation", ["{not json", json.dumps({"seat": 0})])
def test_a_malformed_observation_is_answered_as_an_error_not_a_crash(worker, observation):
    move, error, iterations, _seconds, where = decide(None, "random", 9, observation, 0.2)
    assert move is None and error.startswith("a malformed observation (")
    assert len(error) <= 200 and iterations == 0 and where == Worker.address


def test_a_bot_that_fails_on_a_worker_is_answered_with_its_reason(worker):
    def broken(tier: str, seed: int):
        raise RuntimeError("no such tier here")

    game = Game.new(seed=4)
    move, error, *_rest = decide(broken, "random", 9,
                                 json.dumps(observation_to_dict(game.observation(game.to_play))),
                                 0.2)
    assert move is None and error == "RuntimeError: no such tier here"


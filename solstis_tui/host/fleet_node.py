"""What runs on the bot fleet's own machines: the decision a Dask worker makes, and the
preload that every fleet process (scheduler and workers) starts with.

``decide`` gets plain data (the tier, a seed, the bot seat's observation as JSON text, the
thinking time) and returns plain data (the move's text or an error, iterations, seconds):
the same bot a local worker would make, from the observation alone.

As a preload (``--preload solstis_tui.host.fleet_node``, as docs/cluster.md starts every
part), it refuses to run a scheduler or worker whose connections are not all TLS with
``require-encryption`` on, and it closes the HTTP server Dask starts in every scheduler and
worker (the dashboard, ``/metrics``, the task pages), which ``--no-dashboard`` leaves open.
Nothing here imports Dask at import time: the host never imports Dask.
"""

from __future__ import annotations

import json
from typing import Any

from solstis_tui.ai.registry import make_solo_bot

from ..core.errors import InvalidPosition
from ..core.observation_json import observation_from_dict
from .botpool import BotFactory, Decision, answer

#: The topic a worker logs each decision's start under (its task key): two starts of one
#: key mean the first worker was lost and the decision was retried.
START_TOPIC = "solstis-bot-start"
#: The key of every bot decision on the cluster starts so (the rest is random).
KEY_PREFIX = "solstis-bot-"

#: (move text or None, error or None, iterations, seconds thought, the worker's address)
NodeAnswer = tuple[str | None, str | None, int, float, str]


def decide(factory: BotFactory | None, tier: str, seed: int, observation: str,
           seconds: float) -> NodeAnswer:
    """On a Dask worker: log the start (the gateway counts retries by it), then answer as a
    local worker does, from the observation alone; with the worker's address."""
    from distributed import get_worker

    worker = get_worker()
    worker.log_event(START_TOPIC, worker.get_current_task())
    try:
        obs = observation_from_dict(json.loads(observation))
    except (ValueError, InvalidPosition) as exc:
        return None, f"a malformed observation ({exc})"[:200], 0, 0.0, str(worker.address)
    move, error, thought, iterations = answer(factory or make_solo_bot,
                                              Decision(tier, seed, obs, seconds))
    return move, error, iterations, thought, str(worker.address)


class InsecureFleet(SystemExit):
    """A fleet process started without mutual TLS everywhere: it ends (Dask logs and
    ignores any other error a preload raises, and would run on in the clear)."""


def dask_setup(server: Any) -> None:
    """Dask's preload hook, called as each scheduler or worker starts: refuse to run
    without TLS and ``require-encryption``, and close Dask's HTTP server."""
    import dask

    if not dask.config.get("distributed.comm.require-encryption"):
        raise InsecureFleet("the bot fleet runs with require-encryption only: set "
                            "DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION=True "
                            "(docs/cluster.md)")
    addresses = [str(listener.listen_address) for listener in getattr(server, "listeners", [])]
    if not addresses or not all(a.startswith("tls://") for a in addresses):
        raise InsecureFleet(f"the bot fleet listens with TLS only, not on {addresses}")
    http = getattr(server, "http_server", None)
    if http is not None:
        http.stop()
        getattr(server, "services", {}).pop("dashboard", None)

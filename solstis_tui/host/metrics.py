"""The host's figures as Prometheus text: ``solstis host status --prometheus`` prints them,
and ``solstis host --metrics-port PORT`` serves them on 127.0.0.1 (``prometheus_client``,
in the ``metrics`` extra).

Both read the same status the host answers ``solstis host status`` with (``Host.status``):
bot decisions by outcome and the reasons some went to the local pool, the queue, a
histogram of decision latency, workers, the fleet gateway, connections and tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
from collections.abc import Callable, Iterator
from typing import Any

EXTRA = "pip install 'solstis-tui[metrics]'"
#: Seconds between two snapshots of the status the metrics port serves.
REFRESH_SECONDS = 1.0


def available() -> bool:
    return importlib.util.find_spec("prometheus_client") is not None


def outcomes(status: dict[str, Any]) -> dict[str, int]:
    """Bot decisions by how they ended: on the fleet (``fleet``, ``retried``: after a lost
    worker), in the local pool (``local``), answers refused as bad (``refused``, then
    answered locally), and decisions nobody answered, played as a random move (``lost``)."""
    bots = status.get("bots", {})
    seats = status.get("bot_seats", {})
    local = bots.get("local", bots)
    if "cluster" in bots:
        fleet = {"fleet": bots.get("answered", 0) - bots.get("retried", 0),
                 "retried": bots.get("retried", 0), "local": bots.get("to_local", 0),
                 "refused": bots.get("refused", 0)}
    else:
        fleet = {"fleet": 0, "retried": 0, "refused": 0,
                 "local": sum(local.get("served", {}).values())}
    return {**fleet, "lost": seats.get("random_moves", 0)}


def _families(status: dict[str, Any]) -> Iterator[Any]:
    from prometheus_client.core import (
        CounterMetricFamily,
        GaugeMetricFamily,
        HistogramMetricFamily,
    )

    bots = status.get("bots", {})
    local = bots.get("local", bots)
    decisions = CounterMetricFamily("solstis_bot_decisions", "Bot decisions by outcome",
                                    labels=["outcome"])
    for outcome, count in outcomes(status).items():
        decisions.add_metric([outcome], count)
    yield decisions
    to_local = CounterMetricFamily("solstis_bot_to_local_pool",
                                   "Bot decisions the fleet could not take, by why",
                                   labels=["why"])
    for why, count in sorted(bots.get("to_local_why", {}).items()):
        to_local.add_metric([why], count)
    yield to_local
    yield GaugeMetricFamily("solstis_bot_queue_length",
                            "Bot decisions waiting in the local pool or on the fleet",
                            value=local.get("queued", 0) + bots.get("in_flight", 0))
    latency = status.get("bot_seats", {}).get("latency", {})
    if latency:
        buckets = [(repr(float(bound)), count) for bound, count in latency["buckets"]]
        buckets.append(("+Inf", latency["count"]))
        yield HistogramMetricFamily("solstis_bot_decision_seconds",
                                    "Seconds from asking a bot decision to its move",
                                    buckets=buckets, sum_value=latency["sum"])
    yield GaugeMetricFamily("solstis_fleet_workers", "Workers the bot fleet has",
                            value=bots.get("cluster_workers", 0))
    yield GaugeMetricFamily("solstis_fleet_gateway_up", "1 while the fleet gateway runs",
                            value=1 if bots.get("gateway") == "running" else 0)
    yield CounterMetricFamily("solstis_fleet_gateway_starts", "Starts of the fleet gateway",
                              value=bots.get("gateway_starts", 0))
    yield GaugeMetricFamily("solstis_local_bot_workers", "The local pool's worker processes",
                            value=len(local.get("workers", [])))
    yield GaugeMetricFamily("solstis_connections", "Connections to the host",
                            value=status.get("connections", 0))
    tables = GaugeMetricFamily("solstis_tables", "Tables by state", labels=["state"])
    playing, finished = status.get("playing", 0), status.get("finished", 0)
    tables.add_metric(["playing"], playing)
    tables.add_metric(["finished"], finished)
    tables.add_metric(["open"], status.get("tables", 0) - playing - finished)
    yield tables
    yield GaugeMetricFamily("solstis_bot_tables", "Unfinished games against bots",
                            value=status.get("bot_tables", 0))
    yield GaugeMetricFamily("solstis_bot_table_capacity",
                            "Unfinished games against bots the host takes now",
                            value=status.get("bot_table_capacity", 0))


class _Snapshot:
    """A collector that serves the last status it was given."""

    def __init__(self) -> None:
        self.status: dict[str, Any] = {}

    def collect(self) -> Iterator[Any]:
        return _families(self.status)


def prometheus_text(status: dict[str, Any]) -> str:
    """``status`` in Prometheus's text format."""
    from prometheus_client import CollectorRegistry, generate_latest

    registry = CollectorRegistry()
    snapshot = _Snapshot()
    snapshot.status = status
    registry.register(snapshot)  # type: ignore[arg-type]
    return generate_latest(registry).decode()


async def serve(port: int, status: Callable[[], dict[str, Any]]) -> None:
    """Serve ``status()`` on 127.0.0.1:``port`` until cancelled, refreshed every second
    (the HTTP thread reads a snapshot; it never touches the host's objects)."""
    from prometheus_client import CollectorRegistry, start_http_server

    registry = CollectorRegistry()
    snapshot = _Snapshot()
    snapshot.status = status()
    registry.register(snapshot)  # type: ignore[arg-type]
    server, thread = start_http_server(port, addr="127.0.0.1", registry=registry)
    try:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            snapshot.status = status()
    finally:
        with contextlib.suppress(Exception):
            server.shutdown()
            server.server_close()
            thread.join(timeout=2)

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
import logging
from collections.abc import Callable, Iterator
from typing import Any

EXTRA = "pip install 'solstis-tui[metrics]'"
log = logging.getLogger("solstis.host")
#: Seconds between two snapshots of the status the metrics port serves.
REFRESH_SECONDS = 1.0


def available() -> bool:
    return importlib.util.find_spec("prometheus_client") is not None


def outcomes(status: dict[str, Any]) -> dict[str, int]:
    """Bot decisions by where they were answered: on the fleet (``fleet``) or sent to the
    local pool (``local``); each decision once. Retries, refusals and random moves are
    counted apart (``extras``)."""
    bots = status.get("bots", {})
    local = bots.get("local", bots)
    if "cluster" in bots:
        return {"fleet": bots.get("answered", 0), "local": bots.get("to_local", 0)}
    return {"fleet": 0, "local": sum(local.get("served", {}).values())}


def extras(status: dict[str, Any]) -> dict[str, tuple[str, int]]:
    """Counters beside the outcomes: name → (help, value)."""
    bots = status.get("bots", {})
    seats = status.get("bot_seats", {})
    return {
        "solstis_bot_fleet_retried": ("Decisions answered on the fleet after a lost worker",
                                      bots.get("retried", 0)),
        "solstis_bot_fleet_refused": ("Bad answers from the fleet, refused",
                                      bots.get("refused", 0)),
        "solstis_bot_random_moves": ("Decisions nobody answered, played as a random move",
                                     seats.get("random_moves", 0)),
    }


def _families(status: dict[str, Any]) -> Iterator[Any]:
    from prometheus_client.core import (
        CounterMetricFamily,
        GaugeMetricFamily,
        HistogramMetricFamily,
    )

    bots = status.get("bots", {})
    local = bots.get("local", bots)
    decisions = CounterMetricFamily("solstis_bot_decisions",
                                    "Bot decisions by where they were answered",
                                    labels=["outcome"])
    for outcome, count in outcomes(status).items():
        decisions.add_metric([outcome], count)
    yield decisions
    for name, (text, value) in extras(status).items():
        yield CounterMetricFamily(name, text, value=value)
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
    registry.register(snapshot)
    return generate_latest(registry).decode()


class MetricsServer:
    """``status()`` served on 127.0.0.1:``port`` (``/metrics``), bound at once (OSError if
    the port is taken); ``run`` refreshes it every second until cancelled. The HTTP thread
    reads a snapshot: it never touches the host's objects."""

    def __init__(self, port: int, status: Callable[[], dict[str, Any]]) -> None:
        from prometheus_client import CollectorRegistry, start_http_server

        self.status = status
        self.snapshot = _Snapshot()
        self.snapshot.status = status()
        registry = CollectorRegistry()
        registry.register(self.snapshot)
        self.server, self.thread = start_http_server(port, addr="127.0.0.1", registry=registry)

    async def run(self) -> None:
        try:
            while True:
                await asyncio.sleep(REFRESH_SECONDS)
                try:
                    self.snapshot.status = self.status()
                except Exception:  # the figures stay as they were; the host goes on
                    log.exception("metrics: the host's status could not be read")
        finally:
            self.close()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.server.shutdown()
            self.server.server_close()
            self.thread.join(timeout=2)

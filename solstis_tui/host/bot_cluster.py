"""Bot decisions on a Dask cluster, with the host's own pool to fall back on.

``solstis host --bot-cluster tcp://SCHEDULER:8786`` sends each bot decision to a Dask
scheduler, whose workers are plain ``dask worker`` processes on machines that have this
project installed (``pip install 'solstis-tui[cluster]'``). A worker gets what a local
worker gets, a ``Decision`` (the tier, a seed, the seat's observation and the time; never
the game), and runs the same ``botpool.answer``.

Dask reschedules a decision whose worker dies on another worker (the host counts those
retries from the event each start logs). When the scheduler cannot be reached, or drops
the connection, decisions go to the local pool at once and the host keeps trying the
scheduler every ``retry_seconds``; once it answers, decisions go there again. A decision
whose caller gives up (its game ended or was replaced) is cancelled on the cluster. Off
this machine the connection must use TLS (``--bot-cluster-tls CA,CERT,KEY``):
docs/cluster.md shows how to make the files.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import ipaddress
import logging
import secrets
import time
from collections import Counter, deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from .botpool import Answer, BotFactory, BotPool, Decision, Recent, WorkerLost, answer, move_of

#: A ``distributed.Client`` (Dask's own typing is partial: it is handled as Any here).
Client = Any

log = logging.getLogger("solstis.host")

#: The topic a worker logs each decision's start under (its task key): two starts of one
#: key mean the first worker was lost and the decision was retried.
START_TOPIC = "solstis-bot-start"
#: The key of every bot decision on the cluster starts so (the rest is random).
KEY_PREFIX = "solstis-bot-"
EXTRA = "pip install 'solstis-tui[cluster]'"


class ClusterProblem(ValueError):
    """The cluster's address or TLS files are unusable: the sentence says why."""


@dataclass(frozen=True)
class ClusterSettings:
    """Where the scheduler is, and the TLS files (CA, certificate, key) if it uses TLS."""

    address: str
    tls: tuple[str, str, str] | None = None

    def security(self) -> Any:
        """Dask's ``Security`` for these files (None without TLS)."""
        if self.tls is None:
            return None
        ca, cert, key = self.tls
        return _dask("distributed").Security(tls_ca_file=ca, tls_client_cert=cert,
                                             tls_client_key=key, require_encryption=True)


def cluster_settings(address: str, tls: str | None = None) -> ClusterSettings:
    """Check ``--bot-cluster`` (``tcp://HOST:PORT`` or ``tls://HOST:PORT``) and
    ``--bot-cluster-tls`` (``CA,CERT,KEY``): ClusterProblem, in words, if they will not do.
    A scheduler off this machine needs TLS."""
    scheme, sep, rest = address.partition("://")
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")
    if not sep or scheme not in ("tcp", "tls") or not colon or not host \
            or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClusterProblem(f"--bot-cluster {address!r}: give the scheduler as "
                             "tcp://HOST:PORT (or tls://HOST:PORT), e.g. tcp://127.0.0.1:8786")
    files: tuple[str, str, str] | None = None
    if tls is not None:
        parts = [part.strip() for part in tls.split(",")]
        if len(parts) != 3 or not all(parts):
            raise ClusterProblem("--bot-cluster-tls: give three files, CA,CERT,KEY "
                                 "(docs/cluster.md shows how to make them)")
        for part in parts:
            try:
                Path(part).read_bytes()
            except OSError as exc:
                raise ClusterProblem(f"--bot-cluster-tls: cannot read {part} "
                                     f"({exc.strerror or exc})") from None
        files = (parts[0], parts[1], parts[2])
    elif scheme == "tls":
        raise ClusterProblem(f"--bot-cluster {address}: a tls:// scheduler needs "
                             "--bot-cluster-tls CA,CERT,KEY")
    elif not _loopback(host):
        raise ClusterProblem(
            f"--bot-cluster {address}: a scheduler off this machine must use TLS, so that "
            "nobody else can read the observations or answer for the bots: give "
            "--bot-cluster-tls CA,CERT,KEY (docs/cluster.md shows how to make them)")
    return ClusterSettings(f"{'tls' if files else 'tcp'}://{rest}", files)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name: it may be anywhere


def cluster_decide(factory: BotFactory, decision: Decision) -> tuple[Answer, str]:
    """On a Dask worker: log the start (the host counts retries by it), then answer as a
    local worker does; with the worker's address."""
    worker = _dask("distributed").get_worker()
    worker.log_event(START_TOPIC, worker.get_current_task())
    return answer(factory, decision), str(worker.address)


class ClusterPool:
    """Bot decisions on the Dask cluster at ``settings``, or in ``local`` while it cannot be
    reached. Same interface as ``BotPool``; the cluster's bots are made by ``local``'s
    factory, and a decision there is given up past its time by ``local``'s grace."""

    def __init__(self, settings: ClusterSettings, local: BotPool, *,
                 connect_timeout: float = 1.0, retry_seconds: float = 5.0) -> None:
        self.settings = settings
        self.local = local
        self.connect_timeout = connect_timeout
        self.retry_seconds = retry_seconds
        self.client: Client | None = None
        self.connected = asyncio.Event()
        """Set while decisions go to the cluster (tests wait on it)."""
        self.fell_back = asyncio.Event()
        """Set while decisions go to the local pool (tests wait on it)."""
        self.since = time.time()
        """When the current path (cluster or local pool) began."""
        self.waits = Recent()
        """Seconds each decision spent on the cluster beyond the bot's thinking: the queue
        wait and the way there and back."""
        self.thinking = Recent()
        self.answered = 0
        self.retried = 0
        """Decisions answered after their first worker was lost."""
        self.retries: deque[dict[str, float]] = deque(maxlen=20)
        """The last retried decisions: when each first started (on the worker that was
        lost), started again, and was answered (seconds since the epoch)."""
        self.lost = 0
        self.cancelled = 0
        self.served: Counter[str] = Counter()
        """Decisions answered, by worker address."""
        self.closed = False
        self._starts: dict[str, list[float]] = {}
        self._first_try: asyncio.Task[Client | None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._chores: set[asyncio.Task[Any]] = set()

    def start(self) -> None:
        """Start connecting to the scheduler (the host has started serving)."""
        if self._watcher is None and not self.closed:
            loop = asyncio.get_running_loop()
            self._first_try = loop.create_task(self._connect())
            self._watcher = loop.create_task(self._watch(self._first_try))

    # ------------------------------------------------------------------ asking
    async def decide(self, key: str, decision: Decision) -> str:
        """The move text for ``decision``: from the cluster when it answers, else from the
        local pool (``key``: the table, for the local pool's turns)."""
        if self.closed:
            raise WorkerLost("the bot workers are shut down")
        client = await self._client()
        if client is not None:
            with contextlib.suppress(_Gone):
                return await self._on_cluster(client, decision)
        return await self.local.decide(key, decision)

    def stats(self) -> dict[str, Any]:
        """Where decisions go, since when, and the figures of both paths."""
        client = self.client
        workers = 0
        if client is not None:
            with contextlib.suppress(Exception):
                workers = len(client.scheduler_info().get("workers", {}))
        return {
            "cluster": self.settings.address,
            "path": "cluster" if client is not None else "local pool",
            "since": self.since,
            "cluster_workers": workers,
            "answered": self.answered,
            "retried": self.retried,
            "retries": list(self.retries),
            "lost": self.lost,
            "cancelled": self.cancelled,
            "served": dict(self.served),
            "queue_wait_ms": self.waits.summary(),
            "thinking_ms": self.thinking.summary(),
            "local": self.local.stats(),
        }

    # ------------------------------------------------------------------ the cluster
    async def _on_cluster(self, client: Client, decision: Decision) -> str:
        """Ask the cluster; ``_Gone`` if the scheduler went meanwhile (ask the local pool)."""
        future_cancelled = _dask("distributed.client").FutureCancelledError
        killed_worker = _dask("distributed.scheduler").KilledWorker
        key = KEY_PREFIX + secrets.token_hex(12)
        self._starts[key] = []
        asked = time.monotonic()
        future = client.submit(cluster_decide, self.local.factory, decision, key=key,
                               pure=False)
        try:
            reply, where = await asyncio.wait_for(_awaited(future),
                                                  decision.seconds + self.local.grace)
        except asyncio.CancelledError:
            self.cancelled += 1
            self._later(client.cancel([future], force=True))
            raise
        except TimeoutError:
            self.lost += 1
            self._later(client.cancel([future], force=True))
            raise WorkerLost("the bot cluster gave no answer in time") from None
        except killed_worker:
            self.lost += 1
            raise WorkerLost("the bot cluster's workers kept dying on this decision") from None
        except future_cancelled:
            if client.status != "running":
                raise _Gone from None
            self.lost += 1
            raise WorkerLost("the bot cluster cancelled the decision") from None
        except OSError:
            raise _Gone from None
        finally:
            starts = self._starts.pop(key, [])
        self.answered += 1
        if len(starts) > 1:
            self.retried += 1
            self.retries.append({"first_start": starts[0], "restart": starts[-1],
                                 "answered": time.time()})
        self.served[where] += 1
        self.thinking.add(reply[2])
        self.waits.add(time.monotonic() - asked - reply[2])
        return move_of(reply)

    def _started(self, event: tuple[float, Any]) -> None:
        key = event[1]
        if isinstance(key, str) and key in self._starts:
            self._starts[key].append(float(event[0]))

    async def _client(self) -> Client | None:
        """The connected client, or None (the local pool's turn). The first call waits for
        the first attempt to connect (at most ``connect_timeout``)."""
        self.start()
        if self._first_try is not None and not self._first_try.done():
            await asyncio.wait({self._first_try}, timeout=self.connect_timeout + 0.5)
        client = self.client
        return client if client is not None and client.status == "running" else None

    async def _watch(self, first: asyncio.Task[Client | None]) -> None:
        """After the ``first`` attempt: notice a lost scheduler, and connect again, until
        the pool closes."""
        attempt: asyncio.Task[Client | None] | None = first
        while not self.closed:
            client = await (attempt or self._connect())
            attempt = None
            if client is None:
                await asyncio.sleep(self.retry_seconds)
                continue
            while client.status == "running" and not self.closed:
                await asyncio.sleep(0.1)
            self.client = None
            if not self.closed:
                self._use_local("lost the connection")
            await _closed(client)

    async def _connect(self) -> Client | None:
        client = _dask("distributed").Client(
            self.settings.address, asynchronous=True, timeout=self.connect_timeout,
            set_as_default=False, security=self.settings.security(), name="solstis-host")
        try:
            await client
        except Exception as exc:  # unreachable, refused, a TLS failure: the local pool's turn
            await _closed(client)  # else Dask's own clean-up complains later
            self._use_local(f"cannot reach it ({_short(exc)})")
            return None
        if self.closed:
            await _closed(client)
            return None
        client.subscribe_topic(START_TOPIC, self._started)
        _quicken(client)
        self.client = client
        self.since = time.time()
        self.fell_back.clear()
        self.connected.set()
        log.info("bot cluster %s: connected; bots decide there", self.settings.address)
        return client

    def _use_local(self, why: str) -> None:
        if self.fell_back.is_set():
            return  # said already
        self.since = time.time()
        self.connected.clear()
        self.fell_back.set()
        log.warning("bot cluster %s: %s; bots decide in the local pool, and the host "
                    "tries the cluster again every %g s", self.settings.address, why,
                    self.retry_seconds)

    def _later(self, work: Any) -> None:
        """Run ``work`` (a coroutine or future) on its own; keep it until it is done."""
        task = asyncio.ensure_future(work)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    # ------------------------------------------------------------------ closing
    async def close(self, timeout: float = 5.0) -> None:
        """Stop using the cluster (its workers stay: they are not the host's) and close the
        local pool."""
        self.closed = True
        if self._watcher is not None:
            self._watcher.cancel()
            await asyncio.gather(self._watcher, return_exceptions=True)
        client, self.client = self.client, None
        if client is not None:
            await _closed(client, timeout)
        if self._chores:
            await asyncio.wait(list(self._chores), timeout=timeout)
        await self.local.close(timeout)


#: Seconds Dask's client waits to batch its messages to the scheduler (its own default
#: is 10 ms, most of a decision's overhead; the scheduler's streams use 2 to 5 ms).
CLIENT_BATCH_SECONDS: Final = 0.002


def _quicken(client: Client) -> None:
    """Let the client send to the scheduler sooner (``CLIENT_BATCH_SECONDS``); a Dask
    without that attribute keeps its own batching."""
    comm = getattr(client, "scheduler_comm", None)
    if comm is not None and isinstance(getattr(comm, "interval", None), float):
        comm.interval = CLIENT_BATCH_SECONDS


def _dask(module: str) -> Any:
    """A module of Dask's ``distributed`` (the cluster extra), imported when first used."""
    return importlib.import_module(module)


class _Gone(Exception):
    """The scheduler went while a decision was on the cluster."""


async def _awaited(future: Any) -> tuple[Answer, str]:
    reply: tuple[Answer, str] = await future
    return reply


async def _closed(client: Client, timeout: float = 2.0) -> None:
    with contextlib.suppress(Exception):
        await client.close(timeout=timeout)


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]

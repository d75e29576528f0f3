"""The fleet gateway: the one process that holds the Dask client of the bot fleet.

The game host starts it (``python -m solstis_tui.host.fleet_gateway``), as another user
where the host runs as root, in an empty folder of its own, and speaks typed JSON lines
with it (``fleet_wire``): the first line on standard input is the ``hello`` (the scheduler's
``tls://`` address, the TLS material, the bot factory the host was configured with), then
``ask`` and ``cancel`` lines; on standard output it writes ``answer``, ``failed`` and
``presence`` lines. Dask unpickles what the cluster sends here, never in the host: a worker
that answers with a hostile object can at most make this process say something the host
then checks and refuses (OpenSSH's privilege separation, lichess's fishnet).

The gateway tells the host every ``PRESENCE_SECONDS`` whether it is connected and how many
workers the scheduler has; when the scheduler goes, it says so at once and connects again
every ``RETRY_SECONDS``. It ends when the host closes its standard input or dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import os
import secrets
import sys
from typing import Any, Final

from ..ai.lifeline import kernel_signal
from .fleet_node import KEY_PREFIX, START_TOPIC, decide

PRESENCE_SECONDS: Final = 0.5
RETRY_SECONDS: Final = 1.0
CONNECT_SECONDS: Final = 2.0
#: The longest line the gateway reads from the host (an observation with a long history).
MAX_ASK: Final = 4 * 1024 * 1024

log = logging.getLogger("solstis.fleet-gateway")


class Gateway:
    """The Dask client and the decisions under way on it."""

    def __init__(self, hello: dict[str, Any], out: Any) -> None:
        self.address = str(hello["address"])
        self.tls = hello["tls"]
        self.factory = _factory(hello.get("factory"))
        self.out = out
        self.client: Any = None
        self.running: dict[int, tuple[Any, str]] = {}
        self.asks: dict[str, int] = {}
        """The key of each decision on the cluster → the host's id for it."""
        self.workers = 0
        self.chores: set[Any] = set()

    def say(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message, separators=(",", ":")) + "\n")
        self.out.flush()

    def presence(self) -> None:
        connected = self.client is not None and self.client.status == "running"
        self.say({"type": "presence", "connected": connected,
                  "workers": self.workers if connected else 0})

    # ------------------------------------------------------------------ the scheduler
    async def keep_connected(self) -> None:
        """Connect, watch the worker count, and connect again whenever the scheduler goes."""
        dask: Any = importlib.import_module("distributed")  # Dask's typing is partial

        ca, cert, key = self.tls
        security = dask.Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key,
                            require_encryption=True)
        while True:
            client = dask.Client(self.address, asynchronous=True, timeout=CONNECT_SECONDS,
                                 set_as_default=False, security=security, name="solstis-gateway")
            try:
                await client
            except Exception as exc:  # unreachable, refused, a TLS failure: try again
                log.warning("cannot reach the scheduler %s (%s)", self.address,
                            str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__)
                with contextlib.suppress(Exception):
                    await client.close(timeout=1)
                self.workers = 0
                self.presence()
                await asyncio.sleep(RETRY_SECONDS)
                continue
            client.subscribe_topic(START_TOPIC, self._started)
            self.client = client
            log.info("connected to the scheduler %s", self.address)
            while client.status == "running":
                try:
                    info = await asyncio.wait_for(client.scheduler.identity(),
                                                  CONNECT_SECONDS)
                    self.workers = len(info.get("workers", {}))
                except Exception:
                    self.workers = 0
                self.presence()
                await asyncio.sleep(PRESENCE_SECONDS)
            self.client = None
            self.workers = 0
            self.presence()
            log.warning("lost the scheduler %s; connecting again", self.address)
            for future, _key in self.running.values():
                with contextlib.suppress(Exception):
                    future.cancel()
            with contextlib.suppress(Exception):
                await client.close(timeout=1)

    def _started(self, event: tuple[float, Any]) -> None:
        key = event[1]
        if isinstance(key, str) and key in self.asks:
            self.say({"type": "started", "id": self.asks[key]})

    # ------------------------------------------------------------------ decisions
    async def answer(self, ask: dict[str, Any]) -> None:
        ident = int(ask["id"])
        client = self.client
        if client is None or client.status != "running":
            self.say({"type": "failed", "id": ident, "why": "not connected to the scheduler"})
            return
        key = KEY_PREFIX + secrets.token_hex(12)
        seconds = float(ask["seconds"])
        self.asks[key] = ident
        try:
            future = client.submit(decide, self.factory, str(ask["tier"]), int(ask["seed"]),
                                   json.dumps(ask["observation"]), seconds, key=key,
                                   pure=False)
            self.running[ident] = (future, key)
            reply = await future  # the host says when it gives up (``cancel``)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # lost, cancelled, a broken answer: say so, in short
            self._drop(ident)
            self.say({"type": "failed", "id": ident,
                      "why": _printable(f"{type(exc).__name__}: {exc}")[:250]})
            return
        finally:
            self.running.pop(ident, None)
            self.asks.pop(key, None)
        self.say(_reply(ident, reply))

    def cancel(self, ident: int) -> None:
        self._drop(ident)

    def _drop(self, ident: int) -> None:
        running = self.running.pop(ident, None)
        if running is not None and self.client is not None:
            with contextlib.suppress(Exception):
                chore = asyncio.ensure_future(self.client.cancel([running[0]], force=True))
                self.chores.add(chore)
                chore.add_done_callback(self.chores.discard)


def _reply(ident: int, reply: Any) -> dict[str, Any]:
    """The line for a worker's ``reply``: an answer only if it has the shape ``decide``
    gives (the host checks it again, and the move against the observation)."""
    try:
        move, error, iterations, thought, worker = reply
        if error is not None:
            return {"type": "failed", "id": ident,
                    "why": _printable(f"the bot failed: {error}")[:250]}
        if not (type(move) is str and type(iterations) is int and type(thought) is float
                and type(worker) is str):
            raise TypeError
    except (TypeError, ValueError):
        return {"type": "failed", "id": ident,
                "why": f"a malformed answer from a worker ({type(reply).__name__[:40]})"}
    return {"type": "answer", "id": ident, "move": move[:100], "iterations": iterations,
            "seconds": thought, "worker": worker[:200]}


def _printable(text: str) -> str:
    """``text`` on one line, as the host's wire takes it."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _factory(path: Any) -> Any:
    """The bot factory the host was configured with (``module:function``; None: the tiers),
    named by the host's own configuration, never by the fleet."""
    if not path:
        return None
    module, _, name = str(path).partition(":")
    return getattr(importlib.import_module(module), name)


def _drop_privileges(user: Any) -> None:
    """Become the fleet's own account (``[uid, gid]`` from the host, where it runs as
    root) before hearing anything from the fleet: what Dask unpickles then runs with
    no access to the host's data. The code it needs is loaded first, as root."""
    if user is None or os.geteuid() != 0:
        return
    import distributed.comm.tcp  # loaded now, while the interpreter's files can be read
    import distributed.protocol
    import distributed.versions

    distributed.versions.get_versions()  # kept: the scheduler compares them at connection

    uid, gid = int(user[0]), int(user[1])
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise SystemExit("the fleet gateway could not drop its privileges")


def _die_with_parent(host_pid: int | None = None) -> None:
    """End when the host does, however it ends (Linux: the parent-death signal)."""
    kernel_signal()
    if host_pid is not None and os.getppid() != host_pid:
        os._exit(1)  # the host is gone already


async def serve() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_ASK)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    hello = json.loads(await reader.readline())
    gateway = Gateway(hello, sys.stdout)
    _drop_privileges(hello.get("user"))
    _die_with_parent(hello.get("host_pid"))  # again: a new user clears the parent-death signal
    tasks: set[asyncio.Task[None]] = set()
    keeper = loop.create_task(gateway.keep_connected())
    gateway.presence()
    while True:
        try:
            raw = await reader.readline()
        except ValueError:  # a line over the limit: the host never sends one
            break
        if not raw:
            break
        message = json.loads(raw)
        if message.get("type") == "ask":
            task = loop.create_task(gateway.answer(message))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        elif message.get("type") == "cancel":
            gateway.cancel(int(message["id"]))
    keeper.cancel()
    for task in list(tasks):
        task.cancel()
    if gateway.client is not None:
        with contextlib.suppress(Exception):
            await gateway.client.close(timeout=2)


def main() -> None:
    _die_with_parent()
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(message)s")
    logging.getLogger("distributed").setLevel(logging.ERROR)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())


if __name__ == "__main__":
    main()

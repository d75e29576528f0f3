"""Bot decisions on the Dask bot fleet, through a gateway process; the local pool when the
fleet cannot answer in time.

The host never imports Dask and never unpickles what the fleet sends. It starts the fleet
gateway (``fleet_gateway``) as a child process, as another user where the host runs as
root, watches it and starts it again if it stops or falls silent. The two speak typed JSON
lines (``fleet_wire``). Every answer is checked: its shape, that its move is legal in the
observation the host sent, and that its time is sane. A bad answer is logged and counted,
and the decision goes to the local pool; so does a decision when the fleet has no workers,
when it would wait longer than its thinking time there, when the gateway is down, or when
the fleet gives no answer in time. ``stats`` says how many took each way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pwd
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from solstis_tui.ai.registry import make_solo_bot

from ..core import Move
from ..core.observation_json import observation_to_dict
from . import fleet_wire
from .botpool import DEADLINE_SECONDS, BotPool, Decision, Recent
from .fleet_certs import EXTRA

log = logging.getLogger("solstis.host")

#: Seconds past its thinking time the host waits for the fleet's answer before it asks the
#: local pool instead (which then thinks for what is left of ``DEADLINE_SECONDS``).
FLEET_GRACE: Final = 2.0
#: Seconds kept for the local pool's own way there and back.
LOCAL_MARGIN: Final = 0.7
#: Seconds between starts of a gateway that stopped, and of silence before it is stopped.
RESTART_SECONDS: Final = 1.0
SILENCE_SECONDS: Final = 5.0
#: Seconds a new gateway may take to say its first line (it loads Dask first).
START_SECONDS: Final = 60.0
#: How long a gateway that closed its output has to exit by itself (and say its status)
#: before it is killed.
EXIT_SECONDS: Final = 1.0
#: Lines a second the host reads from a gateway, bad lines in one gateway's life, bytes the
#: gateway may leave unread, and its log lines a minute: past any, it is started anew.
MAX_LINES_A_SECOND: Final = 2000
MAX_BAD_LINES: Final = 50
MAX_UNREAD: Final = 64 * 1024 * 1024
MAX_LOG_LINES: Final = 120
#: The most fleet workers the host believes in (the gateway's count is not trusted above).
DEFAULT_MAX_WORKERS: Final = 256
#: The account the gateway runs as where the host runs as root.
DEFAULT_FLEET_USER: Final = "nobody"


class FleetProblem(ValueError):
    """The fleet's address or TLS files are unusable: the sentence says why."""


@dataclass(frozen=True)
class FleetSettings:
    """The scheduler's ``tls://`` address, the TLS files (CA, certificate, key) the gateway
    presents, and the account the gateway runs as where the host runs as root."""

    address: str
    tls: tuple[str, str, str]
    user: str = DEFAULT_FLEET_USER


def fleet_settings(address: str, tls: str | None,
                   user: str = DEFAULT_FLEET_USER) -> FleetSettings:
    """Check ``--bot-cluster`` (``tls://HOST:PORT``) and ``--bot-cluster-tls``
    (``CA,CERT,KEY``, or a folder ``solstis fleet certs`` made): FleetProblem, in words."""
    scheme, sep, rest = address.partition("://")
    host, colon, port = rest.rpartition(":")
    if scheme == "tcp":
        raise FleetProblem(f"--bot-cluster {address}: the bot fleet speaks TLS only, so that "
                           "nobody can read the bots' hands, answer for them or run code: "
                           "give tls://HOST:PORT (docs/cluster.md)")
    if scheme != "tls" or not sep or not colon or not host.strip("[]") \
            or not port.isdigit() or not 0 < int(port) < 65536:
        raise FleetProblem(f"--bot-cluster {address!r}: give the scheduler as "
                           "tls://HOST:PORT, e.g. tls://10.0.0.5:8786")
    if tls is None:
        raise FleetProblem("--bot-cluster needs --bot-cluster-tls: the folder "
                           "'solstis fleet certs' made, or CA,CERT,KEY")
    if "," in tls:
        parts = [part.strip() for part in tls.split(",")]
        if len(parts) != 3 or not all(parts):
            raise FleetProblem("--bot-cluster-tls: give three files, CA,CERT,KEY, or the "
                               "folder 'solstis fleet certs' made")
    else:
        folder = Path(tls)
        parts = [str(folder / "ca.pem"), str(folder / "gateway.pem"),
                 str(folder / "gateway.key")]
    for part in parts:
        try:
            Path(part).read_bytes()
        except OSError as exc:
            raise FleetProblem(f"--bot-cluster-tls: cannot read {part} "
                               f"({exc.strerror or exc})") from None
    if os.geteuid() == 0:
        try:
            account = pwd.getpwnam(user)
        except KeyError:
            raise FleetProblem(f"--fleet-user {user}: no such user (the gateway runs as "
                               "another user than root)") from None
        if account.pw_uid == 0:
            raise FleetProblem(f"--fleet-user {user}: that account is root; give one "
                               "without rights (the gateway hears from the fleet)")
    return FleetSettings(f"tls://{rest}", (parts[0], parts[1], parts[2]), user)


class FleetPool:
    """Bot decisions on the fleet behind ``settings``, or in ``local`` (the host's own
    pool) when the fleet cannot answer in time. Same interface as ``BotPool``."""

    def __init__(self, settings: FleetSettings, local: BotPool, *,
                 grace: float = FLEET_GRACE, deadline: float = DEADLINE_SECONDS,
                 silence: float = SILENCE_SECONDS, max_workers: int = DEFAULT_MAX_WORKERS,
                 command: Sequence[str] | None = None) -> None:
        self.settings = settings
        self.local = local
        self.grace = grace
        self.deadline = deadline
        self.silence = silence
        self.max_workers = max_workers
        """Seconds without a line from the gateway before it is stopped and started anew."""
        self.command = list(command or [sys.executable, "-s", "-P", "-m",
                                        "solstis_tui.host.fleet_gateway"])
        self.factory = None if local.factory is make_solo_bot else \
            f"{local.factory.__module__}:{local.factory.__qualname__}"
        self.connected = False
        self.workers = 0
        self.present = asyncio.Event()
        """Set while the fleet has workers (tests wait on it)."""
        self.absent = asyncio.Event()
        """Set while it has none, or the gateway is down (tests wait on it)."""
        self.absent.set()
        self.since = time.time()
        self.outcomes: Counter[str] = Counter()
        """Decisions answered on the fleet (``fleet``; of them, after a lost worker:
        ``retried``), sent to the local pool (``local``), and bad answers (``refused``)."""
        self.to_local: Counter[str] = Counter()
        """Decisions sent to the local pool, by why."""
        self.refusals: list[str] = []
        """The last bad answers, in words."""
        self.gateway_starts = 0
        self.starts: Counter[int] = Counter()
        """Times a worker began each decision under way (two: it was retried)."""
        self.waits = Recent()
        self.thinking = Recent()
        self.closed = False
        self.process: asyncio.subprocess.Process | None = None
        self._pending: dict[int, asyncio.Future[fleet_wire.Answer | fleet_wire.Failed]] = {}
        self._next_id = 0
        self._answered: dict[int, int] = {}
        """The last decisions answered on the fleet, and how many starts each had."""
        self._supervisor: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._supervisor is None and not self.closed:
            self._supervisor = asyncio.get_running_loop().create_task(self._supervise())

    # ------------------------------------------------------------------ asking
    async def decide(self, key: str, decision: Decision,
                     deadline: float | None = None) -> str:
        """The move text for ``decision``: from the fleet if it can answer in time, else
        from the local pool, which thinks for what is left before ``deadline`` (by
        default the thinking time plus ``DEADLINE_SECONDS`` from now). Any failure on the
        fleet's side ends in the local pool."""
        if deadline is None:
            deadline = time.monotonic() + decision.seconds + self.deadline
        why = self._refuse_route(decision)
        if why is None:
            try:
                return await self._on_fleet(decision)
            except _Miss as miss:
                why = miss.why
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # never a dead table: the local pool answers
                log.exception("bot fleet: %s", exc)
                why = "an error in the host"
        self.outcomes["local"] += 1
        self.to_local[why] += 1
        self.start()
        return await self.local.decide(key, decision, deadline - LOCAL_MARGIN)

    def _refuse_route(self, decision: Decision) -> str | None:
        """Why this decision goes to the local pool now (None: to the fleet)."""
        if self.closed or self.process is None or self.process.returncode is not None:
            return "the gateway is down"
        if not self.connected:
            return "the scheduler cannot be reached"
        if self.workers <= 0:
            return "the fleet has no workers"
        if len(self._pending) >= 2 * self.workers and self.local.idle():
            return "the fleet is busy"  # it would wait a whole round there, not here
        return None

    async def _on_fleet(self, decision: Decision) -> str:
        process = self.process
        if process is None or process.stdin is None:
            raise _Miss("the gateway is down")
        self._next_id += 1
        ident = self._next_id
        future: asyncio.Future[fleet_wire.Answer | fleet_wire.Failed] = \
            asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        asked = time.monotonic()
        try:
            process.stdin.write(fleet_wire.ask(
                ident, decision.tier, decision.seed,
                observation_to_dict(decision.observation), decision.seconds))
            reply = await asyncio.wait_for(future, decision.seconds + self.grace)
        except TimeoutError:
            self._cancel(ident)
            raise _Miss("no answer in time") from None
        except (OSError, RuntimeError):
            raise _Miss("the gateway is down") from None
        except asyncio.CancelledError:
            self._cancel(ident)
            raise
        finally:
            self._pending.pop(ident, None)
            retried = self.starts.pop(ident, 0) > 1
        if isinstance(reply, fleet_wire.Failed):
            if reply.why == "a bad answer":  # refused and counted as it came
                raise _Miss("a bad answer")
            if reply.why.startswith("a malformed answer"):  # the gateway saw a bad answer
                self._refused(f"the gateway: {reply.why}")
                raise _Miss("a bad answer")
            raise _Miss(_short_why(reply.why))
        move = self._checked(reply, decision, time.monotonic() - asked)
        self.outcomes["fleet"] += 1
        if retried:
            self.outcomes["retried"] += 1
        self._answered[ident] = 2 if retried else 1
        if len(self._answered) > 1000:
            del self._answered[next(iter(self._answered))]
        self.thinking.add(reply.seconds)
        self.waits.add(time.monotonic() - asked - reply.seconds)
        return move

    def _checked(self, reply: fleet_wire.Answer, decision: Decision, elapsed: float) -> str:
        """The answer's move if it is legal in the observation and its time is sane; else
        the refusal is logged and counted, and the local pool answers."""
        problem = None
        try:
            move = Move.parse(reply.move)
        except ValueError:
            problem = f"{reply.move!r} is not a move"
        else:
            if move not in decision.observation.legal_moves:
                problem = f"{reply.move} is not legal here"
        if problem is None and (reply.seconds > decision.seconds + self.grace
                                or reply.seconds > elapsed + 0.05):
            problem = f"it says it thought {reply.seconds:.1f} s"
        if problem is None:
            return reply.move
        self._refused(f"worker {reply.worker!r}: {problem}")
        raise _Miss("a bad answer")

    def _refused(self, what: str) -> None:
        self.outcomes["refused"] += 1
        self.refusals = [*self.refusals[-19:], what]
        log.warning("bot fleet: refused a bad answer (%s); the local pool decides", what)

    def _cancel(self, ident: int) -> None:
        process = self.process
        if process is not None and process.stdin is not None and process.returncode is None:
            with contextlib.suppress(OSError, RuntimeError):
                process.stdin.write(fleet_wire.cancel(ident))

    # ------------------------------------------------------------------ capacity
    def capacity(self) -> int:
        """Bot decisions that can run at once: the fleet's workers and the local pool's."""
        return self.local.capacity() + (self.workers if self.connected else 0)

    def stats(self) -> dict[str, Any]:
        return {
            "cluster": self.settings.address,
            "path": "cluster" if self.connected and self.workers else "local pool",
            "since": self.since,
            "gateway": "running" if self.process is not None
            and self.process.returncode is None else "down",
            "gateway_starts": self.gateway_starts,
            "cluster_workers": self.workers if self.connected else 0,
            "in_flight": len(self._pending),
            "answered": self.outcomes["fleet"],
            "retried": self.outcomes["retried"],
            "to_local": self.outcomes["local"],
            "to_local_why": dict(self.to_local),
            "refused": self.outcomes["refused"],
            "refusals": list(self.refusals),
            "queue_wait_ms": self.waits.summary(),
            "thinking_ms": self.thinking.summary(),
            "local": self.local.stats(),
        }

    # ------------------------------------------------------------------ the gateway
    async def _supervise(self) -> None:
        """Start the gateway, read it, and start it again whenever it stops."""
        while not self.closed:
            try:
                await self._run_gateway()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("bot fleet: the gateway could not run (%s)", exc)
            self._set_presence(False, 0)
            if not self.closed:
                await asyncio.sleep(RESTART_SECONDS)

    async def _run_gateway(self) -> None:
        home, scratch, user = self._fresh_folders()
        hello = {"type": "hello", "address": self.settings.address,
                 "tls": [Path(p).read_text(encoding="ascii") for p in self.settings.tls],
                 "factory": self.factory, "user": user, "host_pid": os.getpid()}
        # -s -P: no user site and no working folder on the import path, "/" as the working
        # folder, a home and Dask config folder only root can write (the gateway starts as
        # root before it drops), and a session of its own so that nothing it starts outlives it.
        process = await asyncio.create_subprocess_exec(
            *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd="/", env=_gateway_env(home, scratch),
            limit=fleet_wire.MAX_REPLY, start_new_session=True)
        self.process = process
        self.gateway_starts += 1
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        process.stdin.write(fleet_wire.line(hello))
        said = asyncio.get_running_loop().create_task(_relay_log(process.stderr))
        lines = _LineBudget()
        try:
            wait = START_SECONDS  # the first line comes once Dask is loaded
            while True:
                try:
                    raw = await asyncio.wait_for(process.stdout.readline(), wait)
                    wait = self.silence
                except TimeoutError:
                    log.warning("bot fleet: the gateway fell silent; starting it again")
                    break
                except (ValueError, asyncio.LimitOverrunError):
                    self._refused("the gateway sent a line over the limit")
                    break
                if not raw:  # the gateway ended: its exit status is the one to tell
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(process.wait(), EXIT_SECONDS)
                    break
                if not lines.take():
                    self._refused(f"the gateway sent over {MAX_LINES_A_SECOND} lines a second")
                    break
                if not self._hear(raw) and lines.bad() > MAX_BAD_LINES:
                    log.warning("bot fleet: %d bad lines from one gateway; starting it again",
                                MAX_BAD_LINES)
                    break
                if process.stdin.transport.get_write_buffer_size() > MAX_UNREAD:
                    log.warning("bot fleet: the gateway stopped reading; starting it again")
                    break
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(Exception):  # the pipe must reach its end first
                await asyncio.wait_for(process.stdout.read(), self.silence)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), self.silence)
            said.cancel()
            self.process = None
            shutil.rmtree(home, ignore_errors=True)
            shutil.rmtree(scratch, ignore_errors=True)
            for future in self._pending.values():
                if not future.done():
                    future.set_result(fleet_wire.Failed(0, "the gateway stopped"))
            if not self.closed:
                log.warning("bot fleet: the gateway stopped (exit %s); bots decide in "
                            "the local pool until it is back", process.returncode)

    def _hear(self, raw: bytes) -> bool:
        """Act on one line from the gateway; False if it was refused."""
        try:
            reply = fleet_wire.parse_reply(raw.rstrip(b"\n"))
        except fleet_wire.BadReply as exc:
            self._refused(f"the gateway: {exc}")
            named = fleet_wire.named_decision(raw)  # the line is bounded by the reader
            if named is not None and (future := self._pending.get(named)) is not None \
                    and not future.done():  # a bad answer: the local pool decides now
                future.set_result(fleet_wire.Failed(named, "a bad answer"))
            return False
        if isinstance(reply, fleet_wire.Presence):
            self._set_presence(reply.connected, min(reply.workers, self.max_workers))
            return True
        if isinstance(reply, fleet_wire.Started):
            if reply.id in self._pending:
                self.starts[reply.id] += 1
            elif self._answered.get(reply.id) == 1:  # its restart was said after its answer
                self._answered[reply.id] = 2
                self.outcomes["retried"] += 1
            return True
        future = self._pending.get(reply.id)
        if future is not None and not future.done():
            future.set_result(reply)
        return True

    def _set_presence(self, connected: bool, workers: int) -> None:
        if (connected, workers) != (self.connected, self.workers):
            self.since = time.time()
            if connected and workers and not (self.connected and self.workers):
                log.info("bot fleet %s: %d workers; bots decide there",
                         self.settings.address, workers)
            elif not (connected and workers) and self.connected and self.workers:
                log.warning("bot fleet %s: %s; bots decide in the local pool",
                            self.settings.address,
                            "no workers" if connected else "the scheduler is gone")
        self.connected, self.workers = connected, workers
        if connected and workers:
            self.absent.clear()
            self.present.set()
        else:
            self.present.clear()
            self.absent.set()

    def _fresh_folders(self) -> tuple[str, str, list[int] | None]:
        """For one start of the gateway: a home (and Dask config folder) only the host can
        write, a scratch folder (its temporary files), and, where the host runs as root,
        the user and group ids it drops to once its code is loaded (they own the scratch
        folder). Both folders are new at every start and removed when it stops."""
        home = tempfile.mkdtemp(prefix="solstis-fleet-home-")
        scratch = tempfile.mkdtemp(prefix="solstis-fleet-tmp-")
        if os.geteuid() != 0:
            return home, scratch, None
        account = pwd.getpwnam(self.settings.user)
        os.chmod(home, 0o755)
        os.chown(scratch, account.pw_uid, account.pw_gid)
        return home, scratch, [account.pw_uid, account.pw_gid]

    # ------------------------------------------------------------------ closing
    async def close(self, timeout: float = 5.0) -> None:
        self.closed = True
        process = self.process
        if process is not None and process.stdin is not None:
            with contextlib.suppress(OSError, RuntimeError):
                process.stdin.close()
        if self._supervisor is not None:
            self._supervisor.cancel()
            await asyncio.gather(self._supervisor, return_exceptions=True)
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        await self.local.close(timeout)


class _Miss(Exception):
    """The fleet gives no usable answer: ``why``, and the local pool decides."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def _short_why(why: str) -> str:
    if why.startswith("the bot failed"):
        return "the bot failed on the fleet"
    if "not connected" in why:
        return "the scheduler cannot be reached"
    if "in time" in why:
        return "no answer in time"
    return "the fleet lost the decision"


def _gateway_env(home: str, scratch: str) -> dict[str, str]:
    """What the gateway may see of the host's environment: little."""
    keep = ("PATH", "PYTHONPATH", "LANG", "LC_ALL", "SOLSTIS_PURE")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(HOME=home, DASK_CONFIG=home, TMPDIR=scratch, DASK_TEMPORARY_DIRECTORY=scratch,
               DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION="True", PYTHONUNBUFFERED="1")
    return env


class _LineBudget:
    """How many lines a gateway may send: ``MAX_LINES_A_SECOND``, and the bad ones."""

    def __init__(self) -> None:
        self.second = int(time.monotonic())
        self.count = 0
        self.refused = 0

    def take(self) -> bool:
        now = int(time.monotonic())
        if now != self.second:
            self.second, self.count = now, 0
        self.count += 1
        return self.count <= MAX_LINES_A_SECOND

    def bad(self) -> int:
        self.refused += 1
        return self.refused


async def _relay_log(stream: asyncio.StreamReader) -> None:
    """The gateway's own log lines into the host's log, as literal, bounded text: at most
    ``MAX_LOG_LINES`` a minute (the rest are read and dropped, and that is said)."""
    minute, said, dropped = int(time.monotonic() // 60), 0, 0
    while True:
        try:
            raw = await stream.readline()
        except (ValueError, asyncio.LimitOverrunError):
            continue
        if not raw:
            return
        now = int(time.monotonic() // 60)
        if now != minute:
            if dropped:
                log.warning("bot fleet gateway: %d more lines dropped", dropped)
            minute, said, dropped = now, 0, 0
        said += 1
        if said > MAX_LOG_LINES:
            dropped += 1
            continue
        text = "".join(c if c.isprintable() else " " for c in raw.decode(errors="replace"))
        log.info("bot fleet gateway: %s", text.strip()[:300])


__all__ = ["EXTRA", "FleetPool", "FleetProblem", "FleetSettings",
           "fleet_settings"]

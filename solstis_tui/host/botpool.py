"""Bot decisions for the host, made in a bounded pool of worker processes.

The workers are the program's one kind (``ai/workers.py``): each dies with the host,
``kill -9`` included, and runs below the host's priority.

The event loop never runs a bot. It sends a worker only the bot's tier, a seed, the seat's
observation (never the game) and the thinking time, and gets back the move's text.
Decisions wait in one first-in-first-out queue per table and the tables take turns (round
robin), so a table where bots play each other cannot starve the rest. A worker that dies or
overruns its time is replaced; its decision fails with ``WorkerLost``. Each decision's
queue wait and thinking time are kept (``Recent``) for the host's status.

``answer`` is what a worker does with a decision; a worker of the bot fleet does the same
(``fleet_node``), so a bot learns the same wherever it runs.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from solstis_tui.ai import workers as processes
from solstis_tui.ai.arena_stats import percentile
from solstis_tui.ai.base import Bot
from solstis_tui.ai.clock import Cancelled
from solstis_tui.ai.registry import make_solo_bot

from ..core.observation import Observation

#: Makes a bot from a tier and a seed, in a worker process (a module-level function: it
#: is sent to the workers by reference).
BotFactory = Callable[[str, int], Bot]

#: The shortest thinking time a decision that waited is given, and the seconds kept for the
#: way to the worker and back when its time is cut to meet its deadline.
LEAST_THINKING = 0.1
DISPATCH_MARGIN = 0.3
#: No bot decision should wait much longer than its thinking time plus this: one that waits
#: in a queue, or that the fleet could not answer, thinks for what is left.
DEADLINE_SECONDS = 5.0

WORKER_NICE = 5
"""Workers run at a lower priority than the host, so bots yield the CPU to people."""
REAP_POLL = 0.02
"""Seconds between looks at a hung-up worker, until it has ended and is reaped."""


def default_workers() -> int:
    """One worker per core the host may use, less one for the event loop; at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


@dataclass(frozen=True)
class Decision:
    """Everything a worker learns for one decision."""

    tier: str
    seed: int
    observation: Observation
    seconds: float


class WorkerLost(Exception):
    """The worker making a decision died, overran or was shut down: no answer."""


class BotFailed(Exception):
    """The bot raised an error while choosing (its worker is fine)."""


Answer = tuple[str | None, str | None, float, int]
"""A worker's answer: the move's text, or None and the error in words; the seconds the bot
thought, and its search's iterations (0 for a bot that does not count them)."""


def answer(factory: BotFactory, decision: Decision) -> Answer:
    """Make the decision's bot and let it choose (in a worker, never in the host's loop)."""
    from solstis_tui.ai.base import Budget

    start = time.perf_counter()
    try:
        bot = factory(decision.tier, decision.seed)
        move = bot.choose(decision.observation, Budget(seconds=decision.seconds))
        iterations = getattr(bot, "last_iterations", 0)
        return (str(move), None, time.perf_counter() - start,
                iterations if isinstance(iterations, int) else 0)
    except Exception as exc:  # the host plays on; it needs the reason, not the trace
        return None, f"{type(exc).__name__}: {exc}"[:200], time.perf_counter() - start, 0


def move_of(reply: Answer) -> str:
    """The answer's move text; BotFailed with the bot's error if it has none."""
    move, error, _seconds, _iterations = reply
    if move is None:
        raise BotFailed(error or "the bot gave no move")
    return move


class Recent:
    """The last ``size`` values of one figure (seconds), for its median and 95th
    percentile."""

    def __init__(self, size: int = 1000) -> None:
        self.values: deque[float] = deque(maxlen=size)

    def add(self, seconds: float) -> None:
        self.values.append(max(0.0, seconds))

    def summary(self) -> dict[str, float | int]:
        """``count`` and, in milliseconds, ``p50`` and ``p95`` (0 with no values)."""
        ranked = sorted(self.values)
        return {"count": len(ranked), "p50": round(percentile(ranked, 50) * 1000, 1),
                "p95": round(percentile(ranked, 95) * 1000, 1)}


class Bots(Protocol):
    """Where the host's bot seats get their decisions: the local pool, or a cluster."""

    def start(self) -> None: ...

    def capacity(self) -> int: ...

    async def decide(self, key: str, decision: Decision,
                     deadline: float | None = None) -> str: ...

    def stats(self) -> dict[str, Any]: ...

    async def close(self, timeout: float = 5.0) -> None: ...


@dataclass
class _Job:
    decision: Decision
    future: asyncio.Future[str]
    deadline: float | None = None
    asked: float = field(default_factory=time.monotonic)


class _Worker:
    def __init__(self, worker: processes.Worker) -> None:
        self.worker = worker
        self.fd = worker.fileno()
        self.pid = worker.pid
        self.job: _Job | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.overdue = False


class BotPool:
    """At most ``workers`` processes (started when first needed) answer ``decide``."""

    def __init__(self, workers: int | None = None,
                 factory: BotFactory = make_solo_bot, *,
                 grace: float = 30.0) -> None:
        self.size = default_workers() if workers is None else workers
        if self.size < 1:
            raise ValueError("the host needs at least one bot worker")
        self.factory = factory
        self.grace = grace
        """Seconds past its thinking time before a silent worker is killed."""
        self.queues: dict[str, deque[_Job]] = {}  # insertion order is the round robin
        self.workers: list[_Worker] = []
        self.served: Counter[int] = Counter()
        """Decisions answered, by worker process id."""
        self.lost = 0
        self.waits = Recent()
        """Seconds each decision waited for a worker."""
        self.thinking = Recent()
        """Seconds each bot thought."""
        self.closed = False
        self._reaping: dict[processes.Worker, asyncio.Task[None]] = {}

    def start(self) -> None:
        """Nothing to do yet: workers start when the first decisions come."""

    def capacity(self) -> int:
        """Bot decisions that can run at once."""
        return self.size

    def idle(self) -> bool:
        """Whether a new decision would start at once (no queue, a worker free or to start)."""
        busy = sum(w.job is not None for w in self.workers)
        return not any(self.queues.values()) and busy < self.size

    # ------------------------------------------------------------------ asking
    async def decide(self, key: str, decision: Decision,
                     deadline: float | None = None) -> str:
        """The move text a worker chose for ``decision``, queued behind table ``key``'s
        earlier ones; a decision that waited thinks only for what is left before
        ``deadline`` (``time.monotonic()``), at least ``LEAST_THINKING``. Raises
        ``WorkerLost`` or ``BotFailed`` when there is no answer."""
        if self.closed:
            raise WorkerLost("the bot workers are shut down")
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.queues.setdefault(key, deque()).append(_Job(decision, future, deadline))
        self._pump()
        return await future

    def stats(self) -> dict[str, Any]:
        """Workers alive, decisions waiting and running, answers by process id, workers lost."""
        return {
            "workers": [w.pid for w in self.workers],
            "running": sum(w.job is not None for w in self.workers),
            "queued": sum(len(q) for q in self.queues.values()),
            "served": dict(self.served),
            "lost": self.lost,
            "queue_wait_ms": self.waits.summary(),
            "thinking_ms": self.thinking.summary(),
        }

    # ------------------------------------------------------------------ dispatch
    def _next_job(self) -> _Job | None:
        """The oldest live decision of the table whose turn it is; that table goes last."""
        while self.queues:
            key = next(iter(self.queues))
            queue = self.queues.pop(key)
            job = queue.popleft()
            if queue:
                self.queues[key] = queue
            if not job.future.done():  # a caller that gave up is skipped
                return job
        return None

    def _pump(self) -> None:
        while not self.closed:
            idle = next((w for w in self.workers if w.job is None), None)
            if idle is None and len(self.workers) >= self.size:
                return
            job = self._next_job()
            if job is None:
                return
            if idle is None:
                try:
                    idle = self._spawn()
                except OSError as exc:
                    job.future.set_exception(WorkerLost(f"cannot start a bot worker: {exc}"))
                    continue
            self._start(idle, job)

    def _spawn(self) -> _Worker:
        process = processes.Worker("solstis-bot", nice=WORKER_NICE)
        try:
            process.start()
        except processes.WorkerLost as exc:
            raise OSError(str(exc)) from None
        worker = _Worker(process)
        asyncio.get_running_loop().add_reader(worker.fd, self._on_reply, worker)
        self.workers.append(worker)
        return worker

    def _start(self, worker: _Worker, job: _Job) -> None:
        worker.job = job
        now = time.monotonic()
        self.waits.add(now - job.asked)
        decision = job.decision
        if job.deadline is not None:  # it waited: it thinks for what is left
            left = job.deadline - now - DISPATCH_MARGIN
            seconds = max(LEAST_THINKING, min(decision.seconds, left))
            if seconds < decision.seconds:
                decision = job.decision = Decision(decision.tier, decision.seed,
                                                   decision.observation, seconds)
        try:
            worker.worker.send(answer, self.factory, decision)
        except processes.WorkerLost:
            self._lose(worker)
            return
        worker.timer = asyncio.get_running_loop().call_later(
            job.decision.seconds + self.grace, self._overrun, worker)

    def _on_reply(self, worker: _Worker) -> None:
        try:
            outcome = worker.worker.answer(0)
            if outcome is None:
                return  # nothing awaited there yet
            reply: Answer = outcome.get()
        except (processes.WorkerLost, processes.JobFailed, Cancelled):
            self._lose(worker)
            return
        if worker.timer:
            worker.timer.cancel()
        job, worker.job = worker.job, None
        if worker.pid is not None:
            self.served[worker.pid] += 1
        self.thinking.add(reply[2])
        if job is not None and not job.future.done():
            try:
                job.future.set_result(move_of(reply))
            except BotFailed as exc:
                job.future.set_exception(exc)
        self._pump()

    def _overrun(self, worker: _Worker) -> None:
        worker.overdue = True
        worker.worker.kill()  # its pipe then reads end-of-file: _lose follows

    def _lose(self, worker: _Worker) -> None:
        """Forget a dead or stuck worker, fail its decision, reap it; others carry on."""
        self._drop(worker)
        self.lost += 1
        job = worker.job
        if job is not None and not job.future.done():
            why = "overran its time" if worker.overdue else "stopped"
            job.future.set_exception(WorkerLost(f"the bot worker {why}"))
        asyncio.get_running_loop().call_soon(self._pump)

    def _drop(self, worker: _Worker) -> None:
        """Stop listening to ``worker``, hang up on it (a busy one is killed) and reap it."""
        asyncio.get_running_loop().remove_reader(worker.fd)
        if worker.timer:
            worker.timer.cancel()
        self.workers.remove(worker)
        worker.worker.stop()
        self._reaping[worker.worker] = asyncio.get_running_loop().create_task(
            self._reap(worker.worker))

    async def _reap(self, worker: processes.Worker) -> None:
        """Join ``worker`` as soon as it has ended (no zombies), without blocking the loop:
        a hung-up worker ends within moments (a busy one is killed)."""
        try:
            while not worker.join(0):
                await asyncio.sleep(REAP_POLL)
        finally:
            self._reaping.pop(worker, None)

    # ------------------------------------------------------------------ closing
    async def close(self, timeout: float = 5.0) -> None:
        """Fail every waiting decision, stop every worker and wait until they are gone."""
        self.closed = True
        for queue in self.queues.values():
            for job in queue:
                if not job.future.done():
                    job.future.set_exception(WorkerLost("the host is closing"))
        self.queues.clear()
        for worker in list(self.workers):
            if worker.job is not None and not worker.job.future.done():
                worker.job.future.set_exception(WorkerLost("the host is closing"))
            self._drop(worker)  # hung up: an idle worker ends, a busy one is killed
        if not self._reaping:
            return
        _, late = await asyncio.wait(list(self._reaping.values()), timeout=timeout)
        if late:
            for process in list(self._reaping):
                process.kill()
            await asyncio.wait(list(self._reaping.values()), timeout=timeout)

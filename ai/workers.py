"""Worker processes that end with the process that started them: the program's one way to
put work on other cores (the expert's shares, the judge's verdicts, the arena's games,
the app's bot).

A ``Worker`` is one process and the pipe to it. It runs jobs one at a time, in the order
sent: a job is a module-level function and its arguments (pickled; the function goes by
reference), and its answer (an ``Outcome``) is the function's result, its error in words
(``JobFailed``), or ``Cancelled``. ``cancel`` sets a mark in memory the two processes share;
a job reads it through ``cancel_signal()`` (a search's cancel event). A job sent while an
earlier one runs waits behind it, and the earlier one's answer is dropped. ``ask`` sends a
job and waits for its answer, passing on a caller's cancel and killing a worker that
overruns. A dead worker (killed, crashed, overran) raises ``WorkerLost``; ``start`` starts
a new process in the same ``Worker``. ``WorkerPool`` hands a list of jobs to a few workers.

An event loop drives a worker without blocking: ``send``, a reader on ``fileno()``, then
``answer(0)``; ``kill`` for an overrun; ``stop``, then a reader on ``sentinel`` and
``join()`` to reap it (it has ended, or ends in a moment).

Lifetime: a worker dies with its parent however the parent ends, ``kill -9`` included.
Its very first statement, before it imports anything of ours, asks the kernel to kill it
when the parent goes (``lifeline``), then checks the parent is still there; a thread in it
also watches a pipe only the parent holds. ``stop``/``close`` hang up and kill a busy
worker; a Worker nobody holds any more is closed, and so is every worker when the parent
exits normally. Workers ignore Ctrl-C (SIGINT): the parent decides when they stop.

Like multiprocessing's spawn start method, a worker is a fresh interpreter (never a fork
of a threaded parent) given the parent's ``sys.path`` and main module (``spawn.prepare``),
so a job may be a function of the parent's script. Unlike it, it starts no resource
tracker (a process that outlived the workers it served), and nothing here makes a
semaphore, lock or queue: the cancel mark is one shared page of memory.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import spawn, util
from multiprocessing.connection import Connection, wait
from typing import Any, Final

from .clock import Cancelled
from .lifeline import on_lasting_thread
from .worker_process import BOOT, Mark, cancel_signal, in_worker

__all__ = ["GRACE", "POLL", "Job", "JobFailed", "Outcome", "Worker", "WorkerLost",
           "WorkerPool", "cancel_signal", "in_worker", "wait_for_answers"]

#: How often ``ask`` looks at its caller's cancel and clock, in seconds.
POLL: Final = 0.01
#: Seconds ``close`` waits for a worker to end before it kills it.
GRACE: Final = 1.0

Job = Callable[..., Any]
"""A job: a module-level function (sent by reference), called with the job's arguments."""

class WorkerLost(Exception):
    """The worker died, overran its time, was shut down, or could not start: no answer."""


class JobFailed(Exception):
    """The job raised in the worker; the message is its error's, as it said it (or the
    error's type name where it said nothing). ``kind`` is the type's name."""

    def __init__(self, message: str, kind: str = "Exception") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Outcome:
    """A job's answer: ``status`` "ok" (``value`` is the result), "error" (``value`` is
    (the error's type name, its words)) or "cancelled"."""

    status: str
    value: Any

    def get(self) -> Any:
        """The result; JobFailed or Cancelled for the others."""
        if self.status == "ok":
            return self.value
        if self.status == "cancelled":
            raise Cancelled
        kind, words = self.value
        raise JobFailed(words, kind)


_ending: list[_Incarnation] = []
"""Workers stopped but maybe not yet ended: reaped at the next start, and at exit."""
_ending_lock = threading.Lock()


def _reap_ended() -> None:
    with _ending_lock:
        _ending[:] = [now for now in _ending if not now.join(0)]


def _end_later(now: _Incarnation) -> None:
    """Reap ``now`` once it has ended (it is told to end)."""
    if not now.join(0):
        with _ending_lock:
            if now not in _ending:
                _ending.append(now)


def _end_all() -> None:
    """At exit: wait for the stopped workers to end (killing the slow)."""
    with _ending_lock:
        ending = list(_ending)
        _ending.clear()
    for now in ending:
        now.close()


util.Finalize(None, _end_all, exitpriority=5)


class _Incarnation:
    """One worker process, its pipes and its cancel mark; what closing it needs."""

    def __init__(self, popen: subprocess.Popen[bytes], conn: Connection, lifeline: int,
                 sentinel: int, mark: Mark) -> None:
        self.popen, self.conn, self.mark = popen, conn, mark
        self.lifeline = lifeline
        """The parent's end of the pipe the worker watches: closing it ends the worker."""
        self.sentinel = sentinel
        """Reads end-of-file once the worker has ended."""
        self.pending: int | None = None
        """The job whose answer is awaited (None: idle)."""
        self.last = 0
        """The number of the last job sent."""

    def stop(self) -> None:
        """Hang up (the worker ends, busy or not), without waiting."""
        if self.pending is not None:
            self.kill()
            self.pending = None
        for close in (self.conn.close, lambda: os.close(self.lifeline)):
            with contextlib.suppress(OSError):
                close()
        self.lifeline = -1

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.popen.kill()

    def join(self, timeout: float | None) -> bool:
        """Wait up to ``timeout`` seconds for the process to end; True once it has (and
        it is reaped)."""
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        if self.sentinel >= 0:
            with contextlib.suppress(OSError):
                os.close(self.sentinel)
            self.sentinel = -1
        return True

    def close(self, timeout: float = GRACE) -> None:
        self.stop()
        if not self.join(timeout):
            self.kill()
            self.join(timeout)


def _launch(name: str, nice: int, initializer: Callable[..., None] | None,
            initargs: tuple[Any, ...]) -> _Incarnation:
    """Start a worker process (from a thread that lives as long as this process)."""
    preparation = spawn.get_preparation_data(name)  # RuntimeError inside a worker's start
    preparation["authkey"] = bytes(preparation["authkey"])  # pickles only as bytes
    ours, theirs = socket.socketpair()
    watched, lifeline = os.pipe()
    sentinel, ended = os.pipe()
    mark = Mark()
    boot = BOOT.format(parent=os.getpid(), path=sys.path, conn=theirs.fileno(),
                       watch=watched, mark=mark.fd, ended=ended)
    flags: list[str] = getattr(subprocess, "_args_from_interpreter_flags", list)()  # as spawn
    command = [spawn.get_executable(), *flags, "-c", boot]
    try:
        popen = on_lasting_thread(lambda: subprocess.Popen(
            command, stdin=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(), watched, ended, mark.fd)))
    except BaseException:
        for fd in (lifeline, sentinel):
            os.close(fd)
        ours.close()
        raise
    finally:
        theirs.close()  # so the worker's end reads as end-of-file here
        for fd in (watched, ended):
            os.close(fd)
        mark.forget_fd()
    conn = Connection(ours.detach())
    now = _Incarnation(popen, conn, lifeline, sentinel, mark)
    try:
        conn.send(preparation)
        conn.send((nice, initializer, initargs))
    except BaseException:
        now.close()
        raise
    return now


class Worker:
    """One worker process (started by ``start``) that runs jobs sent to it.

    ``nice``: how much lower its priority is than the parent's; ``initializer(*initargs)``
    runs in the process before its first job. ``name`` names the process.
    """

    def __init__(self, name: str = "solstis-worker", *, nice: int = 0,
                 initializer: Callable[..., None] | None = None,
                 initargs: tuple[Any, ...] = ()) -> None:
        self.name, self.nice = name, nice
        self.initializer, self.initargs = initializer, initargs
        self._now: _Incarnation | None = None
        self._finalizer: util.Finalize | None = None

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        """Start the process (a new one if the last died or was stopped). WorkerLost if
        none can start here (a process limit, a sandbox)."""
        self.stop()
        _reap_ended()
        try:
            now = _launch(self.name, self.nice, self.initializer, self.initargs)
        except (OSError, RuntimeError, ValueError, subprocess.SubprocessError) as exc:
            raise WorkerLost(f"cannot start a worker process: {exc}") from None
        self._now = now
        # Closed when nobody holds this Worker any more, and at this process's normal
        # exit (before multiprocessing waits for its own children there).
        self._finalizer = util.Finalize(self, now.close, exitpriority=10)

    def ensure_started(self) -> None:
        """``start`` unless the process runs."""
        if not self.alive:
            self.start()

    @property
    def alive(self) -> bool:
        """The process was started, is not stopped, and has not ended."""
        now = self._now
        return now is not None and not now.conn.closed and now.popen.poll() is None

    @property
    def busy(self) -> bool:
        """A job's answer is awaited."""
        now = self._now
        return now is not None and now.pending is not None and not now.conn.closed

    @property
    def pid(self) -> int | None:
        return self._now.popen.pid if self._now is not None else None

    def fileno(self) -> int:
        """The pipe's descriptor: readable when an answer (or the worker's end) is there."""
        return self._incarnation().conn.fileno()

    @property
    def sentinel(self) -> int:
        """A descriptor readable once the process ends (its last moments may still be to
        come: ``join()``, not ``join(0)``, then reaps it)."""
        if self._now is None or self._now.sentinel < 0:
            raise WorkerLost("the worker process is not running")
        return self._now.sentinel

    # ------------------------------------------------------------------ jobs
    def send(self, fn: Job, *args: Any) -> int:
        """Send a job; its number. The answer of any earlier job still running will be
        dropped. WorkerLost if the worker is not running."""
        now = self._incarnation()
        job = now.last + 1
        try:
            now.conn.send((job, fn, args))
        except (OSError, ValueError) as exc:  # a closed pipe, a worker gone
            self._lost()
            raise WorkerLost(f"the worker process stopped: {exc}") from None
        now.last = now.pending = job
        return job

    def cancel(self) -> None:
        """Cancel every job sent so far: each stops at its next look at ``cancel_signal``
        and answers Cancelled (or its result, if it did not look)."""
        now = self._now
        if now is not None:
            now.mark.value = now.last

    def answer(self, timeout: float | None = 0.0) -> Outcome | None:
        """The awaited job's answer, waiting up to ``timeout`` seconds (None: as long as it
        takes); None if it is not there yet, or no job awaits one. Answers of dropped jobs
        are skipped. WorkerLost if the worker died (the ``Worker`` can ``start`` again)."""
        now = self._incarnation()
        if now.pending is None:
            timeout = 0.0  # nothing to wait for: only read what is there
        until = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if until is None else max(0.0, until - time.monotonic())
            try:
                if not now.conn.poll(left):
                    return None
                job, status, value = now.conn.recv()
            except (EOFError, OSError) as exc:
                why = "was stopped" if now.conn.closed else "stopped"
                self._lost()
                raise WorkerLost(f"the worker process {why}") from exc
            if job == now.pending:
                now.pending = None
                return Outcome(status, value)
            # else: the answer of a dropped job (with none awaited: a reader on an idle
            # worker's pipe reads it, or the worker's end)

    def ask(self, fn: Job, *args: Any, cancel: Any = None,
            timeout: float | None = None) -> Any:
        """Run a job and return its result (starting the worker if need be). ``cancel``
        (anything with ``is_set()``) is passed on within ``POLL`` seconds; after
        ``timeout`` seconds the worker is killed (WorkerLost: it overran). JobFailed,
        Cancelled or WorkerLost as ``answer`` and ``Outcome.get`` say."""
        self.ensure_started()
        self.send(fn, *args)
        until = None if timeout is None else time.monotonic() + timeout
        passed_on = False
        while True:
            found = self.answer(POLL)
            if found is not None:
                return found.get()
            if cancel is not None and not passed_on and cancel.is_set():
                self.cancel()
                passed_on = True
            if until is not None and time.monotonic() >= until:
                self.kill()
                self.join(GRACE)  # killed: it is gone in a moment
                self._lost()
                raise WorkerLost("the worker process overran its time")

    # ------------------------------------------------------------------ ending
    def kill(self) -> None:
        """Kill the process now (without waiting for it); the pipe then reads end-of-file."""
        if self._now is not None:
            self._now.kill()

    def stop(self) -> None:
        """Hang up without waiting: the worker ends, busy or not (a busy one is killed).
        The process is reaped by ``join``, by a later ``start``, or at exit."""
        if self._finalizer is not None:
            self._finalizer.cancel()
            self._finalizer = None
        now = self._now
        if now is not None:
            now.stop()
            _end_later(now)

    def join(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds for the process to end and reap it; True once
        it has ended (or never started)."""
        return self._now is None or self._now.join(timeout)

    def close(self, timeout: float = GRACE) -> None:
        """Stop the process and wait for it to end (killing it after ``timeout``)."""
        self.stop()
        if self._now is not None:
            now, self._now = self._now, None
            if not now.join(timeout):
                now.kill()
                now.join(timeout)

    def _incarnation(self) -> _Incarnation:
        if self._now is None or self._now.conn.closed:
            raise WorkerLost("the worker process is not running")
        return self._now

    def _lost(self) -> None:
        """The process died or must: make sure it has, and let it be reaped."""
        if self._now is not None:
            self._now.kill()
            self.stop()


def wait_for_answers(workers: Sequence[Worker], timeout: float | None) -> list[Worker]:
    """The busy ``workers`` with something to read (an answer or their end), waiting up
    to ``timeout`` seconds for one."""
    busy = {w._incarnation().conn: w for w in workers if w.busy}
    if not busy:
        return []
    return [busy[conn] for conn in wait(list(busy), timeout)]  # type: ignore[index]


class WorkerPool:
    """Up to ``size`` workers (started when first needed) for a list of jobs; the
    arguments of ``Worker``. Use it as a context manager, or ``close`` it."""

    def __init__(self, size: int, name: str = "solstis-worker", *, nice: int = 0,
                 initializer: Callable[..., None] | None = None,
                 initargs: tuple[Any, ...] = ()) -> None:
        if size < 1:
            raise ValueError("a pool needs at least one worker")
        self.size, self.name, self.nice = size, name, nice
        self.initializer, self.initargs = initializer, initargs
        self.workers: list[Worker] = []

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def imap(self, fn: Job, items: Iterable[Any], *, ordered: bool = True) -> Iterator[Any]:
        """``fn(item)`` for every item, computed by the workers, in the items' order (or as
        they come with ``ordered`` False). JobFailed or WorkerLost as soon as a job
        fails; a worker still busy when the iteration ends early is killed."""
        todo = iter(enumerate(items))
        running: dict[Worker, int] = {}
        kept: dict[int, Any] = {}
        next_out = 0
        try:
            more = True
            while True:
                while more and len(running) < self.size:
                    entry = next(todo, None)
                    if entry is None:
                        more = False
                        break
                    worker = self._idle(running)
                    worker.send(fn, entry[1])
                    running[worker] = entry[0]
                if not running:
                    return
                for worker in wait_for_answers(list(running), None):
                    found = worker.answer(0)
                    if found is None:
                        continue
                    index = running.pop(worker)
                    value = found.get()
                    if not ordered:
                        yield value
                        continue
                    kept[index] = value
                    while next_out in kept:
                        yield kept.pop(next_out)
                        next_out += 1
        finally:
            for worker in running:
                worker.kill()
                worker.stop()

    def _idle(self, running: dict[Worker, int]) -> Worker:
        for worker in self.workers:
            if worker not in running:
                worker.ensure_started()  # one that died is replaced
                return worker
        worker = Worker(self.name, nice=self.nice, initializer=self.initializer,
                        initargs=self.initargs)
        worker.start()
        self.workers.append(worker)
        return worker

    def kill(self) -> None:
        """Kill every worker now."""
        for worker in self.workers:
            worker.kill()
        self.close()

    def close(self, timeout: float = GRACE) -> None:
        """Stop every worker (a busy one is killed) and wait until they are gone."""
        for worker in self.workers:
            worker.stop()
        for worker in self.workers:
            worker.close(timeout)
        self.workers.clear()

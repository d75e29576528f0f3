"""Expert: MCTS with a bigger budget, searching on every core the process may use.

The search is root-parallel: each worker process runs its own ISMCTS from the same
observation with its own seed, until the same moment, and the root statistics are added
up; the calling process runs one share itself. Each process goes on from the tree of its
own share of the last decision where the game has reached it, as mcts does through a
turn. When its share ends (budget spent or cancel set) the calling process waits at most
``GRACE`` seconds (4% of a short budget) for the workers' shares, then tells every worker
still searching to stop (a shared counter moves on, which each worker checks once per
iteration) and merges the shares that came back. So a decision takes its budget plus a few
milliseconds, a cancel returns at once, and no worker is still busy with an old decision
when the next one starts. The worker processes start with the first decision
(which therefore searches mostly on the calling process) and stop with ``close``.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import sys
import threading
import time
import weakref
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.sharedctypes import Synchronized
from typing import Any

from solstis_tui.core import Move, Observation

from .base import Budget, Stopwatch
from .lifeline import die_with_parent
from .mcts import MCTSBot, Settings, mcts_search
from .search import Estimate, Kept, Search, continue_from

Stats = list[tuple[Move, int, float, float]]

#: Seconds the calling process waits for the workers' shares after its own has ended (at
#: most 4% of the budget). They end when it does; the wait covers sending the results.
GRACE = 0.03
#: ... and at most this part of the budget.
GRACE_PART = 0.04
#: Seconds at most (a quarter of a short budget) the calling process waits, before its own
#: share, for every worker to have picked up its share (see ``ExpertBot._hand_out``). It
#: takes a millisecond or two; the calling process's share ends when the workers' do.
HAND_OUT = 0.25
#: ... and at most this part of the budget.
HAND_OUT_PART = 0.25


def usable_cores() -> int:
    """The cores this process may run on (at least one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class _Superseded:
    """A worker's cancel: set once the shared decision counter has moved past its own."""

    __slots__ = ("counter", "mine")

    def __init__(self, counter: Any, mine: int) -> None:
        self.counter, self.mine = counter, mine

    def is_set(self) -> bool:
        return bool(self.counter.value != self.mine)


_COUNTER: Any = None
"""In a worker process: the pool's shared decision counter (set by ``_start_worker``)."""

_STARTED: Any = None
"""In a worker process: the pool's count of shares picked up (set by ``_start_worker``)."""

_KEPT: Kept | None = None
"""In a worker process: the tree of its last share, for the next decision of the turn."""


def _start_worker(counter: Any, started: Any, kernel: bool) -> None:
    """A pool worker's start: it dies with the process that searches (see lifeline;
    ``kernel``: that process starts its workers from its main thread)."""
    global _COUNTER, _STARTED
    die_with_parent(kernel)
    _COUNTER, _STARTED = counter, started


def _run_share(
    obs: Observation, seed: int, budget: Budget, settings: Settings, decision: int,
    ends_at: float | None = None, reuse: bool = True,
) -> Stats:
    """One worker's search: (move, visits, reward sum, margin sum) per root move.

    ``ends_at`` (``time.time()``, which processes share) ends a timed share when the
    calling process's own share ends, however late this worker picked it up. With
    ``reuse`` the worker goes on from the tree of its last share where ``obs`` has reached
    it, as the calling process does, and keeps this share's tree for the next decision."""
    global _KEPT
    with _STARTED.get_lock():
        _STARTED.value += 1
    if ends_at is not None and budget.seconds is not None:
        budget = Budget(seconds=max(0.0, ends_at - time.time()), iterations=budget.iterations)
    cancel = _Superseded(_COUNTER, decision)
    clock = Stopwatch(budget, budget, cancel)
    search = mcts_search(obs, random.Random(seed), settings,
                         root=continue_from(_KEPT, obs) if reuse else None)
    search.run(clock)
    _KEPT = (obs.player, obs.history, search.root) if reuse else None
    return _stats(search)


def _stats(search: Search) -> Stats:
    return [(e.move, e.visits, e.win_rate * e.visits, e.margin * e.visits)
            for e in search.estimates()]


def _merge(shares: list[Stats]) -> list[Estimate]:
    totals: dict[Move, list[float]] = {}
    for share in shares:
        for mv, n, w, m in share:
            t = totals.setdefault(mv, [0, 0.0, 0.0])
            t[0] += n
            t[1] += w
            t[2] += m
    out = [
        Estimate(mv, int(n), w / n if n else 0.5, m / n if n else 0.0)
        for mv, (n, w, m) in totals.items()
    ]
    out.sort(key=lambda e: (-e.visits, -e.win_rate))
    return out


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with the real stderr.

    The tracker hands its child ``sys.stderr``'s descriptor; inside a Textual app that is
    a capture object whose ``fileno()`` is not a descriptor, and starting the first worker
    fails with "bad value(s) in fds_to_keep". Starting the tracker here, with the process's
    own stderr, avoids that.
    """
    from multiprocessing import resource_tracker

    real = sys.__stderr__
    swap = real is not None and sys.stderr is not real
    saved = sys.stderr
    try:
        if swap:
            sys.stderr = real
        resource_tracker.ensure_running()
    finally:
        sys.stderr = saved


def _shut_down(pool: ProcessPoolExecutor, counter: Any) -> None:
    """Tell running shares to stop, and the pool's processes to end."""
    counter.value += 1
    pool.shutdown(wait=False, cancel_futures=True)


class ExpertBot(MCTSBot):
    """ISMCTS with four times mcts's default budget, root-parallel over ``workers``
    processes (default: every usable core)."""

    name = "expert"
    description = "the longest search, on every core: hardest"
    default_budget = Budget(seconds=2.0)

    def __init__(self, seed: int | None = None, workers: int | None = None,
                 reuse: bool = True, settings: Settings | None = None) -> None:
        super().__init__(seed, reuse=reuse, settings=settings)
        self.workers = usable_cores() if workers is None else max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._counter: Synchronized[int] | None = None
        self._started: Synchronized[int] | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            start_resource_tracker()
            context = multiprocessing.get_context("spawn")
            self._counter = context.Value("q", 0, lock=False)
            self._started = context.Value("q", 0)
            self._pool = ProcessPoolExecutor(self.workers - 1, mp_context=context,
                                             initializer=_start_worker,
                                             initargs=(self._counter, self._started,
                                                       threading.current_thread()
                                                       is threading.main_thread()))
            # The workers stop with ``close``, or when the bot is dropped, or at exit:
            # a bot nobody holds any more leaves no idle processes behind.
            self._finalizer = weakref.finalize(self, _shut_down, self._pool, self._counter)
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (they start again if needed)."""
        if self._pool is not None:
            self._finalizer()
            self._pool = None

    def _hand_out(self, shares: int, budget: Budget) -> None:
        """Wait (at most ``HAND_OUT`` seconds, or a quarter of a short budget) until the workers
        have picked up their ``shares``. The compiled search holds the interpreter lock
        for its whole share, and the pool's threads need it to send the workers theirs:
        sent after this process's share, a share found its time already spent, and the
        expert searched on one core (docs/bots.md)."""
        assert self._started is not None
        bound = HAND_OUT if budget.seconds is None else \
            min(HAND_OUT, HAND_OUT_PART * budget.seconds)
        until = time.perf_counter() + bound
        while self._started.value < shares and time.perf_counter() < until:
            time.sleep(0.0005)  # lets the pool's threads run

    def _stop_workers(self) -> None:
        if self._counter is not None:
            self._counter.value += 1

    def analyse(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> list[Estimate]:
        if self.workers == 1:
            return super().analyse(obs, budget, cancel)
        if budget is None or (budget.seconds is None and budget.iterations is None):
            budget = self.default_budget
        seeds = [self.rand.getrandbits(63) for _ in range(self.workers)]
        try:
            pool = self.pool()
            assert self._counter is not None and self._started is not None
            self._counter.value += 1
            decision = self._counter.value
            with self._started.get_lock():
                self._started.value = 0
            ends_at = time.time() + budget.seconds if budget.seconds is not None else None
            futures: list[Future[Stats]] = [
                pool.submit(_run_share, obs, seed, budget, self.settings, decision, ends_at,
                            self.reuse)
                for seed in seeds[1:]
            ]
        except (BrokenProcessPool, OSError, RuntimeError, ValueError):
            # No worker processes here (a script without a main guard, a process limit):
            # search on this process alone from now on.
            self.close()
            self.workers = 1
            return super().analyse(obs, budget, cancel)
        self._hand_out(len(futures), budget)
        mine = budget if ends_at is None else \
            Budget(seconds=max(0.0, ends_at - time.time()), iterations=budget.iterations)
        clock = Stopwatch(mine, mine, cancel)  # a timed share ends with the workers'
        local = mcts_search(obs, random.Random(seeds[0]), self.settings,
                            root=self.subtree(obs))
        local.run(clock)
        if self.reuse:  # the calling process keeps its tree for the rest of the turn
            self._kept = (obs.player, obs.history, local.root)
        pending = set(futures)
        # A timed share ends with the clock: wait a moment for the workers' (they began a
        # little later). An iteration budget has no clock: wait for all, unless cancelled.
        grace = min(GRACE, GRACE_PART * budget.seconds) if budget.seconds is not None \
            else None
        until = time.perf_counter() + grace if grace is not None else None
        while pending and not clock.cancelled:
            left = 0.01 if until is None else min(0.01, until - time.perf_counter())
            if left <= 0:
                break
            _, pending = wait(pending, timeout=left, return_when=FIRST_COMPLETED)
        self._stop_workers()
        shares = [_stats(local)] + [f.result() for f in futures
                                    if f.done() and not f.cancelled() and not f.exception()]
        for f in pending:
            f.cancel()
        self.last_iterations = sum(n for share in shares for _, n, _, _ in share)
        return _merge(shares)

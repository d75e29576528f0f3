"""Expert: MCTS with a bigger budget, searching on every core the process may use.

The search is root-parallel: each worker process runs its own ISMCTS from the same
observation with its own seed, until the same moment, and the root statistics are added
up; the calling process runs one share itself. Each process goes on from the tree of its
own share of the last decision where the game has reached it, as mcts does through a
turn. When its share ends (budget spent or cancel set) the calling process waits at most
``GRACE`` seconds (4% of a short budget) for the workers' shares, then cancels every share
still searching (each worker looks once per iteration) and merges the shares that came
back. So a decision takes its budget plus a few milliseconds, a cancel returns at once,
and no worker is still busy with an old decision when the next one starts. The worker
processes (``workers.Worker``: they die with the calling process) start with the first
decision (which therefore searches mostly on the calling process) and stop with
``close``.
"""

from __future__ import annotations

import os
import random
import threading
import time

from solstis_tui.core import Move, Observation

from .base import Budget, Stopwatch
from .mcts import MCTSBot, Settings, mcts_search
from .search import Estimate, Kept, Search, continue_from
from .workers import Worker, WorkerLost, cancel_signal, wait_for_answers

Stats = list[tuple[Move, int, float, float]]

#: Seconds the calling process waits for the workers' shares after its own has ended (at
#: most 4% of the budget). They end when it does; the wait covers sending the results.
GRACE = 0.03
#: ... and at most this part of the budget.
GRACE_PART = 0.04


def usable_cores() -> int:
    """The cores this process may run on (at least one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


_KEPT: Kept | None = None
"""In a worker process: the tree of its last share, for the next decision of the turn."""


def _run_share(
    obs: Observation, seed: int, budget: Budget, settings: Settings,
    ends_at: float | None = None, reuse: bool = True,
) -> Stats:
    """One worker's search: (move, visits, reward sum, margin sum) per root move.

    ``ends_at`` (``time.time()``, which processes share) ends a timed share when the
    calling process's own share ends, however late this worker picked it up. With
    ``reuse`` the worker goes on from the tree of its last share where ``obs`` has reached
    it, as the calling process does, and keeps this share's tree for the next decision."""
    global _KEPT
    if ends_at is not None and budget.seconds is not None:
        budget = Budget(seconds=max(0.0, ends_at - time.time()), iterations=budget.iterations)
    clock = Stopwatch(budget, budget, cancel_signal())
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
        self._team: list[Worker] | None = None

    def team(self) -> list[Worker]:
        """The worker processes (started with the first decision; one that died is
        replaced). WorkerLost where none can start."""
        if self._team is None:
            self._team = [Worker("solstis-expert") for _ in range(self.workers - 1)]
        for worker in self._team:
            worker.ensure_started()
        return self._team

    def close(self) -> None:
        """Stop the worker processes (they start again if needed)."""
        team, self._team = self._team, None
        for worker in team or ():
            worker.stop()

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
            team = self.team()
            ends_at = time.time() + budget.seconds if budget.seconds is not None else None
            for worker, seed in zip(team, seeds[1:], strict=True):
                worker.send(_run_share, obs, seed, budget, self.settings, ends_at,
                            self.reuse)
        except WorkerLost:
            # No worker processes here (a script without a main guard, a process limit):
            # search on this process alone from now on.
            self.close()
            self.workers = 1
            return super().analyse(obs, budget, cancel)
        mine = budget if ends_at is None else \
            Budget(seconds=max(0.0, ends_at - time.time()), iterations=budget.iterations)
        clock = Stopwatch(mine, mine, cancel)  # a timed share ends with the workers'
        local = mcts_search(obs, random.Random(seeds[0]), self.settings,
                            root=self.subtree(obs))
        local.run(clock)
        if self.reuse:  # the calling process keeps its tree for the rest of the turn
            self._kept = (obs.player, obs.history, local.root)
        shares = [_stats(local), *self._collect(team, budget, clock)]
        self.last_iterations = sum(n for share in shares for _, n, _, _ in share)
        return _merge(shares)

    def _collect(self, team: list[Worker], budget: Budget, clock: Stopwatch) -> list[Stats]:
        """The workers' shares that come back in time, then every share still searching
        is cancelled. A timed share ends with the clock: wait a moment for the workers'
        (they began a little later). An iteration budget has no clock: wait for all,
        unless cancelled."""
        grace = min(GRACE, GRACE_PART * budget.seconds) if budget.seconds is not None \
            else None
        until = time.perf_counter() + grace if grace is not None else None
        pending = list(team)
        came: dict[Worker, Stats] = {}
        while pending and not clock.cancelled:
            left = 0.01 if until is None else min(0.01, until - time.perf_counter())
            if left <= 0:
                break
            for worker in wait_for_answers(pending, left):
                try:
                    found = worker.answer(0)
                except WorkerLost:  # replaced at the next decision
                    pending.remove(worker)
                    continue
                if found is not None:
                    pending.remove(worker)
                    if found.status == "ok":
                        came[worker] = found.value
        for worker in pending:
            worker.cancel()
        return [came[w] for w in team if w in came]  # in the seeds' order, as always

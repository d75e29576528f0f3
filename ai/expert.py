"""Expert: MCTS with a bigger budget, optionally split over worker processes.

With ``workers > 1`` the search is root-parallel: each process runs its own ISMCTS from
the same observation with its own seed, and the root statistics are added up. The calling
process runs one share itself, so a cancel returns its own result at once without waiting.
"""

from __future__ import annotations

import atexit
import multiprocessing
import random
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from solstis_tui.core import Move, Observation

from .base import Budget, Stopwatch
from .mcts import Estimate, MCTSBot, Search, SearchParams

Stats = list[tuple[Move, int, float, float]]


def _run_share(
    obs: Observation, seed: int, budget: Budget, params: SearchParams
) -> Stats:
    """One worker's search: (move, visits, reward sum, margin sum) per root move."""
    clock = Stopwatch(budget, budget, None)
    search = Search(obs, random.Random(seed), *params)
    search.run(clock)
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
    """ISMCTS with four times mcts's default budget; ``workers`` processes search in
    parallel."""

    name = "expert"
    description = "the longest search, optionally on several processes: hardest"
    default_budget = Budget(seconds=2.0)

    def __init__(self, seed: int | None = None, workers: int = 1, **params: Any) -> None:
        super().__init__(seed, **params)
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.workers - 1, mp_context=context)
            atexit.register(self.close)
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (they start again if needed)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

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
        params = self.params()
        seeds = [self.rand.getrandbits(63) for _ in range(self.workers)]
        futures: list[Future[Stats]] = [
            self.pool().submit(_run_share, obs, seed, budget, params) for seed in seeds[1:]
        ]
        clock = Stopwatch(budget, budget, cancel)
        local = Search(obs, random.Random(seeds[0]), *params)
        local.run(clock)
        mine = [(e.move, e.visits, e.win_rate * e.visits, e.margin * e.visits)
                for e in local.estimates()]
        pending = set(futures)
        while pending and not (cancel is not None and cancel.is_set()):
            _, pending = wait(pending, timeout=0.01, return_when=FIRST_COMPLETED)
        shares = [mine] + [f.result() for f in futures if f.done() and not f.exception()]
        for f in pending:
            f.cancel()
        self.last_iterations = sum(n for share in shares for _, n, _, _ in share)
        return _merge(shares)

"""How long a bot may think (``Budget``) and the clock a search checks (``Stopwatch``)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: wall-clock seconds, search iterations, or both (first hit)."""

    seconds: float | None = None
    iterations: int | None = None

    def __reduce__(self) -> tuple[type[Budget], tuple[float | None, int | None]]:
        # Compiled frozen dataclasses do not pickle by themselves; bots' worker processes
        # are sent budgets.
        return Budget, (self.seconds, self.iterations)


class Cancelled(Exception):
    """Raised inside a search when its cancel event is set; ``choose`` never leaks it."""


class Signal(Protocol):
    """A cancel signal: a ``threading.Event``, or anything else that says if it is set."""

    def is_set(self) -> bool: ...


class Stopwatch:
    """Tells a search when to stop: budget spent (time or iterations) or cancel set.

    ``budget`` falls back to ``default`` when it is None or names no limit at all.
    """

    def __init__(self, budget: Budget | None, default: Budget, cancel: Signal | None) -> None:
        if budget is None or (budget.seconds is None and budget.iterations is None):
            budget = default
        self.start = time.perf_counter()
        self.deadline = self.start + budget.seconds if budget.seconds is not None else None
        self.limit = budget.iterations
        self.cancel = cancel
        self.iterations = 0

    @property
    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()

    def out_of_time(self) -> bool:
        """Cancel set or deadline passed (not the iteration count)."""
        if self.cancel is not None and self.cancel.is_set():
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def done(self) -> bool:
        """True once the search should stop; call it once per iteration."""
        if self.limit is not None and self.iterations >= self.limit:
            return True
        return self.out_of_time()

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

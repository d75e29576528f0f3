"""The bot protocol: a bot sees one player's observation and returns a legal move."""

from __future__ import annotations

import random
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass

from solstis_tui.core import Move, Observation


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: wall-clock seconds, search iterations, or both (first hit)."""

    seconds: float | None = None
    iterations: int | None = None


class Cancelled(Exception):
    """Raised inside a search when its cancel event is set; ``choose`` never leaks it."""


class Stopwatch:
    """Tells a search when to stop: budget spent (time or iterations) or cancel set.

    ``budget`` falls back to ``default`` when it is None or names no limit at all.
    """

    __slots__ = ("cancel", "deadline", "iterations", "limit", "start")

    def __init__(
        self, budget: Budget | None, default: Budget, cancel: threading.Event | None
    ) -> None:
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


class Bot(ABC):
    """A Solstis player. Subclasses set ``name`` and ``description`` and implement ``choose``.

    A bot must use only the observation it is given (never a live game) and must check
    ``cancel`` at least every 10 ms while it thinks, returning promptly once it is set.
    """

    name: str = "bot"
    description: str = ""
    default_budget: Budget = Budget()

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rand = random.Random(seed)

    @abstractmethod
    def choose(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> Move:
        """A legal move for ``obs`` (``obs.legal_moves`` is never empty when asked)."""

    def rank(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> list[tuple[Move, float]]:
        """Legal moves with value estimates, best first. Search bots override this."""
        return [(m, 0.0) for m in obs.legal_moves]


def capped(ranked: list[tuple[Move, float]]) -> list[tuple[Move, float]]:
    """``ranked`` (best first) with each value capped at the values ranked above it.

    A hint recommends the top move and compares its value with the next; a review charges
    a move the difference from the top. Capping keeps both honest when a bot's order and
    its values disagree (a search ranks by visits, and a rarely visited move's mean can be
    high on thin evidence): the top is never shown as worse, and no cost is negative.
    """
    out: list[tuple[Move, float]] = []
    for mv, value in ranked:
        out.append((mv, min(value, out[-1][1]) if out else value))
    return out


class RandomBot(Bot):
    """Uniformly random legal moves."""

    name = "random"
    description = "plays any legal move at random: a gentle first opponent"

    def choose(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> Move:
        return self.rand.choice(obs.legal_moves)

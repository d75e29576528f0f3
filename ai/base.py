"""The bot protocol: a bot sees one player's observation and returns a legal move."""

from __future__ import annotations

import random
import threading
from abc import ABC, abstractmethod
from typing import Protocol

from solstis_tui.core import IllegalMove, Move, Observation

from .clock import Budget, Cancelled, Stopwatch

__all__ = ["Bot", "Budget", "Cancelled", "Chooser", "RandomBot", "Stopwatch", "capped"]


class Chooser(Protocol):
    """What a seat asks of its bot: a ``Bot``, or a stand-in that thinks for one
    elsewhere (the app's ``BotProcess``) or plays a script (the tutorial's Tutor)."""

    name: str

    def choose(self, obs: Observation, budget: Budget | None = None,
               cancel: threading.Event | None = None) -> Move:
        """A legal move for ``obs``."""
        ...


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


def legal_choice(bot: Chooser, obs: Observation, cancel: threading.Event,
                 budget: Budget | None = None) -> Move:
    """Ask ``bot`` for a move on ``obs`` (run this away from the screen); IllegalMove if its
    answer is not a legal move there."""
    move = bot.choose(obs, budget, cancel)
    if move not in obs.legal_moves:
        raise IllegalMove(f"the bot answered {move!r}, which is not a legal move now")
    return move

"""The mcts tier: information-set MCTS guided by the heuristic and judged by the learned value.

The search itself is ``search.Search`` with two parts: ``GuidedUCB`` (UCB1, untried moves
the heuristic's favourite first, a progressive bias) and ``HeuristicCutoff`` (eight
epsilon-greedy heuristic decisions, then on to the next turn's start, where the learned
value judges; the reward is 80% the win and 20% the star margin). The bot keeps its tree
between the decisions of one game, so the capture, square and spirit choices after a play
start from what it already learnt.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from solstis_tui.core import Move, Observation, determinize

from .base import Bot, Budget, Stopwatch, capped
from .policy import best_move
from .search import (
    MARGIN_SCALE,
    MARGIN_SHARE,
    Estimate,
    Evaluator,
    GuidedUCB,
    HeuristicCutoff,
    Kept,
    Node,
    Search,
    TreePolicy,
    continue_from,
)


@dataclass(frozen=True)
class Settings:
    """The numbers of mcts's two parts; the defaults are the shipped tier's."""

    exploration: float = 0.7
    """UCB's constant, for rewards in [0, 1]."""
    bias: float = 0.05
    """Progressive bias: this times the heuristic's move value, over the visits."""
    epsilon: float = 0.1
    """A playout's chance of a uniformly random move instead of the heuristic's."""
    horizon: int = 8
    """Playout decisions before the learned value judges."""
    margin_scale: float = MARGIN_SCALE
    """Stars of margin the reward squashes (``search.mix``)."""
    margin_share: float = MARGIN_SHARE
    """The star margin's share of the reward, the rest being the win."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.margin_share <= 1.0:
            raise ValueError("margin_share must be from 0 to 1")
        if self.horizon < 0 or self.exploration < 0 or not 0.0 <= self.epsilon <= 1.0:
            raise ValueError("horizon and exploration must be 0 or more, epsilon from 0 to 1")

    def parts(self) -> tuple[TreePolicy, Evaluator]:
        """The tree policy and evaluator these settings describe."""
        return (GuidedUCB(self.exploration, self.bias),
                HeuristicCutoff(self.epsilon, self.horizon, self.margin_scale,
                                self.margin_share))


def mcts_search(obs: Observation, rand: random.Random, settings: Settings,
                root: Node | None = None) -> Search:
    """A search of ``obs`` with mcts's parts, going on from ``root`` if given."""
    tree, evaluator = settings.parts()
    return Search(obs, rand, tree, evaluator, root=root)


def fallback(obs: Observation, rand: random.Random) -> Move:
    """The heuristic's move on one sampled deal: used when a search had no time at all."""
    return best_move(determinize(obs, rand, quiet=True), rand)


class MCTSBot(Bot):
    """Information-set MCTS with heuristic playouts cut off by the learned value."""

    name = "mcts"
    description = "imagines hundreds of ways the next turns could go before each move: hard"
    default_budget = Budget(seconds=0.5)

    def __init__(self, seed: int | None = None, *, reuse: bool = True,
                 settings: Settings | None = None) -> None:
        """``reuse``: go on from the last search's tree within a turn."""
        super().__init__(seed)
        self.settings = settings if settings is not None else Settings()
        self.reuse = reuse
        self.last_iterations = 0
        self._kept: Kept | None = None

    def search(
        self, obs: Observation, budget: Budget | None, cancel: threading.Event | None
    ) -> Search:
        """Search ``obs`` until the budget is spent or ``cancel`` is set."""
        clock = Stopwatch(budget, self.default_budget, cancel)
        search = mcts_search(obs, self.rand, self.settings, root=self.subtree(obs))
        search.run(clock)
        self.last_iterations = search.iterations
        if self.reuse:
            self._kept = (obs.player, obs.history, search.root)
        return search

    def subtree(self, obs: Observation) -> Node | None:
        """The part of the last search's tree that ``obs`` has reached (``continue_from``)."""
        return continue_from(self._kept, obs)

    def analyse(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> list[Estimate]:
        """Root moves with visits, win rate and mean margin, most visited first."""
        return self.search(obs, budget, cancel).estimates()

    def rank(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> list[tuple[Move, float]]:
        """Legal moves, best first (the most searched first: the move ``choose`` plays),
        each with its expected star margin, capped at the value of every move ranked
        above it. A move searched less often is never shown as better than one searched
        more on thin evidence, so a hint's pick tops the values it shows and a review's
        cost of a move is never negative."""
        if len(obs.legal_moves) == 1:
            return [(obs.legal_moves[0], 0.0)]
        return capped([(e.move, e.margin) for e in self.analyse(obs, budget, cancel)])

    def choose(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> Move:
        if len(obs.legal_moves) == 1:
            return obs.legal_moves[0]
        estimates = self.analyse(obs, budget, cancel)
        if not estimates[0].visits:
            return fallback(obs, self.rand)
        return estimates[0].move

"""Plain ISMCTS: the knowledge-free yardstick our search bots are measured against.

Single-observer information-set MCTS as Cowling, Powley & Whitehouse (2012) describe it,
with nothing about Solstis beyond the rules: ``search.Search`` with ``RandomUCB`` and
``RandomToEnd``, that is

- every iteration deals the unseen tiles and spirits afresh from the bot's own
  observation (``Dealer``) and walks one tree keyed by (player to move, move);
- selection is UCB1, ``mean + c * sqrt(ln(availability) / visits)`` with ``c = 2`` and
  rewards +1 / 0 / -1, where a child's availability counts the iterations in which its
  move was legal in the deal (moves on offer differ from one deal to the next);
- a node with untried moves (in this deal) expands one of them, chosen uniformly;
- playouts choose uniformly random legal moves to the end of the game;
- the root move with the most visits is played. No tree is kept between decisions.

It is reachable in the arena as ``plain-ismcts`` (``plain-ismcts@5000``: 5,000 iterations a
decision, the same on every machine) and is not offered as a tier in the app.
"""

from __future__ import annotations

import threading

from solstis_tui.core import Move, Observation

from .base import Bot, Budget, Stopwatch
from .search import RandomToEnd, RandomUCB, Search, edge_key

#: The UCB1 exploration constant, for rewards in [-1, 1].
EXPLORATION = 2.0


class PlainISMCTS(Bot):
    """Single-observer ISMCTS with random playouts and win/draw/loss rewards."""

    name = "plain-ismcts"
    description = "textbook ISMCTS with random playouts: the strength yardstick"
    default_budget = Budget(seconds=0.5)

    def __init__(self, seed: int | None = None, exploration: float = EXPLORATION) -> None:
        super().__init__(seed)
        self.exploration = exploration
        self.last_iterations = 0

    def search(self, obs: Observation) -> Search:
        """A fresh search of ``obs`` (no tree is kept)."""
        return Search(obs, self.rand, RandomUCB(self.exploration), RandomToEnd())

    def visits(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> dict[Move, int]:
        """Visits of each root move after one search (every legal move appears)."""
        search = self.search(obs)
        search.run(Stopwatch(budget, self.default_budget, cancel))
        self.last_iterations = search.iterations
        tried = search.root.children
        me = obs.player
        return {mv: tried[edge_key(me, mv)].n if edge_key(me, mv) in tried else 0
                for mv in obs.legal_moves}

    def choose(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> Move:
        if len(obs.legal_moves) == 1:
            return obs.legal_moves[0]
        visits = self.visits(obs, budget, cancel)
        most = max(visits.values())
        if most == 0:
            return self.rand.choice(obs.legal_moves)
        return self.rand.choice([mv for mv, n in visits.items() if n == most])

"""Plain ISMCTS: the knowledge-free yardstick our search bots are measured against.

Single-observer information-set MCTS as Cowling, Powley & Whitehouse (2012) describe it,
with nothing about Solstis beyond the rules:

- every iteration deals the unseen tiles and spirits afresh from the bot's own
  observation (``Dealer``) and walks one tree keyed by (player to move, move);
- selection is UCB1, ``mean + c * sqrt(ln(availability) / visits)`` with ``c = 2`` and
  rewards +1 / 0 / -1, where a child's availability counts the iterations in which its
  move was legal in the deal (moves on offer differ from one deal to the next);
- a node with untried moves (in this deal) expands one of them, chosen uniformly;
- playouts choose uniformly random legal moves to the end of the game;
- the root move with the most visits is played. No tree is kept between decisions.

It is reachable in the arena as ``plain-ismcts`` and is not offered as a tier in the app.
"""

from __future__ import annotations

import math
import threading

from solstis_tui.core import Dealer, Game, Move, Observation

from .base import Bot, Budget, Stopwatch

#: The UCB1 exploration constant, for rewards in [-1, 1].
EXPLORATION = 2.0


class PlainNode:
    """One move's statistics (the edge into this node) and the moves tried after it."""

    __slots__ = ("avail", "children", "n", "player", "w")

    def __init__(self, player: int) -> None:
        self.player = player
        """The player who made the move into this node."""
        self.n = 0
        self.avail = 0
        self.w = 0.0
        """Reward sum from ``player``'s side (+1 win, 0 draw, -1 loss per visit)."""
        self.children: dict[tuple[int, Move], PlainNode] = {}


def _result(g: Game, player: int) -> float:
    """+1, 0 or -1: the finished game from ``player``'s side."""
    if g.winner is None:
        return 0.0
    return 1.0 if g.winner == player else -1.0


class PlainISMCTS(Bot):
    """Single-observer ISMCTS with random playouts and win/draw/loss rewards."""

    name = "plain-ismcts"
    description = "textbook ISMCTS with random playouts: the strength yardstick"
    default_budget = Budget(seconds=0.5)

    def __init__(self, seed: int | None = None, exploration: float = EXPLORATION) -> None:
        super().__init__(seed)
        self.exploration = exploration
        self.last_iterations = 0

    def visits(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> dict[Move, int]:
        """Visits of each root move after one search (every legal move appears)."""
        dealer = Dealer(obs)
        root = self.root_for(obs)
        clock = Stopwatch(budget, self.default_budget, cancel)
        while not clock.done():
            self.iterate(dealer.deal(self.rand), [root])
            clock.iterations += 1
        self.last_iterations = clock.iterations
        me = obs.player
        tried = root.children
        return {mv: tried[(me, mv)].n if (me, mv) in tried else 0 for mv in obs.legal_moves}

    def root_for(self, obs: Observation) -> PlainNode:
        """The tree a search of ``obs`` starts from: a new one (no tree is kept)."""
        return PlainNode(1 - obs.player)

    def move_values(
        self,
        obs: Observation,
        iterations_per_move: int,
        cancel: threading.Event | None = None,
    ) -> dict[Move, float]:
        """Each legal move's mean result for ``obs.player`` in [0, 1] (a draw counts half),
        from ``iterations_per_move`` iterations that start with it: the root's moves take
        turns, and below them the search goes on as in ``visits``. Every move is judged
        as thoroughly as every other, so the values can judge another bot's choice
        (benchmarks/bot_regret.py). A set ``cancel`` stops it after the current round of
        moves (before the first one: every move 0.5)."""
        dealer = Dealer(obs)
        me = obs.player
        root = PlainNode(1 - me)
        firsts = [root.children.setdefault((me, mv), PlainNode(me)) for mv in obs.legal_moves]
        for _ in range(iterations_per_move):
            if cancel is not None and cancel.is_set():
                break
            for mv, first in zip(obs.legal_moves, firsts, strict=True):
                g = dealer.deal(self.rand)
                g.play(mv)
                self.iterate(g, [root, first])
        return {mv: (1.0 + first.w / first.n) / 2 if first.n else 0.5
                for mv, first in zip(obs.legal_moves, firsts, strict=True)}

    def iterate(self, g: Game, path: list[PlainNode]) -> None:
        """One iteration on the deal ``g`` from the last node of ``path`` (whose moves ``g``
        has played): down the tree (``descend``), a random playout, the result counted on
        every node of ``path`` after the first."""
        self.descend(g, path)
        self.playout(g)
        for visited in path[1:]:
            visited.n += 1
            visited.w += _result(g, visited.player)

    def descend(self, g: Game, path: list[PlainNode]) -> None:
        """UCB1 down the tree from ``path[-1]`` while every move legal in ``g`` has been
        tried, then one new node for an untried move; plays those moves on ``g`` and
        appends their nodes to ``path``."""
        rand, c = self.rand, self.exploration
        node = path[-1]
        while not g.is_over:
            p = g.to_play
            children = node.children
            untried = [mv for mv in g.legal if (p, mv) not in children]
            if untried:
                mv = rand.choice(untried)
                for other in g.legal:
                    if (seen := children.get((p, other))) is not None:
                        seen.avail += 1
                child = children[(p, mv)] = PlainNode(p)
                child.avail = 1
                g.play(mv)
                path.append(child)
                return
            best: PlainNode | None = None
            best_mv: Move | None = None
            best_u = -math.inf
            for mv in g.legal:
                child = children[(p, mv)]
                child.avail += 1
                u = child.w / child.n + c * math.sqrt(math.log(child.avail) / child.n)
                if u > best_u:
                    best, best_mv, best_u = child, mv, u
            assert best is not None and best_mv is not None
            g.play(best_mv)
            path.append(best)
            node = best

    def playout(self, g: Game) -> None:
        """Uniformly random legal moves on ``g`` to the end of the game."""
        rand = self.rand
        while not g.is_over:
            legal = g.legal
            g.play(legal[int(rand.random() * len(legal))])

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

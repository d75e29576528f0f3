"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012), built from parts.

Every iteration deals the unseen tiles and spirits afresh (``Dealer``) and walks one shared
tree of *moves* (a node stands for everything the searching player cannot tell apart).
Children are keyed by (player to move, move), and a child's UCB uses how often it was
*available*, since the moves on offer differ from one deal to the next.

Two parts are swappable, as in OpenSpiel's ISMCTS:

- the **tree policy** (``TreePolicy``) walks down from the root, choosing moves among the
  ones tried and growing the tree by one untried move: ``GuidedUCB`` (the mcts and expert
  tiers: UCB1, untried moves tried the heuristic's favourite first, a progressive bias) or
  ``RandomUCB`` (textbook: UCB1, untried moves in random order);
- the **evaluator** (``Evaluator``) plays on from the new leaf and judges it:
  ``HeuristicCutoff`` (a few epsilon-greedy heuristic decisions, then the learned value,
  value.py) or ``RandomToEnd`` (uniformly random moves to the end of the game).

``Search`` runs them; ``continue_from`` lets a bot go on from the tree of its last search
where the game has reached it. This module is compiled with mypyc: keep it typed, and keep
the inner loops free of generators and dictionaries of functions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from solstis_tui.core import Dealer, Decision, Game, Move, Observation
from solstis_tui.core.rng import rand_below
from solstis_tui.core.scoring import score
from solstis_tui.core.state import HistoryEntry

from .clock import Stopwatch
from .policy import best_move, move_value
from .value import value

#: Stars of margin that ``mix`` squashes to about three quarters of its margin part.
MARGIN_SCALE: Final = 25.0
#: The star margin's share of mcts's reward; the rest is the win (``mix``).
MARGIN_SHARE: Final = 0.2
#: At most this many decisions finish a cut-off playout's turn before it is judged.
SETTLE_LIMIT: Final = 16


def edge_key(player: int, mv: Move) -> int:
    """The key of the edge ``player`` plays ``mv`` in a node's children."""
    kind: int = mv.kind
    return ((kind * 64 + mv.arg + 1) << 1) | player


class Node:
    """Statistics of one move (the edge into this node) and the moves tried after it."""

    __slots__ = ("avail", "children", "margin", "move", "n", "player", "w")

    def __init__(self, player: int, move: Move | None) -> None:
        self.player = player
        """The player who made the move into this node."""
        self.move = move
        self.n = 0
        self.avail = 1
        self.w = 0.0
        """Reward sum from ``player``'s side."""
        self.margin = 0.0
        """Star margin sum from ``player``'s side."""
        self.children: dict[int, Node] = {}
        """Keyed by ``edge_key``."""


@dataclass(frozen=True)
class Estimate:
    """A root move's search statistics, from the searching player's side."""

    move: Move
    visits: int
    win_rate: float
    """Mean reward (mcts: in [0, 1], mostly the win probability)."""
    margin: float
    """Mean final star margin."""


class TreePolicy(Protocol):
    """Chooses the way down the tree and grows it (the selection and expansion steps)."""

    def descend(self, search: Search, g: Game, path: list[Node]) -> None:
        """Walk down from ``search.root`` playing the chosen moves on ``g``, appending each
        node entered to ``path``, until a new node is made or the game ends."""
        ...


class Evaluator(Protocol):
    """Plays on from a new leaf and judges it (the simulation step)."""

    def judge(self, search: Search, g: Game) -> tuple[float, float, float]:
        """(reward for player 0, reward for player 1, star margin of player 0)."""
        ...


class Search:
    """One ISMCTS search from an observation; call ``run`` then read ``estimates``."""

    def __init__(self, obs: Observation, rand: random.Random, tree: TreePolicy,
                 evaluator: Evaluator, root: Node | None = None,
                 dealer: Dealer | None = None) -> None:
        self.obs = obs
        self.rand = rand
        self.tree = tree
        self.evaluator = evaluator
        self.dealer = dealer if dealer is not None else Dealer(obs, quiet=True)
        self.root = root if root is not None else Node(1 - obs.player, None)
        self.iterations = 0

    def run(self, clock: Stopwatch) -> None:
        """Iterate until the clock says stop (budget spent or cancel set)."""
        while not clock.done():
            self.iterate()
            clock.iterations += 1

    def iterate(self) -> None:
        """One iteration: a fresh deal, down the tree, a judged leaf, the statistics."""
        g = self.dealer.deal(self.rand)
        path: list[Node] = []
        self.tree.descend(self, g, path)
        r0, r1, m0 = self.evaluator.judge(self, g)
        for child in path:
            child.n += 1
            if child.player == 0:
                child.w += r0
                child.margin += m0
            else:
                child.w += r1
                child.margin -= m0
        self.iterations += 1

    def visits(self, node: Node) -> int:
        """How often the search has passed through ``node``: the root is on no iteration's
        path, so its count is the visits kept from an earlier search plus this one's."""
        return node.n + (self.iterations if node is self.root else 0)

    def estimates(self) -> list[Estimate]:
        """Root moves, most visited first; unvisited moves last with neutral values."""
        me = self.obs.player
        out = []
        for mv in self.obs.legal_moves:
            child = self.root.children.get(edge_key(me, mv))
            if child is None or not child.n:
                out.append(Estimate(mv, 0, 0.5, 0.0))
            else:
                out.append(Estimate(mv, child.n, child.w / child.n, child.margin / child.n))
        out.sort(key=_estimate_order)
        return out


def _estimate_order(e: Estimate) -> tuple[int, float]:
    return -e.visits, -e.win_rate


# ---------------------------------------------------------------------- tree policies
class GuidedUCB:
    """UCB1 over availability, with the heuristic (policy.py) as a guide: untried moves are
    tried its favourite first (a random hundredth of a star breaks ties), and a tried
    move's UCB gains ``bias`` times the heuristic's value over its visits. The
    ``exploration`` constant is for rewards in [0, 1]."""

    def __init__(self, exploration: float = 0.7, bias: float = 0.05) -> None:
        self.exploration = exploration
        self.bias = bias

    def worth(self, g: Game, mv: Move) -> float:
        """What guides the tree to ``mv``: the heuristic's value of it."""
        return move_value(g, mv)

    def descend(self, search: Search, g: Game, path: list[Node]) -> None:
        uniform: Callable[[], float] = search.rand.random
        c, bias = self.exploration, self.bias
        node = search.root
        while not g.is_over:
            p = g.to_play
            children = node.children
            fresh: Move | None = None
            fresh_value = 0.0
            best: Node | None = None
            best_u = -1e9
            for mv in g.legal:
                child = children.get(edge_key(p, mv))
                if child is None:
                    worth = self.worth(g, mv) + uniform() * 0.01
                    if fresh is None or worth > fresh_value:
                        fresh, fresh_value = mv, worth
                    continue
                child.avail += 1
                if fresh is None:
                    u = child.w / child.n + c * math.sqrt(math.log(child.avail) / child.n)
                    if bias:
                        u += bias * self.worth(g, mv) / child.n
                    if u > best_u:
                        best, best_u = child, u
            if fresh is not None:
                new = Node(p, fresh)
                children[edge_key(p, fresh)] = new
                g.play(fresh)
                path.append(new)
                return
            # Every legal move on offer has a visited child here: one beat -1e9.
            assert best is not None and best.move is not None
            g.play(best.move)
            path.append(best)
            node = best


class RandomUCB:
    """Textbook selection: UCB1 over availability, ``mean + c * sqrt(ln(availability) /
    visits)``, and one untried move (in this deal), chosen uniformly, expanded per
    iteration. The ``exploration`` constant is for the evaluator's reward scale."""

    def __init__(self, exploration: float = 2.0) -> None:
        self.exploration = exploration

    def descend(self, search: Search, g: Game, path: list[Node]) -> None:
        rand = search.rand
        c = self.exploration
        node = search.root
        while not g.is_over:
            p = g.to_play
            children = node.children
            legal = g.legal
            untried = [mv for mv in legal if edge_key(p, mv) not in children]
            if untried:
                mv = untried[rand_below(rand, len(untried))]
                for other in legal:
                    seen = children.get(edge_key(p, other))
                    if seen is not None:
                        seen.avail += 1
                child = Node(p, mv)
                children[edge_key(p, mv)] = child
                g.play(mv)
                path.append(child)
                return
            best: Node | None = None
            best_u = -math.inf
            for mv in legal:
                child = children[edge_key(p, mv)]
                child.avail += 1
                u = child.w / child.n + c * math.sqrt(math.log(child.avail) / child.n)
                if u > best_u:
                    best, best_u = child, u
            assert best is not None and best.move is not None
            g.play(best.move)
            path.append(best)
            node = best


# ---------------------------------------------------------------------- evaluators
def mix(win: float, margin: float, scale: float, margin_share: float = MARGIN_SHARE) -> float:
    """A reward in [0, 1]: the win, and with ``margin_share`` of the weight the star margin
    squashed by ``tanh(margin / scale)``. A large scale keeps a bot that is far ahead
    playing for more stars."""
    return (1.0 - margin_share) * win + margin_share / 2 * (1.0 + math.tanh(margin / scale))


def reward(g: Game, scale: float, margin_share: float = MARGIN_SHARE) -> tuple[float, float]:
    """(reward for player 0 in [0, 1], star margin of player 0) of a finished game."""
    margin = score(g, 0).total - score(g, 1).total
    win = 0.5 if g.winner is None else float(g.winner == 0)
    return mix(win, margin, scale, margin_share), float(margin)


def estimate(g: Game, scale: float, margin_share: float = MARGIN_SHARE) -> tuple[float, float]:
    """Like ``reward`` for an unfinished game: the learned value's expected margin and win
    chance (value.py) stand in for the final ones."""
    margin, win = value(g, 0)
    return mix(win, margin, scale, margin_share), margin


class HeuristicCutoff:
    """mcts's leaves: the epsilon-greedy heuristic plays ``horizon`` decisions, then on to
    the start of the next turn, where the learned value judges the position (a finished
    game is judged by its result). The reward mixes the win and the margin (``mix``).
    Cutting playouts short trades the luck of a whole game's draws for several times more
    iterations and less noise."""

    def __init__(self, epsilon: float = 0.1, horizon: int = 8,
                 margin_scale: float = MARGIN_SCALE,
                 margin_share: float = MARGIN_SHARE) -> None:
        self.epsilon = epsilon
        self.horizon = horizon
        self.margin_scale = margin_scale
        self.margin_share = margin_share

    def judge(self, search: Search, g: Game) -> tuple[float, float, float]:
        rand, epsilon = search.rand, self.epsilon
        r0, m0 = self.play_on(g, rand, epsilon)
        return r0, 1.0 - r0, m0

    def play_on(self, g: Game, rand: random.Random, epsilon: float) -> tuple[float, float]:
        scale, share = self.margin_scale, self.margin_share
        for _ in range(self.horizon):
            if g.is_over:
                return reward(g, scale, share)
            g.play(best_move(g, rand, epsilon))
        for _ in range(SETTLE_LIMIT):
            if g.is_over or g.decision is Decision.PLAY:
                break
            g.play(best_move(g, rand, epsilon))
        return reward(g, scale, share) if g.is_over else estimate(g, scale, share)


def random_playout(g: Game, rand: random.Random) -> None:
    """Play ``g`` to its end with uniformly random legal moves."""
    uniform: Callable[[], float] = rand.random  # looked up once, not once a move
    while not g.is_over:
        legal = g.legal
        g.play(legal[int(uniform() * len(legal))])


class RandomToEnd:
    """Textbook leaves: uniformly random legal moves to the end of the game, judged +1 for
    a win, 0 for a draw and -1 for a loss."""

    def judge(self, search: Search, g: Game) -> tuple[float, float, float]:
        random_playout(g, search.rand)
        if g.winner is None:
            return 0.0, 0.0, 0.0
        result = 1.0 if g.winner == 0 else -1.0
        return result, -result, 0.0


# ---------------------------------------------------------------------- tree reuse
Kept = tuple[int, tuple[HistoryEntry, ...], Node]
"""A search's tree as kept for the next decision: (searching player, history, root)."""


def continue_from(kept: Kept | None, obs: Observation) -> Node | None:
    """The part of a kept tree that ``obs`` has reached, if it was the same player in the
    same game and every move since is in the tree; else None.

    The later decisions of a turn (capture, square, spirit...) start from what the
    search for the first one already learnt about them.
    """
    if kept is None:
        return None
    player, history, node = kept
    if player != obs.player or obs.history[: len(history)] != history:
        return None
    for p, mv, auto in obs.history[len(history):]:
        if auto:
            continue
        child = node.children.get(edge_key(p, mv))
        if child is None:
            return None
        node = child
    return node

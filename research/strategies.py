"""Search parts measured and not adopted: tree policies and evaluators for ``search.Search``.

The shipped search (``solstis_tui.ai.search``) takes a tree policy (``TreePolicy.descend``)
and an evaluator (``Evaluator.judge``). The knobs that once were fields of mcts's
``Settings`` and were measured and turned down (research/EXPERIMENTS.md) live here as
parts of the same kinds, so that research/variants.py can rebuild every variant:

- ``ResearchUCB``: GuidedUCB's walk, step for step (the same random draws), plus
  progressive widening (``widening``) and the learned prior taking over the expansion
  order and the progressive bias at nodes visited ``learned_prior`` times;
- ``UnguidedUCB``: the same with no heuristic in the tree (untried moves in random order);
- ``PUCT``: AlphaZero's selection over a softmax prior of the heuristic's move values, or
  of the learned prior's scores at nodes visited ``learned_prior`` times;
- ``FollowSpread``: UCB's constant set to a multiple of the leaf rewards' spread so far;
- ``PlayToEnd``: epsilon-greedy playouts to the end of the game (``epsilon=1``: plain
  ISMCTS's random ones), judged with mcts's mix of win and margin;
- ``EndgamePile``: those playouts once the land pile is small, cut-off ones before;
- ``RandomLateLeaves``: cut-off playouts until the root has ``late`` visits, then random
  games to the end.

The shipped parts are compiled with mypyc and cannot be subclassed here: these classes
satisfy the protocols by themselves and hold shipped parts where they build on them. Parts
written here run as interpreted Python, so a tree policy of this module makes fewer
iterations a second than the compiled ``GuidedUCB`` (a wrapper around compiled parts costs
little).
"""

from __future__ import annotations

import math
import random
import threading
from typing import Final, Protocol

from solstis_tui.ai.base import Budget, Stopwatch
from solstis_tui.ai.mcts import MCTSBot
from solstis_tui.ai.policy import move_value, playout
from solstis_tui.ai.search import (
    MARGIN_SCALE,
    MARGIN_SHARE,
    Evaluator,
    HeuristicCutoff,
    Node,
    Search,
    TreePolicy,
    edge_key,
    reward,
)
from solstis_tui.core import Dealer, Game, Move, Observation

from prior import logits

#: The spread of leaf rewards ``FollowSpread`` assumes until a search has seen two.
FIRST_SPREAD: Final = 0.15


class LearnedScores:
    """The learned prior's score of every move seen at a node, worked out once (on the
    deal where the node first met the move) and kept: what the old ``Node.scores`` held.
    Keyed by the node itself, so one instance may serve a tree kept through a turn."""

    def __init__(self) -> None:
        self.by_node: dict[Node, dict[int, float]] = {}

    def at(self, g: Game, node: Node) -> dict[int, float]:
        """Every legal move's score at ``node`` in ``g``, keyed by ``edge_key``; the moves
        not seen there before are scored now."""
        scores = self.by_node.get(node)
        if scores is None:
            scores = self.by_node[node] = {}
        p = g.to_play
        new = [mv for mv in g.legal if edge_key(p, mv) not in scores]
        if new:
            for mv, z in zip(new, logits(g, new), strict=True):
                scores[edge_key(p, mv)] = z
        return scores


def check_learned_prior(learned_prior: int) -> None:
    if learned_prior < 0:
        raise ValueError("learned_prior is a number of visits: 0 (off) or more")


class ResearchUCB:
    """``GuidedUCB`` (UCB1 over availability, untried moves the heuristic's favourite
    first with a random hundredth of a star as tie-break, a progressive bias), with two
    knobs that were measured and not adopted, both off by default:

    - ``widening``: progressive widening; a node visited n times grows a new child only
      while fewer than ``widening * sqrt(n)`` of the moves on offer in this deal have one;
    - ``learned_prior``: from this many visits of a node on, the learned prior (prior.py)
      scores its moves instead of the heuristic, in the expansion order and the bias.

    With both off it walks exactly as ``GuidedUCB`` does, drawing the same random numbers.
    """

    def __init__(self, exploration: float = 0.7, bias: float = 0.05, widening: float = 0.0,
                 learned_prior: int = 0, scores: LearnedScores | None = None) -> None:
        check_learned_prior(learned_prior)
        if widening < 0:
            raise ValueError("widening must be 0 (off) or more")
        self.exploration = exploration
        self.bias = bias
        self.widening = widening
        self.learned_prior = learned_prior
        self.scores = scores if scores is not None else LearnedScores()

    def worth(self, g: Game, mv: Move) -> float:
        """What guides the tree to ``mv`` where the learned prior has not taken over: the
        heuristic's value of it."""
        return move_value(g, mv)

    def descend(self, search: Search, g: Game, path: list[Node]) -> None:
        rand = search.rand
        c, bias = self.exploration, self.bias
        widening, learned = self.widening, self.learned_prior
        node = search.root
        while not g.is_over:
            p = g.to_play
            legal = g.legal
            children = node.children
            visits = search.visits(node) if learned or widening else 0
            guide = self.scores.at(g, node) if learned and visits >= learned else None
            grow = True
            if widening:
                tried = sum(1 for mv in legal if edge_key(p, mv) in children)
                grow = tried == 0 or tried < widening * math.sqrt(visits)
            fresh: Move | None = None
            fresh_value = 0.0
            best: Node | None = None
            best_u = -1e9
            for mv in legal:
                child = children.get(edge_key(p, mv))
                if child is None:
                    if grow:
                        worth = (guide[edge_key(p, mv)] if guide is not None
                                 else self.worth(g, mv)) + rand.random() * 0.01
                        if fresh is None or worth > fresh_value:
                            fresh, fresh_value = mv, worth
                    continue
                child.avail += 1
                if fresh is None:
                    u = child.w / child.n + c * math.sqrt(math.log(child.avail) / child.n)
                    if bias:
                        u += bias * (guide[edge_key(p, mv)] if guide is not None
                                     else self.worth(g, mv)) / child.n
                    if u > best_u:
                        best, best_u = child, u
            if fresh is not None:
                new = Node(p, fresh)
                children[edge_key(p, fresh)] = new
                g.play(fresh)
                path.append(new)
                return
            # Every legal move on offer has a visited child here, or widening holds the
            # rest back; either way a tried child beat -1e9.
            assert best is not None and best.move is not None
            g.play(best.move)
            path.append(best)
            node = best


class UnguidedUCB(ResearchUCB):
    """``ResearchUCB`` with no Solstis knowledge in the tree: every move is worth 0, so
    untried moves are tried in random order (the tie-break), and the progressive bias is
    off by default (with a bias it would add nothing but cost time)."""

    def __init__(self, exploration: float = 0.7, bias: float = 0.0) -> None:
        super().__init__(exploration, bias)

    def worth(self, g: Game, mv: Move) -> float:
        return 0.0


class PUCT:
    """PUCT (AlphaZero): at each node the legal move maximising
    ``q + prior * P * sqrt(N + 1) / (1 + n)``, where P is a softmax (``temperature`` in
    stars) of the heuristic's move values, N the visits of the moves on offer in this deal
    (plus one, so that the prior orders the first tries too) and an untried move's q the
    visit-weighted mean of the tried ones (0.5 before any). A random billionth breaks
    ties. From ``learned_prior`` visits of a node on, the learned prior's scores stand in
    for the heuristic's values. UCB's exploration constant, its progressive bias and
    widening play no part. With the heuristic as the prior it lost to UCB."""

    def __init__(self, prior: float, temperature: float = 1.0, learned_prior: int = 0,
                 scores: LearnedScores | None = None) -> None:
        if prior < 0 or temperature <= 0:
            raise ValueError("prior must be 0 or more and prior_temperature more than 0")
        check_learned_prior(learned_prior)
        self.prior = prior
        self.temperature = temperature
        self.learned_prior = learned_prior
        self.scores = scores if scores is not None else LearnedScores()

    def descend(self, search: Search, g: Game, path: list[Node]) -> None:
        node = search.root
        while not g.is_over:
            child, new = self.select(search, g, node)
            assert child.move is not None
            g.play(child.move)
            path.append(child)
            if new:
                return
            node = child

    def select(self, search: Search, g: Game, node: Node) -> tuple[Node, bool]:
        """(the child PUCT chooses at ``node`` in ``g``, whether it is new)."""
        p = g.to_play
        children = node.children
        legal = g.legal
        temp = self.temperature
        learned = self.learned_prior
        if learned and search.visits(node) >= learned:
            scores = self.scores.at(g, node)
            values = [scores[edge_key(p, mv)] / temp for mv in legal]
        else:
            values = [move_value(g, mv) / temp for mv in legal]
        top = max(values)
        weights = [math.exp(v - top) for v in values]
        total = sum(weights)
        visits = 0
        wins = 0.0
        found: list[Node | None] = []
        for mv in legal:
            child = children.get(edge_key(p, mv))
            found.append(child)
            if child is not None:
                child.avail += 1
                visits += child.n
                wins += child.w
        fpu = wins / visits if visits else 0.5
        scale = self.prior * math.sqrt(visits + 1) / total
        best_i, best_u = 0, -1e9
        for i, child in enumerate(found):
            if child is None or not child.n:
                u = fpu + scale * weights[i]
            else:
                u = child.w / child.n + scale * weights[i] / (1 + child.n)
            u += search.rand.random() * 1e-9
            if u > best_u:
                best_i, best_u = i, u
        chosen = found[best_i]
        if chosen is None:
            mv = legal[best_i]
            chosen = children[edge_key(p, mv)] = Node(p, mv)
            return chosen, True
        return chosen, False


class Exploring(Protocol):
    """A tree policy whose UCB constant can be set between iterations."""

    exploration: float


class FollowSpread:
    """An evaluator that passes ``evaluator``'s judgement on and, after counting each leaf
    reward, sets ``tree``'s UCB constant to ``spread`` times the standard deviation of the
    leaf rewards so far in this search (``spread * FIRST_SPREAD`` until it has seen two).

    A cut-off playout's reward is a learned estimate, far less spread than a finished
    game's 0 or 1 (a standard deviation of 0.07 to 0.23 against up to 0.5), so the fixed
    constant explores almost evenly whatever the estimates say. Following the spread (2 is
    the balance plain ISMCTS's ``c = 2`` has over rewards of -1 and +1) makes the search
    independent of the rewards' scale. It did not win more games. Make one per search."""

    def __init__(self, evaluator: Evaluator, tree: Exploring, spread: float) -> None:
        self.evaluator = evaluator
        self.tree = tree
        self.spread = spread
        self.reward_sum = 0.0
        self.reward_squares = 0.0
        tree.exploration = spread * FIRST_SPREAD

    def judge(self, search: Search, g: Game) -> tuple[float, float, float]:
        r0, r1, m0 = self.evaluator.judge(search, g)
        self.reward_sum += r0
        self.reward_squares += r0 * r0
        n = search.iterations + 1  # this iteration's leaf included
        if n >= 2:
            mean = self.reward_sum / n
            variance = max(self.reward_squares / n - mean * mean, 1e-9)
            self.tree.exploration = self.spread * math.sqrt(variance)
        return r0, r1, m0


class PlayToEnd:
    """Leaves played to the end of the game by the epsilon-greedy heuristic
    (``policy.playout``; ``epsilon=1``: uniformly random moves, plain ISMCTS's playouts)
    and judged by the finished game with mcts's mix of win and margin (``search.reward``)."""

    def __init__(self, epsilon: float = 1.0, margin_scale: float = MARGIN_SCALE,
                 margin_share: float = MARGIN_SHARE) -> None:
        self.epsilon = epsilon
        self.margin_scale = margin_scale
        self.margin_share = margin_share

    def judge(self, search: Search, g: Game) -> tuple[float, float, float]:
        playout(g, search.rand, self.epsilon)
        r0, m0 = reward(g, self.margin_scale, self.margin_share)
        return r0, 1.0 - r0, m0


class EndgamePile:
    """``cutoff``'s leaves, except that from a land pile of ``pile`` tiles or fewer (at the
    new leaf) its playouts go on to the end of the game with the same epsilon and are
    judged by the finished game instead of the learned value."""

    def __init__(self, cutoff: HeuristicCutoff, pile: int) -> None:
        self.cutoff = cutoff
        self.pile = pile
        self.to_end = PlayToEnd(cutoff.epsilon, cutoff.margin_scale, cutoff.margin_share)

    def judge(self, search: Search, g: Game) -> tuple[float, float, float]:
        if len(g.pile) <= self.pile:
            return self.to_end.judge(search, g)
        return self.cutoff.judge(search, g)


class RandomLateLeaves:
    """``early``'s leaves until the search's root has been visited ``late`` times (the
    visits kept from earlier in the turn included), then plain ISMCTS's: uniformly random
    moves to the end of the game, judged by the finished game with mcts's mix of win and
    margin."""

    def __init__(self, early: Evaluator, late: int = 1000,
                 margin_scale: float = MARGIN_SCALE,
                 margin_share: float = MARGIN_SHARE) -> None:
        self.early = early
        self.late = late
        self.to_end = PlayToEnd(1.0, margin_scale, margin_share)

    def judge(self, search: Search, g: Game) -> tuple[float, float, float]:
        if search.visits(search.root) < self.late:
            return self.early.judge(search, g)
        return self.to_end.judge(search, g)


class ResearchMCTS(MCTSBot):
    """``MCTSBot`` whose searches are built from ``parts`` (by default its settings'
    shipped parts) and deal their worlds from ``dealer`` (by default a fair ``Dealer``):
    what a variant overrides. The tree is kept through a turn as mcts keeps it."""

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        """The tree policy and evaluator of a search of ``obs``; made afresh per search."""
        return self.settings.parts()

    def dealer(self, obs: Observation) -> Dealer | None:
        """What deals the search's worlds (None: a fair ``Dealer`` of ``obs``)."""
        return None

    def search(
        self, obs: Observation, budget: Budget | None, cancel: threading.Event | None
    ) -> Search:
        clock = Stopwatch(budget, self.default_budget, cancel)
        tree, evaluator = self.parts(obs)
        search = Search(obs, self.rand, tree, evaluator, root=self.subtree(obs),
                        dealer=self.dealer(obs))
        search.run(clock)
        self.last_iterations = search.iterations
        if self.reuse:
            self._kept = (obs.player, obs.history, search.root)
        return search


def searched(obs: Observation, rand: random.Random, tree: TreePolicy, evaluator: Evaluator,
             iterations: int) -> Search:
    """A fresh search of ``obs`` with these parts, run for ``iterations``."""
    search = Search(obs, rand, tree, evaluator)
    budget = Budget(iterations=iterations)
    search.run(Stopwatch(budget, budget, None))
    return search

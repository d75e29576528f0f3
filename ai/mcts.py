"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).

Every iteration deals the unseen tiles and spirits afresh (``Dealer``), walks one
shared tree of *moves* (a node stands for everything the bot cannot tell apart), and plays
on from the new leaf with the epsilon-greedy heuristic for a few decisions (``horizon``),
then to the start of the next turn, where the learned value (value.py) judges the position.
Cutting playouts short trades the luck of a whole game's draws for several times more
iterations and less noise. Children are keyed by (player to move, move); a child's UCB
uses how often it was *available*, since the moves on offer differ from one deal to the
next. Rewards mix the win (80%) and the star margin; a cut-off position's reward comes
from its learned win chance and expected margin. The bot keeps its tree between the
decisions of one game, so the capture, square and spirit choices after a play start from
what it already learnt.
"""

from __future__ import annotations

import dataclasses
import math
import random
import threading
from dataclasses import dataclass
from typing import Any, ClassVar

from solstis_tui.core import Dealer, Decision, Game, Move, Observation, determinize
from solstis_tui.core.scoring import score
from solstis_tui.core.state import HistoryEntry

from .base import Bot, Budget, Stopwatch, capped
from .policy import best_move, move_value, playout
from .prior import logits
from .value import value


class Node:
    """Statistics of one move (the edge into this node) and the moves after it."""

    __slots__ = ("avail", "children", "margin", "move", "n", "player", "scores", "w")

    def __init__(self, player: int, move: Move | None) -> None:
        self.player, self.move = player, move
        self.n = 0
        self.avail = 1
        self.w = 0.0
        self.margin = 0.0
        self.children: dict[tuple[int, Move], Node] = {}
        self.scores: dict[tuple[int, Move], float] | None = None
        """The learned prior's score of each move seen here (``Settings.learned_prior``)."""


@dataclass(frozen=True)
class Estimate:
    """A root move's search statistics, from the searching player's side."""

    move: Move
    visits: int
    win_rate: float
    """Mean reward in [0, 1] (mostly the win probability)."""
    margin: float
    """Mean final star margin."""


#: Stars of margin that ``mix`` squashes to about three quarters of its margin part. Far
#: ahead, a small scale (10) left a margin term too flat to tell a move worth a few more
#: stars from noise. Against random, 25 scored 95.3% where 10 scored 94.3% (the same 600
#: deals; docs/bots.md).
MARGIN_SCALE = 25.0


#: The star margin's share of the reward; the rest is the win (``mix``).
MARGIN_SHARE = 0.2


def mix(win: float, margin: float, scale: float, margin_share: float = MARGIN_SHARE) -> float:
    """A reward in [0, 1]: the win, and with ``margin_share`` (20%) of the weight the star
    margin squashed by ``tanh(margin / scale)``. A large scale keeps a bot that is far ahead
    playing for more stars."""
    return (1.0 - margin_share) * win + margin_share / 2 * (1.0 + math.tanh(margin / scale))


def reward(g: Game, scale: float, margin_share: float = MARGIN_SHARE) -> tuple[float, float]:
    """(reward for player 0 in [0, 1], star margin of player 0) of a finished game."""
    margin = score(g, 0).total - score(g, 1).total
    win = 0.5 if g.winner is None else float(g.winner == 0)
    return mix(win, margin, scale, margin_share), float(margin)


def estimate(g: Game, scale: float, margin_share: float = MARGIN_SHARE) -> tuple[float, float]:
    """Like ``reward`` for an unfinished game: the learned value's expected margin and
    win chance (value.py) stand in for the final ones."""
    margin, win = value(g, 0)
    return mix(win, margin, scale, margin_share), margin


@dataclass(frozen=True)
class Settings:
    """How a search explores, plays out and judges. The defaults are the shipped mcts's.
    ``widening``, ``endgame_pile``, ``spread_exploration``, ``prior``, ``learned_prior`` and
    ``random_to_end`` are ideas measured and not adopted (docs/bots.md): each is off unless
    set."""

    exploration: float = 0.7
    """UCB's constant, for rewards in [0, 1]."""
    epsilon: float = 0.1
    """A playout's chance of a uniformly random move instead of the heuristic's."""
    bias: float = 0.05
    """Progressive bias: this times the heuristic's move value, over the visits."""
    horizon: int | None = 8
    """Playout decisions before the learned value judges (None: play to the end)."""
    margin_scale: float = MARGIN_SCALE
    """Stars of margin ``mix`` squashes (see ``mix``)."""
    margin_share: float = MARGIN_SHARE
    """The star margin's share of the reward, the rest being the win (see ``mix``)."""
    widening: float = 0.0
    """Progressive widening: a node visited n times offers at most this times sqrt(n)
    tried moves before it grows another."""
    endgame_pile: int = -1
    """From a land pile this small, playouts go to the end (no learned value)."""
    spread_exploration: float = 0.0
    """UCB's constant as this times the leaf rewards' standard deviation so far
    (``Search.follow_spread``) instead of ``exploration``."""
    prior: float = 0.0
    """PUCT's constant over a softmax prior of the heuristic's move values
    (``Search.select_puct``). PUCT replaces UCB: ``exploration``, ``spread_exploration``,
    ``bias`` and ``widening`` then play no part in choosing moves."""
    prior_temperature: float = 1.0
    """The prior's softmax temperature, in stars of heuristic value."""
    learned_prior: int = 0
    """From this many visits of a node on, the learned prior (prior.py) scores its moves
    instead of the heuristic's move value: in the order untried moves are expanded, in the
    progressive bias and in PUCT's prior. 0: never."""
    random_to_end: frozenset[Decision] = frozenset()
    """Decisions searched with plain ISMCTS's playouts: uniformly random moves to the end of
    the game, judged by the finished game instead of the learned value (``for_decision``).
    The rest stays mcts's: the reward's mix of win and margin, the progressive bias, and a
    tree kept from earlier in the turn (whose statistics came from cut-off playouts)."""

    def for_decision(self, decision: Decision | None) -> Settings:
        """The settings a search of ``decision`` uses."""
        if decision in self.random_to_end:
            return dataclasses.replace(self, horizon=None, epsilon=1.0)
        return self

    def __post_init__(self) -> None:
        if self.prior < 0 or self.prior_temperature <= 0:
            raise ValueError("prior must be 0 or more and prior_temperature more than 0")
        if not 0.0 <= self.margin_share <= 1.0:
            raise ValueError("margin_share must be from 0 to 1")
        if self.learned_prior < 0:
            raise ValueError("learned_prior is a number of visits: 0 (off) or more")


#: At most this many decisions finish a cut-off playout's turn before it is evaluated.
SETTLE_LIMIT = 16

#: The spread of leaf rewards ``spread_exploration`` assumes until a search has seen two.
FIRST_SPREAD = 0.15


class Search:
    """One ISMCTS search from an observation; call ``run`` then read ``estimates``."""

    def __init__(
        self,
        obs: Observation,
        rand: random.Random,
        settings: Settings = Settings(),
        root: Node | None = None,
        dealer: Dealer | None = None,
    ) -> None:
        settings = settings.for_decision(obs.decision)
        self.obs, self.rand, self.settings = obs, rand, settings
        self.dealer = dealer if dealer is not None else Dealer(obs)
        self.c = settings.exploration
        if settings.spread_exploration:
            self.c = settings.spread_exploration * FIRST_SPREAD
        self.reward_sum = self.reward_squares = 0.0
        """Sums of this search's leaf rewards and their squares (with ``spread_exploration``)."""
        self.root = root if root is not None else Node(1 - obs.player, None)
        self.iterations = 0

    def run(self, clock: Stopwatch) -> None:
        """Iterate until the clock says stop (budget spent or cancel set)."""
        while not clock.done():
            self.iterate()
            clock.iterations += 1

    def iterate(self) -> None:
        rand = self.rand
        g = self.dealer.deal(rand)
        node, path = self.root, []
        settings = self.settings
        c, bias, widening, prior = self.c, settings.bias, settings.widening, settings.prior
        learned = settings.learned_prior
        while not g.is_over:
            legal = g.legal
            p = g.to_play
            children = node.children
            if prior:
                picked, next_node, new = self.select_puct(g, node)
                g.play(picked)
                path.append(next_node)
                if new:
                    break
                node = next_node
                continue
            # Progressive widening: a node visited n times grows a new child only while
            # fewer than widening * sqrt(n) of its children are on offer in this deal.
            grow = True
            visits = self.visits(node) if learned or widening else 0
            guide = (self.learned_scores(g, node)
                     if learned and visits >= learned else None)
            if widening:
                tried = sum(1 for mv in legal if (p, mv) in children)
                grow = tried == 0 or tried < widening * math.sqrt(visits)
            fresh: tuple[float, Move] | None = None
            best: Node | None = None
            best_u = -1e9
            for mv in legal:
                child = children.get((p, mv))
                if child is None:
                    if grow:
                        value = self.move_worth(g, mv, guide) + rand.random() * 0.01
                        if fresh is None or value > fresh[0]:
                            fresh = (value, mv)
                    continue
                child.avail += 1
                if fresh is None:
                    u = child.w / child.n + c * math.sqrt(math.log(child.avail) / child.n)
                    if bias:
                        u += bias * self.move_worth(g, mv, guide) / child.n
                    if u > best_u:
                        best, best_u = child, u
            if fresh is not None:
                child = Node(p, fresh[1])
                children[(p, fresh[1])] = child
                g.play(fresh[1])
                path.append(child)
                break
            # Every legal move on offer has a visited child here, or widening holds the
            # rest back; either way a tried child beat -1e9.
            assert best is not None and best.move is not None
            g.play(best.move)
            path.append(best)
            node = best
        r0, m0 = self.rollout(g)
        if settings.spread_exploration:
            self.follow_spread(r0)
        for child in path:
            child.n += 1
            if child.player == 0:
                child.w += r0
                child.margin += m0
            else:
                child.w += 1.0 - r0
                child.margin -= m0
        self.iterations += 1

    def move_worth(self, g: Game, mv: Move,
                   guide: dict[tuple[int, Move], float] | None) -> float:
        """What guides the tree to ``mv``: untried moves are tried the most worth first,
        and the progressive bias adds the worth. The heuristic's move value, or the learned
        prior's score (``guide``) where that has taken over. (PUCT, ``Settings.prior``,
        follows its prior instead.)"""
        return guide[(g.to_play, mv)] if guide is not None else move_value(g, mv)

    def visits(self, node: Node) -> int:
        """How often the search has passed through ``node``: the root is on no iteration's
        path, so its count is the visits kept from an earlier search plus this one's."""
        return node.n + (self.iterations if node is self.root else 0)

    def select_puct(self, g: Game, node: Node) -> tuple[Move, Node, bool]:
        """PUCT (AlphaZero): the legal move maximising ``q + prior * P * sqrt(N + 1) / (1 + n)``,
        where P is a softmax of the heuristic's move values, N the visits of the moves on
        offer in this deal (plus one, so that the prior orders the first tries too) and an
        untried move's q the visit-weighted mean of the tried ones.
        (move, child, whether the child is new). With the heuristic as the prior it lost
        to UCB (docs/bots.md): the place for a learned prior, off by default."""
        p = g.to_play
        children = node.children
        legal = g.legal
        temp = self.settings.prior_temperature
        learned = self.settings.learned_prior
        if learned and self.visits(node) >= learned:
            scores = self.learned_scores(g, node)
            values = [scores[(p, mv)] / temp for mv in legal]
        else:
            values = [move_value(g, mv) / temp for mv in legal]
        top = max(values)
        weights = [math.exp(v - top) for v in values]
        total = sum(weights)
        visits = 0
        wins = 0.0
        found: list[Node | None] = []
        for mv in legal:
            child = children.get((p, mv))
            found.append(child)
            if child is not None:
                child.avail += 1
                visits += child.n
                wins += child.w
        fpu = wins / visits if visits else 0.5
        scale = self.settings.prior * math.sqrt(visits + 1) / total
        best_i, best_u = 0, -1e9
        for i, child in enumerate(found):
            if child is None or not child.n:
                u = fpu + scale * weights[i]
            else:
                u = child.w / child.n + scale * weights[i] / (1 + child.n)
            u += self.rand.random() * 1e-9
            if u > best_u:
                best_i, best_u = i, u
        mv = legal[best_i]
        chosen = found[best_i]
        if chosen is None:
            chosen = children[(p, mv)] = Node(p, mv)
            return mv, chosen, True
        return mv, chosen, False

    def learned_scores(self, g: Game, node: Node) -> dict[tuple[int, Move], float]:
        """The learned prior's score of every legal move at ``node`` in ``g``, worked out
        for the moves not seen here before (on this iteration's deal) and kept."""
        scores = node.scores
        if scores is None:
            scores = node.scores = {}
        p = g.to_play
        new = [mv for mv in g.legal if (p, mv) not in scores]
        if new:
            for mv, z in zip(new, logits(g, new), strict=True):
                scores[(p, mv)] = z
        return scores

    def follow_spread(self, r0: float) -> None:
        """Count one leaf reward and set UCB's constant to ``spread_exploration`` times the
        standard deviation of the leaf rewards so far.

        A cut-off playout's reward is a learned estimate, far less spread than a finished
        game's 0 or 1 (a standard deviation of 0.07 to 0.23 against up to 0.5), so the
        fixed constant explores almost evenly whatever the estimates say. Following the
        spread (2 is the balance plain ISMCTS's ``c = 2`` has over rewards of -1 and +1)
        makes the search independent of the rewards' scale. It did not win more games
        (docs/bots.md), so it is off by default.
        """
        self.reward_sum += r0
        self.reward_squares += r0 * r0
        n = self.iterations + 1  # this iteration's leaf included
        if n >= 2:
            mean = self.reward_sum / n
            variance = max(self.reward_squares / n - mean * mean, 1e-9)
            self.c = self.settings.spread_exploration * math.sqrt(variance)

    def rollout(self, g: Game) -> tuple[float, float]:
        """Play on from a new leaf: to the end, or ``horizon`` decisions and then on to the
        next turn's start, where the evaluation takes over. (reward, margin) for player 0."""
        settings = self.settings
        rand, epsilon = self.rand, settings.epsilon
        scale, share = settings.margin_scale, settings.margin_share
        if settings.horizon is None or len(g.pile) <= settings.endgame_pile:
            playout(g, rand, epsilon)
            return reward(g, scale, share)
        for _ in range(settings.horizon):
            if g.is_over:
                return reward(g, scale, share)
            g.play(best_move(g, rand, epsilon))
        for _ in range(SETTLE_LIMIT):
            if g.is_over or g.decision is Decision.PLAY:
                break
            g.play(best_move(g, rand, epsilon))
        return reward(g, scale, share) if g.is_over else estimate(g, scale, share)

    def estimates(self) -> list[Estimate]:
        """Root moves, most visited first; unvisited moves last with neutral values."""
        me = self.obs.player
        out = []
        for mv in self.obs.legal_moves:
            child = self.root.children.get((me, mv))
            if child is None or not child.n:
                out.append(Estimate(mv, 0, 0.5, 0.0))
            else:
                out.append(Estimate(mv, child.n, child.w / child.n, child.margin / child.n))
        out.sort(key=lambda e: (-e.visits, -e.win_rate))
        return out


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
        child = node.children.get((p, mv))
        if child is None:
            return None
        node = child
    return node


def fallback(obs: Observation, rand: random.Random) -> Move:
    """The heuristic's move on one sampled deal: used when a search had no time at all."""
    return best_move(determinize(obs, rand), rand)


class MCTSBot(Bot):
    """Information-set MCTS with heuristic playouts."""

    name = "mcts"
    description = "imagines hundreds of ways the next turns could go before each move: hard"
    default_budget = Budget(seconds=0.5)
    search_type: ClassVar[type[Search]] = Search
    """The search ``search`` runs: a benchmark's variant may change how it plays out or
    the order it expands moves in (benchmarks/variants.py). The expert's worker processes
    build ``Search`` itself."""

    def __init__(self, seed: int | None = None, *, reuse: bool = True,
                 **settings: Any) -> None:
        """``settings``: any field of ``Settings`` (a wrong name is a TypeError)."""
        super().__init__(seed)
        self.settings = Settings(**settings)
        self.reuse = reuse
        self.last_iterations = 0
        self._kept: Kept | None = None

    def search(
        self, obs: Observation, budget: Budget | None, cancel: threading.Event | None
    ) -> Search:
        clock = Stopwatch(budget, self.default_budget, cancel)
        search = self.search_type(obs, self.rand, self.settings, root=self.subtree(obs),
                        dealer=self.dealer_for(obs))
        search.run(clock)
        self.last_iterations = search.iterations
        if self.reuse:
            self._kept = (obs.player, obs.history, search.root)
        return search

    def dealer_for(self, obs: Observation) -> Dealer:
        """What deals the search's worlds: a fair ``Dealer`` of what ``obs`` cannot see. (A
        benchmark's subclass is told the opponent's hand here, to measure what knowing it
        would be worth: benchmarks/hand_oracle.py. The expert's searches do not ask it.)"""
        return Dealer(obs)

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

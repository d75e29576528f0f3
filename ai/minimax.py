"""Minimax: depth-limited alpha-beta over sampled deals (perfect-information Monte Carlo).

Each sample deals the unseen tiles and spirits with ``determinize``; within a deal the
chance events are fixed, so averaging the root values over many deals averages them.
Inner nodes look at the heuristic's best few moves only (a beam); a leaf first lets the
player to move finish their turn with the heuristic, then calls ``evaluate``.
"""

from __future__ import annotations

import random
import threading

from solstis_tui.core import Game, Move, Observation, determinize

from .base import Bot, Budget, Cancelled, Stopwatch
from .evaluate import evaluate
from .mcts import fallback
from .policy import finish_turn, ordered_moves

INF = float("inf")


class AlphaBeta:
    """Alpha-beta on one full game, from ``me``'s side, checking the clock as it goes."""

    def __init__(
        self, me: int, rand: random.Random, clock: Stopwatch, beam: int, check_every: int = 8
    ) -> None:
        self.me, self.rand, self.clock, self.beam = me, rand, clock, beam
        self.nodes = 0
        self.check_every = check_every

    def value(self, g: Game, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes % self.check_every == 0 and self.clock.out_of_time():
            raise Cancelled
        if g.is_over:
            return evaluate(g, self.me)
        if depth <= 0:
            finish_turn(g, self.rand)
            return evaluate(g, self.me)
        moves = ordered_moves(g)[: self.beam]
        maximize = g.to_play == self.me
        best = -INF if maximize else INF
        for mv in moves:
            child = g.copy()
            child.play(mv)
            v = self.value(child, depth - 1, alpha, beta)
            if maximize:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


class MinimaxBot(Bot):
    """Alpha-beta to a fixed depth (in decisions) on each of several sampled deals."""

    name = "minimax"
    description = "looks a few decisions ahead on sampled deals: medium"
    default_budget = Budget(seconds=1.0)

    def __init__(self, seed: int | None = None, depth: int = 3, beam: int = 4) -> None:
        super().__init__(seed)
        self.depth, self.beam = depth, beam
        self.last_samples = 0

    def rank(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> list[tuple[Move, float]]:
        """Legal moves, best first, each with its mean evaluation (star margin)."""
        moves = list(obs.legal_moves)
        if len(moves) == 1:
            return [(moves[0], 0.0)]
        clock = Stopwatch(budget, self.default_budget, cancel)
        totals = dict.fromkeys(moves, 0.0)
        samples = 0
        while not clock.done():
            values = self._sample(obs, clock)
            if values is None:
                break
            for mv, v in values.items():
                totals[mv] += v
            samples += 1
            clock.iterations += 1
        self.last_samples = samples
        if not samples:
            first = fallback(obs, self.rand)
            return [(first, 0.0)] + [(mv, 0.0) for mv in moves if mv != first]
        ranked = [(mv, totals[mv] / samples) for mv in moves]
        ranked.sort(key=lambda item: -item[1])
        return ranked

    def _sample(self, obs: Observation, clock: Stopwatch) -> dict[Move, float] | None:
        """Root move values on one fresh deal; None if the clock ran out meanwhile."""
        g = determinize(obs, self.rand)
        search = AlphaBeta(obs.player, self.rand, clock, self.beam)
        values = {}
        try:
            for mv in ordered_moves(g):
                child = g.copy()
                child.play(mv)
                values[mv] = search.value(child, self.depth - 1, -INF, INF)
        except Cancelled:
            return None
        return values

    def choose(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> Move:
        return self.rank(obs, budget, cancel)[0][0]

"""The minimax tier: depth-limited alpha-beta over sampled deals (perfect-information Monte
Carlo).

Each sample deals the unseen tiles and spirits with ``determinize``; within a deal the
chance events are fixed, so averaging the root values over many deals averages them. The
search on one deal is ``alphabeta.AlphaBeta``.
"""

from __future__ import annotations

import threading

from solstis_tui.core import Move, Observation, determinize

from .alphabeta import INF, AlphaBeta
from .base import Bot, Budget, Cancelled, Stopwatch
from .mcts import fallback
from .policy import ordered_moves


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
        g = determinize(obs, self.rand, quiet=True)
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

"""Alpha-beta on one full game (a sampled deal): the minimax tier's search.

Inner nodes look at the heuristic's best few moves only (a beam); a leaf first lets the
player to move finish their turn with the heuristic, then calls ``evaluate``.
"""

from __future__ import annotations

import random
from typing import Final

from solstis_tui.core import Game

from .clock import Cancelled, Stopwatch
from .evaluate import evaluate
from .policy import finish_turn, ordered_moves

INF: Final = float("inf")


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

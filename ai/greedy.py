"""Greedy: the move whose immediate result looks best, averaged over a few sampled deals."""

from __future__ import annotations

import threading

from solstis_tui.core import Move, Observation, determinize

from .base import Bot, Budget
from .evaluate import evaluate
from .policy import finish_turn


class GreedyBot(Bot):
    """Tries each legal move on a few determinizations, finishes its own turn with the
    heuristic policy, and keeps the move with the best evaluation (no look-ahead)."""

    name = "greedy"
    description = "takes whatever looks best right now, without planning: easy"
    default_budget = Budget(iterations=3)

    def __init__(self, seed: int | None = None, samples: int = 3) -> None:
        super().__init__(seed)
        self.samples = samples

    def rank(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> list[tuple[Move, float]]:
        moves = list(obs.legal_moves)
        if len(moves) == 1:
            return [(moves[0], 0.0)]
        me = obs.player
        totals = dict.fromkeys(moves, 0.0)
        done = 0
        for _ in range(self.samples):
            if done and cancel is not None and cancel.is_set():
                break
            base = determinize(obs, self.rand, quiet=True)
            for mv in moves:
                g = base.copy()
                g.play(mv)
                finish_turn(g, self.rand)
                totals[mv] += evaluate(g, me)
            done += 1
        ranked = [(mv, totals[mv] / done) for mv in moves]
        ranked.sort(key=lambda item: -item[1])
        return ranked

    def choose(
        self,
        obs: Observation,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
    ) -> Move:
        return self.rank(obs, budget, cancel)[0][0]

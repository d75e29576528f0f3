"""Bots for the benchmarks that are not tiers: mcts variants tried against plain ISMCTS and
not adopted, and the bare heuristic, for the arena and the agreement benchmark to replay:

    PYTHONPATH=benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:SpreadExploration@0.25s,plain-ismcts@0.25s --games 400 --seed 3031 --jobs 2
    PYTHONPATH=benchmarks .venv/bin/python benchmarks/bot_agreement.py --a variants:Heuristic \\
        --b plain-ismcts --reference mcts --positions 200 --time 0.25 --reference-factor 8

(docs/bots.md, "Against plain ISMCTS", has their figures).
"""

from __future__ import annotations

import threading

from solstis_tui.ai.base import Bot, Budget
from solstis_tui.ai.mcts import MCTSBot, fallback
from solstis_tui.core import Move, Observation


class SpreadExploration(MCTSBot):
    """UCB's constant at twice the standard deviation of the leaf rewards."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, spread_exploration=2.0)


class HeuristicPrior(MCTSBot):
    """PUCT over a softmax of the heuristic's move values (temperature 1 star)."""

    def __init__(self, seed: int | None = None, prior: float = 0.3) -> None:
        super().__init__(seed, prior=prior)


class Heuristic(Bot):
    """The heuristic's favourite move (policy.move_value) on one sampled deal: what mcts's
    playouts play, and what its progressive bias and expansion order follow."""

    name = "heuristic"

    def choose(self, obs: Observation, budget: Budget | None = None,
               cancel: threading.Event | None = None) -> Move:
        return fallback(obs, self.rand)

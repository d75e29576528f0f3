"""mcts variants tried against plain ISMCTS and not adopted, for the arena to replay:

    PYTHONPATH=benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:SpreadExploration@0.25s,plain-ismcts@0.25s --games 400 --seed 3031 --jobs 2

(docs/bots.md, "Against plain ISMCTS", has their figures).
"""

from __future__ import annotations

from solstis_tui.ai.mcts import MCTSBot


class SpreadExploration(MCTSBot):
    """UCB's constant at twice the standard deviation of the leaf rewards."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, spread_exploration=2.0)

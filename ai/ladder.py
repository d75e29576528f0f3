"""How strong each bot tier is: the one place the figures live.

Each rung is a tier's arena result against the tier below (base game, held-out seed 3031,
every deal from both seats; ``benchmarks/bot_strength.py --pairs ladder``). The opponent
list ("MCTS bot · wins 66% vs Minimax") and the online host's starting bot ratings read
them here; docs/bots.md's ladder table shows them (``tests/ai/test_ladder.py`` checks that
it agrees), and research/runs/bots-history.md keeps the runs that came before.
"""

from __future__ import annotations

from dataclasses import dataclass

from .arena_stats import wilson


@dataclass(frozen=True)
class Rung:
    """``tier`` (at ``budget``) against ``below`` (at ``below_budget``) over ``games``
    games: won, drawn, lost, and the mean star margin."""

    tier: str
    budget: str
    below: str
    below_budget: str
    games: int
    won: int
    drawn: int
    lost: int
    margin: float
    measured: str

    @property
    def score(self) -> float:
        """The share of points (a draw counts half)."""
        return (self.won + self.drawn / 2) / self.games

    @property
    def interval(self) -> tuple[float, float]:
        """The score's 95% Wilson interval."""
        return wilson(self.score, self.games)

    @property
    def percent(self) -> int:
        """The score as a whole percentage, as the opponent list says it."""
        return round(100 * self.score)


#: Weakest first: each tier against the one below it, search bots at 0.25 s a decision (a
#: quarter of the minimax's default, half the mcts's), the expert at four times the mcts's
#: time (as the defaults are).
LADDER: tuple[Rung, ...] = (
    Rung("greedy", "greedy", "random", "random", 200, 160, 3, 37, 8.10, "2026-12-05"),
    Rung("minimax", "minimax@0.25s", "greedy", "greedy", 200, 128, 8, 64, 3.91, "2026-12-05"),
    Rung("mcts", "mcts@0.25s", "minimax", "minimax@0.25s", 200, 131, 1, 68, 4.795,
         "2026-12-05"),
    Rung("expert", "expert@1s (2 cores)", "mcts", "mcts@0.25s", 400, 224, 15, 161, 2.12,
         "2026-12-02"),
)

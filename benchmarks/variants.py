"""Bots for the benchmarks that are not tiers: mcts variants tried against plain ISMCTS and
not adopted, and the bare heuristic, for the arena and the agreement benchmark to replay:

    PYTHONPATH=benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:SpreadExploration@0.25s,plain-ismcts@0.25s --games 400 --seed 3031 --jobs 2
    PYTHONPATH=benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:PlainReuse@0.25s,plain-ismcts@0.25s --games 200 --seed 1001 --jobs 2
    PYTHONPATH=benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:SpiritGames@0.25s,mcts@0.25s --games 400 --seed 1001 --jobs 2
    PYTHONPATH=benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:RandomLate@1s,plain-ismcts@1s --games 200 --seed 3031 --jobs 2
    PYTHONPATH=benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:UnguidedTree@1s,plain-ismcts@1s --games 200 --seed 3031 --jobs 2
    PYTHONPATH=benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:WinOnly@1s,plain-ismcts@1s --games 200 --seed 8081 --jobs 1
    PYTHONPATH=benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:ExploreLess@1s,plain-ismcts@1s --games 200 --seed 8081 --jobs 1
    PYTHONPATH=benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:ExploreMore@1s,plain-ismcts@1s --games 200 --seed 8081 --jobs 1
    PYTHONPATH=benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:UnguidedWinOnly@1s,plain-ismcts@1s --games 200 --seed 8082 --jobs 2
    PYTHONPATH=benchmarks .venv/bin/python benchmarks/bot_regret.py \\
        --bots mcts,variants:WinShare95,variants:WinOnly --positions 400 --time 1 \\
        --reference-iterations 2000 --jobs 2
    PYTHONPATH=benchmarks .venv/bin/python benchmarks/bot_agreement.py --a variants:Heuristic \\
        --b plain-ismcts --reference mcts --positions 200 --time 0.25 --reference-factor 8

(docs/bots.md, "Against plain ISMCTS", has their figures).
"""

from __future__ import annotations

import threading
from typing import Any

from solstis_tui.ai.base import Bot, Budget
from solstis_tui.ai.baselines import PlainISMCTS, PlainNode
from solstis_tui.ai.mcts import MCTSBot, Search, continue_from, fallback, reward
from solstis_tui.ai.policy import playout
from solstis_tui.core import Decision, Game, Move, Observation


class SpreadExploration(MCTSBot):
    """UCB's constant at twice the standard deviation of the leaf rewards."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, spread_exploration=2.0)


class ExploreLess(MCTSBot):
    """UCB's constant at 0.35 instead of 0.7: half the exploration."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, exploration=0.35)


class ExploreMore(MCTSBot):
    """UCB's constant at 1.4 instead of 0.7: twice the exploration."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, exploration=1.4)


class SpiritGames(MCTSBot):
    """Draw-or-take and keep decisions searched with random playouts to the end."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, random_to_end=frozenset({Decision.ENCOUNTER, Decision.KEEP}))


class WinShare95(MCTSBot):
    """The reward 95% the win and 5% the margin, instead of 80% and 20%."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, margin_share=0.05)


class WinOnly(MCTSBot):
    """The reward the win alone (a draw half), with no margin part."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, margin_share=0.0)


class HeuristicPrior(MCTSBot):
    """PUCT over a softmax of the heuristic's move values (temperature 1 star)."""

    def __init__(self, seed: int | None = None, prior: float = 0.3) -> None:
        super().__init__(seed, prior=prior)


class LearnedPrior(MCTSBot):
    """At nodes visited 8 times or more, the learned prior (ai/prior.py) instead of the
    heuristic orders the expansions and gives the progressive bias."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, learned_prior=8)


class LearnedPUCT(MCTSBot):
    """PUCT (constant 0.3) over the learned prior from a node's second visit on."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, prior=0.3, learned_prior=1)


class RandomLateSearch(Search):
    """mcts's search until its root has been visited ``late`` times (the visits kept from
    earlier in the turn included), then plain ISMCTS's leaves: uniformly random moves to the
    end of the game, judged by the finished game (with mcts's mix of win and margin)."""

    late = 1000

    def rollout(self, g: Game) -> tuple[float, float]:
        if self.visits(self.root) < self.late:
            return super().rollout(g)
        playout(g, self.rand, 1.0)
        return reward(g, self.settings.margin_scale, self.settings.margin_share)


class RandomLate(MCTSBot):
    """mcts whose searches turn to random games to the end once their root has 1,000
    visits: a schedule from the learned value's low-noise but biased judgement, which
    edges ahead at 0.25 s, to the unbiased one plain ISMCTS gains from as time grows. At
    1 s each it scored 47.5% against plain ISMCTS where mcts scored 49.0% on the same 200
    games (docs/bots.md)."""

    search_type = RandomLateSearch


class UnguidedTreeSearch(Search):
    """mcts's search with untried moves tried in random order instead of the heuristic's."""

    def move_worth(self, g: Game, mv: Move,
                   guide: dict[tuple[int, Move], float] | None) -> float:
        return 0.0  # the expansion adds a random tie-break


class UnguidedTree(MCTSBot):
    """mcts with no Solstis knowledge in its tree: untried moves in random order and no
    progressive bias; the heuristic's playouts, the learned value, the reward, the
    exploration constant and the tree reuse stay mcts's. At 1 s each it scored 50.7%
    against plain ISMCTS where mcts scored 49.0% on the same 200 games (docs/bots.md)."""

    search_type = UnguidedTreeSearch

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        super().__init__(seed, bias=0.0, **settings)


class UnguidedWinOnly(UnguidedTree):
    """The two swaps that came out ahead of mcts at 1 s, together: no heuristic in the tree
    (``UnguidedTree``) and the win alone as the reward (``WinOnly``); the heuristic's
    playouts, the learned value, the exploration constant and the tree reuse stay mcts's."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, margin_share=0.0)


class Heuristic(Bot):
    """The heuristic's favourite move (policy.move_value) on one sampled deal: what mcts's
    playouts play, and what its progressive bias and expansion order follow."""

    name = "heuristic"

    def choose(self, obs: Observation, budget: Budget | None = None,
               cancel: threading.Event | None = None) -> Move:
        return fallback(obs, self.rand)


class PlainReuse(PlainISMCTS):
    """Plain ISMCTS that goes on from its tree at the next decision of a turn, as mcts
    does (``mcts.continue_from``); nothing else of mcts."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.kept: Any = None

    def root_for(self, obs: Observation) -> PlainNode:
        # continue_from walks any tree whose nodes keep children by (player, move), as
        # PlainNode does; it is typed for mcts's Node, hence the ignore below.
        root = continue_from(self.kept, obs) or PlainNode(1 - obs.player)
        self.kept = (obs.player, obs.history, root)
        return root  # type: ignore[no-any-return]


class Hybrid(Bot):
    """mcts while the land pile holds more than ``switch`` tiles, then ``PlainReuse``."""

    name = "hybrid"
    switch = 10

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.early = MCTSBot(self.rand.randrange(2**32))
        self.late = PlainReuse(self.rand.randrange(2**32))

    def choose(self, obs: Observation, budget: Budget | None = None,
               cancel: threading.Event | None = None) -> Move:
        bot = self.early if obs.land_pile > self.switch else self.late
        return bot.choose(obs, budget or self.default_budget, cancel)  # "Hybrid@0.25s"

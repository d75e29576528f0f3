"""Bots for the lab that are not tiers: mcts variants tried against plain ISMCTS and not
adopted, and the bare heuristic, for the arena and the regret and agreement scripts to
replay. They are built from the shipped search's parts and this folder's (strategies.py).
From the repository's root, with research/ and benchmarks/ on the path, a variant plays in
the arena as ``variants:NAME``:

    PYTHONPATH=research:benchmarks .venv/bin/python -m solstis_tui.ai.arena \\
        --bots variants:NAME@TIME,OPPONENT@TIME --games GAMES --seed SEED --jobs JOBS

with, for the runs research/EXPERIMENTS.md publishes (add ``--record FILE`` to keep one):

    NAME                  OPPONENT       TIME   GAMES  SEED  JOBS
    SpreadExploration     plain-ismcts   0.25s  400    3031  1     (and 1s, 60 games)
    PlainReuse            plain-ismcts   0.25s  200    1001  2
    Hybrid                plain-ismcts   0.25s  200    1001  2
    PlainReuse            plain-ismcts   1s     200    3031  2
    SpiritGames           mcts           0.25s  400    1001  2
    RandomLate            plain-ismcts   1s     200    3031  2
    UnguidedTree          plain-ismcts   1s     200    3031  2
    WinOnly               plain-ismcts   1s     200    8081  1     (mcts@1s alike, beside it)
    ExploreLess           plain-ismcts   1s     200    8081  1
    ExploreMore           plain-ismcts   1s     200    8081  1
    UnguidedWinOnly       plain-ismcts   1s     200    8082  2
    the 0.25 s screens    plain-ismcts   0.25s  100    1001  2     (EndgamePile: 200 games)
    (HeuristicPrior, HeuristicPriorStrong, Widening, EndgamePile, NoTreeReuse, Explore03,
    Epsilon03, NoBias, RandomPlayouts, HeuristicToEnd, RandomToEndEverywhere)

mcts against ``variants:PlainReuse`` head to head: ``--bots
mcts@0.25s,variants:PlainReuse@0.25s --games 400 --seed 6061 --jobs 2``. The regret and
agreement runs:

    PYTHONPATH=research:benchmarks .venv/bin/python research/bot_regret.py --positions 400 \\
        --bots mcts,variants:SpiritGames,variants:SpiritGamesHeuristic,variants:RainbowGames \\
        --time 0.25 --repeats 2 --reference-iterations 2000 --jobs 2
    PYTHONPATH=research:benchmarks .venv/bin/python research/bot_regret.py --positions 400 \\
        --bots mcts,variants:RandomToEndEverywhere --time 0.25 --repeats 2 \\
        --reference-iterations 2000 --jobs 2
    PYTHONPATH=research:benchmarks .venv/bin/python research/bot_regret.py \\
        --bots mcts,variants:LearnedPrior,variants:LearnedPUCT --positions 400 --time 0.25 \\
        --repeats 2 --reference-iterations 2000 --jobs 2
    PYTHONPATH=research:benchmarks .venv/bin/python research/bot_regret.py \\
        --bots mcts,variants:WinShare95,variants:WinOnly --positions 400 --time 1 \\
        --reference-iterations 2000 --jobs 2
    PYTHONPATH=research:benchmarks .venv/bin/python research/bot_agreement.py \\
        --a variants:Heuristic --b plain-ismcts --reference mcts --positions 150 --time 0.25 \\
        --reference-factor 8

research/README.md says which command gave which figure. Those figures were measured
before the engine and the shipped search parts were compiled (2026-12), with pure-Python
bots: a timed run today gives every bot more iterations a decision, and variants whose tree
policy is written here (PUCT, widening, the learned prior, the unguided tree) fewer than
the shipped parts get. Every variant builds the same search as the old ``Settings`` field
or subclass it replaces, draw for draw (research/EXPERIMENTS.md, "Names that changed").
"""

from __future__ import annotations

import threading

from solstis_tui.ai.base import Bot, Budget
from solstis_tui.ai.baselines import PlainISMCTS
from solstis_tui.ai.mcts import MCTSBot, Settings, fallback
from solstis_tui.ai.search import (
    Evaluator,
    GuidedUCB,
    HeuristicCutoff,
    Kept,
    RandomToEnd,
    RandomUCB,
    Search,
    TreePolicy,
    continue_from,
)
from solstis_tui.core import Decision, Move, Observation

from strategies import (
    PUCT,
    FollowSpread,
    LearnedScores,
    PlayToEnd,
    RandomLateLeaves,
    ResearchMCTS,
    ResearchUCB,
    UnguidedUCB,
)
from strategies import (
    EndgamePile as EndgameLeaves,
)


def cutoff(settings: Settings) -> HeuristicCutoff:
    """mcts's evaluator with ``settings``' numbers."""
    return HeuristicCutoff(settings.epsilon, settings.horizon, settings.margin_scale,
                           settings.margin_share)


class SpreadExploration(ResearchMCTS):
    """UCB's constant at twice the standard deviation of the leaf rewards."""

    spread = 2.0

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        s = self.settings
        tree = GuidedUCB(s.exploration, s.bias)
        return tree, FollowSpread(cutoff(s), tree, self.spread)


class ExploreLess(MCTSBot):
    """UCB's constant at 0.35 instead of 0.7: half the exploration."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, settings=Settings(exploration=0.35))


class ExploreMore(MCTSBot):
    """UCB's constant at 1.4 instead of 0.7: twice the exploration."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, settings=Settings(exploration=1.4))


class SpiritGames(ResearchMCTS):
    """Draw-or-take and keep decisions searched with random playouts to the end (judged by
    the finished game with mcts's mix of win and margin); the rest stays mcts's, the tree
    kept from earlier in the turn included."""

    random_to_end = frozenset({Decision.ENCOUNTER, Decision.KEEP})

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        tree, evaluator = self.settings.parts()
        if obs.decision in self.random_to_end:
            s = self.settings
            return tree, PlayToEnd(1.0, s.margin_scale, s.margin_share)
        return tree, evaluator


class WinShare95(MCTSBot):
    """The reward 95% the win and 5% the margin, instead of 80% and 20%."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, settings=Settings(margin_share=0.05))


class WinOnly(MCTSBot):
    """The reward the win alone (a draw half), with no margin part."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, settings=Settings(margin_share=0.0))


class HeuristicPrior(ResearchMCTS):
    """PUCT over a softmax of the heuristic's move values (temperature 1 star)."""

    def __init__(self, seed: int | None = None, prior: float = 0.3) -> None:
        super().__init__(seed)
        PUCT(prior)  # a senseless constant is refused here, not mid-game
        self.prior = prior

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        return PUCT(self.prior), cutoff(self.settings)


class LearnedScoresKept(ResearchMCTS):
    """A bot whose searches score moves with the learned prior: the scores are kept
    with the tree through a turn (as the old ``Node.scores`` were) and dropped with it."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.scores = LearnedScores()

    def learned_scores(self, obs: Observation) -> LearnedScores:
        if self.subtree(obs) is None:
            self.scores = LearnedScores()
        return self.scores


class LearnedPrior(LearnedScoresKept):
    """At nodes visited 8 times or more, the learned prior (research/prior.py) instead of
    the heuristic orders the expansions and gives the progressive bias."""

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        s = self.settings
        tree = ResearchUCB(s.exploration, s.bias, learned_prior=8,
                           scores=self.learned_scores(obs))
        return tree, cutoff(s)


class LearnedPUCT(LearnedScoresKept):
    """PUCT (constant 0.3) over the learned prior from a node's second visit on."""

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        return (PUCT(0.3, learned_prior=1, scores=self.learned_scores(obs)),
                cutoff(self.settings))


class RandomLateSearch(RandomLateLeaves):
    """What RandomLate changes in mcts's search: its leaves are mcts's until the root has
    been visited ``late`` times (the visits kept from earlier in the turn included), then
    plain ISMCTS's: uniformly random moves to the end of the game, judged by the finished
    game (with mcts's mix of win and margin). (Before searches were built from parts this
    was a ``Search`` subclass; it is now the evaluator.)"""

    def __init__(self, settings: Settings) -> None:
        super().__init__(cutoff(settings), 1000, settings.margin_scale, settings.margin_share)


class RandomLate(ResearchMCTS):
    """mcts whose searches turn to random games to the end once their root has 1,000
    visits: a schedule from the learned value's low-noise but biased judgement, which
    edges ahead at 0.25 s, to the unbiased one plain ISMCTS gains from as time grows. At
    1 s each it scored 47.5% against plain ISMCTS where mcts scored 49.0% on the same 200
    games (research/EXPERIMENTS.md)."""

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        s = self.settings
        return GuidedUCB(s.exploration, s.bias), RandomLateSearch(s)


class UnguidedTreeSearch(UnguidedUCB):
    """What UnguidedTree changes in mcts's search: untried moves tried in random order
    instead of the heuristic's, with no progressive bias. (Before searches were built from
    parts this was a ``Search`` subclass; it is now the tree policy.)"""


class UnguidedTree(ResearchMCTS):
    """mcts with no Solstis knowledge in its tree: untried moves in random order and no
    progressive bias; the heuristic's playouts, the learned value, the reward, the
    exploration constant and the tree reuse stay mcts's. At 1 s each it scored 50.7%
    against plain ISMCTS where mcts scored 49.0% on the same 200 games
    (research/EXPERIMENTS.md)."""

    def __init__(self, seed: int | None = None, settings: Settings | None = None) -> None:
        super().__init__(seed, settings=settings or Settings(bias=0.0))

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        s = self.settings
        return UnguidedTreeSearch(s.exploration, s.bias), cutoff(s)


class UnguidedWinOnly(UnguidedTree):
    """The two swaps that came out ahead of mcts at 1 s, together: no heuristic in the tree
    (``UnguidedTree``) and the win alone as the reward (``WinOnly``); the heuristic's
    playouts, the learned value, the exploration constant and the tree reuse stay mcts's."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, Settings(bias=0.0, margin_share=0.0))


class Heuristic(Bot):
    """The heuristic's favourite move (policy.move_value) on one sampled deal: what mcts's
    playouts play, and what its progressive bias and expansion order follow."""

    name = "heuristic"

    def choose(self, obs: Observation, budget: Budget | None = None,
               cancel: threading.Event | None = None) -> Move:
        return fallback(obs, self.rand)


class PlainReuse(PlainISMCTS):
    """Plain ISMCTS that goes on from its tree at the next decision of a turn, as mcts
    does (``search.continue_from``); nothing else of mcts."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.kept: Kept | None = None

    def search(self, obs: Observation) -> Search:
        search = Search(obs, self.rand, RandomUCB(self.exploration), RandomToEnd(),
                        root=continue_from(self.kept, obs))
        self.kept = (obs.player, obs.history, search.root)
        return search


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


# ------------------------------------------- screens and regret rows (no class of their own before)
class Widening(ResearchMCTS):
    """Progressive widening: a node visited n times offers at most ``widening`` times
    sqrt(n) tried moves before it grows another (the ``widening=1`` screen)."""

    widening = 1.0

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        s = self.settings
        return ResearchUCB(s.exploration, s.bias, widening=self.widening), cutoff(s)


class EndgamePile(ResearchMCTS):
    """From a land pile of ``pile`` tiles or fewer, playouts go on to the end of the game
    (no learned value): the ``endgame_pile=6`` screen."""

    pile = 6

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        s = self.settings
        return GuidedUCB(s.exploration, s.bias), EndgameLeaves(cutoff(s), self.pile)



class HeuristicPriorStrong(HeuristicPrior):
    """PUCT over the heuristic's softmax with constant 1 (the screen's second PUCT row)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, prior=1.0)


class NoTreeReuse(MCTSBot):
    """mcts with a fresh tree at every decision."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, reuse=False)


class Explore03(MCTSBot):
    """UCB's constant at 0.3 instead of 0.7 (the 0.25 s screen)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, settings=Settings(exploration=0.3))


class Epsilon03(MCTSBot):
    """Playouts choose at random 30% of the time instead of 10%."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, settings=Settings(epsilon=0.3))


class NoBias(MCTSBot):
    """No progressive bias (the heuristic still orders the expansions)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, settings=Settings(bias=0.0))


class RandomPlayouts(MCTSBot):
    """Playouts choose uniformly at random (epsilon 1), 8 decisions and the learned value."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, settings=Settings(epsilon=1.0))


class HeuristicToEnd(ResearchMCTS):
    """The heuristic's playouts (epsilon 0.1) to the end of the game, no learned value."""

    epsilon = 0.1

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        s = self.settings
        return (GuidedUCB(s.exploration, s.bias),
                PlayToEnd(self.epsilon, s.margin_scale, s.margin_share))


class RandomToEndEverywhere(HeuristicToEnd):
    """Uniformly random playouts to the end at every decision (plain ISMCTS's playouts,
    with mcts's tree reuse, expansion order, bias and reward): the screen's "epsilon=1,
    horizon=None" row and the regret table's "every decision random to the end"."""

    epsilon = 1.0


class SpiritGamesHeuristic(ResearchMCTS):
    """Draw-or-take and keep decisions searched with the heuristic's playouts (epsilon 0.1)
    to the end of the game; the rest stays mcts's (a regret row)."""

    def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
        tree, evaluator = self.settings.parts()
        if obs.decision in SpiritGames.random_to_end:
            s = self.settings
            return tree, PlayToEnd(s.epsilon, s.margin_scale, s.margin_share)
        return tree, evaluator


class RainbowGames(SpiritGames):
    """Rainbow placements searched with random playouts to the end (a regret row)."""

    random_to_end = frozenset({Decision.PLACE_RAINBOW})

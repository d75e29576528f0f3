"""The search parts measured and not adopted (research/strategies.py): exploration that
follows the spread of its rewards (``FollowSpread``), PUCT over the heuristic's move values
(``PUCT``), whole random games for chosen decisions (``variants.SpiritGames``), random
games once the root has enough visits (``RandomLateLeaves``), playouts to the end from a
small land pile (``EndgamePile``), progressive widening, and the margin's share of the
reward (``variants.WinOnly``)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from solstis_tui.ai.base import Budget
from solstis_tui.ai.mcts import Settings
from solstis_tui.ai.policy import ordered_moves
from solstis_tui.ai.search import (
    MARGIN_SCALE,
    Estimate,
    Evaluator,
    GuidedUCB,
    HeuristicCutoff,
    Node,
    Search,
    TreePolicy,
    mix,
)
from solstis_tui.ai.value import value
from solstis_tui.core import Dealer, Decision, Game, Move, Observation

import variants
from lab_positions import positions
from strategies import (
    PUCT,
    EndgamePile,
    FollowSpread,
    RandomLateLeaves,
    ResearchMCTS,
    ResearchUCB,
    UnguidedUCB,
    searched,
)

SPREAD = 2.0


def estimates(g: Game, seed: int, iterations: int, tree: TreePolicy,
              evaluator: Evaluator) -> list[Estimate]:
    """The root estimates of one search of ``g``, most visited first."""
    return searched(g.observation(g.to_play), random.Random(seed), tree, evaluator,
                    iterations).estimates()


def spread_parts(bias: float = 0.05, evaluator: Evaluator | None = None,
                 spread: float = SPREAD) -> tuple[TreePolicy, Evaluator]:
    tree = GuidedUCB(0.7, bias)
    return tree, FollowSpread(evaluator or HeuristicCutoff(), tree, spread)


class Squeezed:
    """Passes ``inner``'s judgement on with every reward squeezed to a quarter of its
    distance from 1/2."""

    def __init__(self, inner: Evaluator) -> None:
        self.inner = inner

    def judge(self, search: Search, g: Game) -> tuple[float, float, float]:
        r0, r1, m0 = self.inner.judge(search, g)
        return 0.5 + (r0 - 0.5) / 4, 0.5 + (r1 - 0.5) / 4, m0


class Recorded:
    """Passes ``inner``'s judgement on and notes each judged game: (over?, reward for
    player 0, the game)."""

    def __init__(self, inner: Evaluator) -> None:
        self.inner = inner
        self.seen: list[tuple[bool, float, Game]] = []

    def judge(self, search: Search, g: Game) -> tuple[float, float, float]:
        r0, r1, m0 = self.inner.judge(search, g)
        self.seen.append((g.is_over, r0, g))
        return r0, r1, m0


def root_visits(game_index: int, squeeze: bool) -> list[int]:
    g = positions("base", 6, seed=21)[game_index]
    leaves: Evaluator = HeuristicCutoff()
    if squeeze:
        leaves = Squeezed(leaves)
    found = estimates(g, 3, 300, *spread_parts(bias=0.0, evaluator=leaves))
    return [e.visits for e in sorted(found, key=lambda e: str(e.move))]


@pytest.mark.parametrize("game_index", range(6))
def test_squeezed_rewards_are_searched_the_same(game_index: int) -> None:
    """Squeezing every reward to a quarter of its distance from 1/2 does not change where
    the search spends its iterations (with the fixed constant it spread them more evenly)."""
    assert root_visits(game_index, squeeze=True) == root_visits(game_index, squeeze=False)


def searched_most(g: Game, seed: int, iterations: int, tree: TreePolicy,
                  evaluator: Evaluator) -> tuple[Move, float]:
    """(most visited root move, its share of the visits) after one search."""
    found = estimates(g, seed, iterations, tree, evaluator)
    return found[0].move, found[0].visits / sum(e.visits for e in found)


def top_share(spread: float) -> float:
    """The most visited root move's share of the visits, averaged over 12 positions
    (spread 0: the shipped fixed constant)."""
    shares = []
    for g in positions("base", 12, seed=22):
        parts = spread_parts(spread=spread) if spread else (GuidedUCB(), HeuristicCutoff())
        shares.append(searched_most(g, 4, 400, *parts)[1])
    return sum(shares) / len(shares)


def test_following_the_spread_focuses_the_search() -> None:
    """The fixed constant, sized for 0/1 rewards, gives the best move about as many
    iterations as the rest (46% on these positions); following the spread, it gets most."""
    assert top_share(SPREAD) > 0.55 > top_share(0.0)


def test_a_sharp_prior_steers_the_search_to_the_heuristics_favourite() -> None:
    """With PUCT over a sharp softmax of the heuristic's move values, the search spends
    most of its iterations on the heuristic's favourite; UCB (no prior) spreads them."""
    games = [g for g in positions("base", 16, seed=23) if len(g.legal_moves()) >= 3][:8]
    steered = [searched_most(g, 5, 300, PUCT(1.0, temperature=0.2), HeuristicCutoff())
               for g in games]
    assert sum(mv == ordered_moves(g)[0] for g, (mv, _) in zip(games, steered, strict=True)) >= 5
    plain_share = sum(searched_most(g, 5, 300, GuidedUCB(), HeuristicCutoff())[1]
                      for g in games) / len(games)
    assert sum(share for _, share in steered) / len(games) > plain_share + 0.3


@pytest.mark.parametrize("make", [
    lambda: PUCT(0.3, temperature=0.0),
    lambda: PUCT(-1.0),
    lambda: PUCT(0.3, learned_prior=-1),
    lambda: ResearchUCB(learned_prior=-1),
    lambda: variants.HeuristicPrior(1, prior=-1.0),
], ids=["zero temperature", "negative prior", "PUCT's negative visits", "UCB's negative visits",
        "the bot"])
def test_a_senseless_prior_is_refused_when_the_bot_is_made(make: Callable[[], object]) -> None:
    """A zero temperature would divide by zero mid-game, a negative prior favour the
    heuristic's worst moves, a negative number of visits would switch the learned prior on
    everywhere: all are refused at once, with the reason."""
    with pytest.raises(ValueError, match="prior"):
        make()


def test_the_knobs_off_walk_exactly_as_the_shipped_tree_policy() -> None:
    """``ResearchUCB`` with widening and the learned prior off is ``GuidedUCB`` step for
    step (the same random draws, the same trees): the variants built on it differ from
    mcts only by their knob."""
    for i, g in enumerate(positions("base", 4, seed=24)):
        shipped = estimates(g, i, 150, GuidedUCB(), HeuristicCutoff())
        assert estimates(g, i, 150, ResearchUCB(), HeuristicCutoff()) == shipped


def test_chosen_decisions_are_judged_by_whole_games_and_the_rest_by_the_value() -> None:
    """``variants.SpiritGames`` searches which drawn spirit to keep, early in a game (more
    than 10 tiles in the land pile, so cut-off playouts would ask the learned value), by
    playing every playout to the end, never asking the value; its search of which tile to
    play still cuts its playouts short and asks it."""
    found = positions("base", 400, seed=5)
    keep = next(g for g in found if g.decision is Decision.KEEP and len(g.pile) > 10)
    play = next(g for g in found if g.decision is Decision.PLAY)
    bot = variants.SpiritGames(1)
    for g, cut_off in ((keep, False), (play, True)):
        obs = g.observation(g.to_play)
        tree, evaluator = bot.parts(obs)
        recorded = Recorded(evaluator)
        searched(obs, random.Random(1), tree, recorded, 100)
        unfinished = sum(not over for over, _, _ in recorded.seen)
        if cut_off:
            assert unfinished > 50
        else:
            assert len(recorded.seen) == 100 and unfinished == 0


def test_leaves_turn_random_once_the_root_has_enough_visits() -> None:
    """``RandomLateLeaves`` hands the leaves to random games to the end once the root
    has been visited ``late`` times: before that most are cut off, after it none is."""
    g = next(g for g in positions("base", 40, seed=25) if len(g.pile) > 15)
    recorded = Recorded(RandomLateLeaves(HeuristicCutoff(), late=60))
    searched(g.observation(g.to_play), random.Random(2), GuidedUCB(), recorded, 120)
    early = [over for over, _, _ in recorded.seen[:60]]
    late = [over for over, _, _ in recorded.seen[60:]]
    assert sum(early) < 10 and all(late)


def test_from_a_small_land_pile_playouts_go_to_the_end() -> None:
    """``EndgamePile``: a leaf whose land pile holds ``pile`` tiles or fewer is played to
    the end; a leaf with more is cut off and judged by the learned value."""
    found = positions("base", 200, seed=26)
    small = next(g for g in found if 0 < len(g.pile) <= 4 and g.decision is Decision.PLAY)
    large = next(g for g in found if len(g.pile) > 20 and g.decision is Decision.PLAY)
    for g, pile, all_over in ((small, 6, True), (large, 6, False)):
        recorded = Recorded(EndgamePile(HeuristicCutoff(), pile))
        searched(g.observation(g.to_play), random.Random(3), GuidedUCB(), recorded, 60)
        overs = [over for over, _, _ in recorded.seen]
        assert all(overs) if all_over else sum(overs) < 10


def test_widening_holds_new_moves_back_until_the_node_is_visited_enough() -> None:
    """Progressive widening: after n visits the root has grown at most about sqrt(n)
    children, where the shipped walk tries every move at once."""
    g = next(g for g in positions("base", 60, seed=27) if len(g.legal_moves()) >= 12)
    obs = g.observation(g.to_play)
    widened = searched(obs, random.Random(4), ResearchUCB(widening=1.0), HeuristicCutoff(), 36)
    shipped = searched(obs, random.Random(4), GuidedUCB(), HeuristicCutoff(), 36)
    assert len(widened.root.children) <= 7
    assert len(shipped.root.children) == len(obs.legal_moves)


def test_an_unguided_tree_tries_moves_in_an_order_the_heuristic_does_not_set() -> None:
    """``UnguidedUCB`` expands the root's moves in random order: over a few seeds its first
    try is not always the heuristic's favourite, as the shipped walk's is."""
    g = next(g for g in positions("base", 30, seed=28) if len(g.legal_moves()) >= 4)
    obs = g.observation(g.to_play)
    favourite = ordered_moves(g)[0]
    firsts = set()
    for seed in range(8):
        tree = UnguidedUCB()
        search = Search(obs, random.Random(seed), tree, HeuristicCutoff())
        search.iterate()
        [first] = search.root.children.values()
        firsts.add(first.move)
        shipped = Search(obs, random.Random(seed), GuidedUCB(), HeuristicCutoff())
        shipped.iterate()
        assert [c.move for c in shipped.root.children.values()] == [favourite]
    assert len(firsts) > 1


class SeenHands:
    """A tree policy that notes the opponent's hand in every world it is given, then walks
    as ``inner`` does."""

    def __init__(self, inner: TreePolicy, opponent: int) -> None:
        self.inner = inner
        self.opponent = opponent
        self.hands: list[tuple[int, ...]] = []

    def descend(self, search: Search, g: Game, path: list[Node]) -> None:
        self.hands.append(tuple(g.hands[self.opponent]))
        self.inner.descend(search, g, path)


def test_the_search_deals_its_worlds_from_the_bots_dealer() -> None:
    """``ResearchMCTS.dealer`` is where a subclass changes what the search deals (the
    hand-oracle script tells its bot the opponent's hand there): every iteration deals one
    world from it; without it the deals are fair."""
    import dataclasses

    g = positions("base", 4)[3]
    me, opp = g.to_play, 1 - g.to_play
    told = tuple(sorted(g.hands[opp]))

    class Watching(ResearchMCTS):
        telling = True

        def parts(self, obs: Observation) -> tuple[TreePolicy, Evaluator]:
            tree, evaluator = super().parts(obs)
            self.watch = SeenHands(tree, opp)
            return self.watch, evaluator

        def dealer(self, obs: Observation) -> Dealer | None:
            if not self.telling:
                return None
            return Dealer(dataclasses.replace(obs, opponent_known=told), quiet=True)

    bot = Watching(seed=1)
    bot.choose(g.observation(me), Budget(iterations=40))
    assert len(bot.watch.hands) == bot.last_iterations == 40
    assert set(bot.watch.hands) == {told}
    fair = Watching(seed=1)
    fair.telling = False
    fair.choose(g.observation(me), Budget(iterations=40))
    assert len(set(fair.watch.hands)) > 5


def test_a_win_only_reward_tells_no_margin_apart() -> None:
    """``margin_share=0`` (``variants.WinOnly``): every result the search counts is the win
    alone (1, 0, or 1/2 for a draw; a cut-off position's learned win chance), whatever the
    stars; the shipped share still counts them, and a share outside 0 to 1 is refused."""
    assert {mix(1.0, m, MARGIN_SCALE, 0.0) for m in (-30, 0, 2, 40)} == {1.0}
    assert mix(1.0, 10, MARGIN_SCALE) > mix(1.0, 2, MARGIN_SCALE)
    g = positions("base", 6, seed=21)[3]
    bot = variants.WinOnly(3)
    assert bot.settings.margin_share == 0.0
    for evaluator, win_only in ((bot.settings.parts()[1], True),
                                (Settings().parts()[1], False)):
        recorded = Recorded(evaluator)
        searched(g.observation(g.to_play), random.Random(3), GuidedUCB(), recorded, 50)
        wins = []
        for over, r0, world in recorded.seen:
            wins.append(r0 in (0.0, 0.5, 1.0) if over else r0 == value(world, 0)[1])
        assert len(wins) == 50 and all(wins) == win_only
    with pytest.raises(ValueError, match="margin_share"):
        Settings(margin_share=1.5)

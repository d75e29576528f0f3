"""MCTS's optional ways to steer its search: exploration that follows the spread of its
rewards (``spread_exploration``), PUCT over the heuristic's move values (``prior``),
whole random games for chosen decisions (``random_to_end``) and the margin's share of the
reward (``margin_share``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from solstis_tui.ai import mcts
from solstis_tui.ai.base import Budget, Stopwatch
from solstis_tui.ai.policy import ordered_moves
from solstis_tui.ai.registry import make_bot
from solstis_tui.core import Decision, Game, Move

from .conftest import positions

SPREAD = 2.0


def searched(g: Game, seed: int, iterations: int, **settings: Any) -> list[mcts.Estimate]:
    """The root estimates of one search of ``g`` for ``iterations``, most visited first."""
    search = mcts.Search(g.observation(g.to_play), random.Random(seed),
                         mcts.Settings(**settings))
    search.run(Stopwatch(Budget(iterations=iterations), Budget(iterations=iterations), None))
    return search.estimates()


def root_visits(game_index: int) -> list[int]:
    g = positions("base", 6, seed=21)[game_index]
    estimates = searched(g, 3, 300, bias=0.0, spread_exploration=SPREAD)
    return [e.visits for e in sorted(estimates, key=lambda e: str(e.move))]


@pytest.mark.parametrize("game_index", range(6))
def test_squeezed_rewards_are_searched_the_same(monkeypatch, game_index: int) -> None:
    """Squeezing every reward to a quarter of its distance from 1/2 does not change where
    the search spends its iterations (with the fixed constant it spread them more evenly)."""
    plain = root_visits(game_index)
    mix = mcts.mix
    monkeypatch.setattr(mcts, "mix", lambda *args: 0.5 + (mix(*args) - 0.5) / 4)
    assert root_visits(game_index) == plain


def searched_most(g: Game, seed: int, iterations: int,
                  **settings: Any) -> tuple[Move, float]:
    """(most visited root move, its share of the visits) after one search."""
    estimates = searched(g, seed, iterations, **settings)
    return estimates[0].move, estimates[0].visits / sum(e.visits for e in estimates)


def top_share(spread: float) -> float:
    """The most visited root move's share of the visits, averaged over 12 positions."""
    shares = [searched_most(g, 4, 400, spread_exploration=spread)[1]
              for g in positions("base", 12, seed=22)]
    return sum(shares) / len(shares)


def test_following_the_spread_focuses_the_search() -> None:
    """The fixed constant, sized for 0/1 rewards, gives the best move about as many
    iterations as the rest (46% on these positions); following the spread, it gets most."""
    assert top_share(SPREAD) > 0.55 > top_share(0.0)


def test_a_sharp_prior_steers_the_search_to_the_heuristics_favourite() -> None:
    """With PUCT over a sharp softmax of the heuristic's move values, the search spends
    most of its iterations on the heuristic's favourite; UCB (no prior) spreads them."""
    games = [g for g in positions("base", 16, seed=23) if len(g.legal_moves()) >= 3][:8]
    steered = [searched_most(g, 5, 300, prior=1.0, prior_temperature=0.2) for g in games]
    assert sum(mv == ordered_moves(g)[0] for g, (mv, _) in zip(games, steered, strict=True)) >= 5
    plain_share = sum(searched_most(g, 5, 300)[1] for g in games) / len(games)
    assert sum(share for _, share in steered) / len(games) > plain_share + 0.3


@pytest.mark.parametrize("settings", [{"prior_temperature": 0.0}, {"prior": -1.0},
                                      {"learned_prior": -1}])
def test_a_senseless_prior_is_refused_when_the_bot_is_made(settings: dict[str, float]) -> None:
    """A zero temperature would divide by zero mid-game, a negative prior favour the
    heuristic's worst moves, a negative number of visits would switch the learned prior on
    everywhere: all are refused at once, with the reason."""
    with pytest.raises(ValueError, match="prior"):
        make_bot("mcts", 1, **settings)


def test_chosen_decisions_are_judged_by_whole_games_and_the_rest_by_the_value(
        monkeypatch) -> None:
    """With ``random_to_end`` naming the keep decision, a search of which drawn spirit to
    keep, early in a game (more than 10 tiles in the land pile, so cut-off playouts would
    ask the learned value), plays every playout to the end and never asks the value; a
    search of which tile to play still cuts its playouts short and asks it."""
    judged: list[Game] = []
    estimate = mcts.estimate

    def counted(g: Game, scale: float, margin_share: float) -> tuple[float, float]:
        judged.append(g)
        return estimate(g, scale, margin_share)

    monkeypatch.setattr(mcts, "estimate", counted)
    found = positions("base", 400, seed=5)
    keep = next(g for g in found if g.decision is Decision.KEEP and len(g.pile) > 10)
    play = next(g for g in found if g.decision is Decision.PLAY)
    to_end = frozenset({Decision.KEEP})
    searched(keep, 1, 100, random_to_end=to_end)
    assert judged == []
    searched(play, 1, 100, random_to_end=to_end)
    assert len(judged) > 50


def test_the_search_deals_its_worlds_from_the_bots_dealer() -> None:
    """``MCTSBot.dealer_for`` is where a subclass changes what the search deals (the
    hand-oracle benchmark tells its bot the opponent's hand there): every iteration deals
    one world from it."""
    from solstis_tui.core import Dealer

    class Counting(Dealer):
        deals = 0

        def deal(self, rand: random.Random) -> Game:
            Counting.deals += 1
            return super().deal(rand)

    class CountingBot(mcts.MCTSBot):
        def dealer_for(self, obs):
            return Counting(obs)

    g = positions("base", 4)[3]
    bot = CountingBot(seed=1)
    bot.choose(g.observation(g.to_play), Budget(iterations=40))
    assert Counting.deals == bot.last_iterations == 40


def test_a_win_only_reward_tells_no_margin_apart(monkeypatch) -> None:
    """``margin_share=0``: every result the search counts is the win alone (1, 0, or 1/2
    for a draw; a cut-off position's learned win chance), whatever the stars; the shipped
    share still counts them, and a share outside 0 to 1 is refused."""
    assert {mcts.mix(1.0, m, mcts.MARGIN_SCALE, 0.0) for m in (-30, 0, 2, 40)} == {1.0}
    assert mcts.mix(1.0, 10, mcts.MARGIN_SCALE) > mcts.mix(1.0, 2, mcts.MARGIN_SCALE)
    shares: list[float] = []
    mix = mcts.mix

    def counted(win: float, margin: float, scale: float, margin_share: float) -> float:
        shares.append(margin_share)
        return mix(win, margin, scale, margin_share)

    monkeypatch.setattr(mcts, "mix", counted)
    searched(positions("base", 6, seed=21)[3], 3, 50, margin_share=0.0)
    assert len(shares) == 50 and set(shares) == {0.0}
    with pytest.raises(ValueError, match="margin_share"):
        mcts.Settings(margin_share=1.5)

"""research/hand_oracle.py's told dealer: the opponent holds the told hand, and the rest
of every deal stays as fair and as random as ``Dealer``'s."""

from __future__ import annotations

import random

import pytest

from solstis_tui.ai.base import Budget

from hand_oracle import ToldMCTS, tell_hand, told_dealer
from lab_positions import positions


def test_the_told_hand_is_dealt_and_the_rest_stays_random() -> None:
    for g in positions("base", 6, seed=3):
        me, opp = g.to_play, 1 - g.to_play
        dealer = told_dealer(g.observation(me), tuple(g.hands[opp]))
        everything = sorted([*g.pile, *g.hands[0], *g.hands[1],
                             *(t for t in g.face_down if t >= 0)])
        tops = set()
        for seed in range(30):
            world = dealer.deal(random.Random(seed))
            assert world.hands[opp] == sorted(g.hands[opp])
            assert world.hands[me] == g.hands[me]
            assert [t >= 0 for t in world.face_down] == [t >= 0 for t in g.face_down]
            assert sorted([*world.pile, *world.hands[0], *world.hands[1],
                           *(t for t in world.face_down if t >= 0)]) == everything
            if world.pile:
                tops.add(world.pile[-1])
        assert len(tops) > 5 or len(g.pile) < 3


def test_the_told_bot_searches_with_the_hand_the_arena_tells_it() -> None:
    """``tell_hand`` (the arena's peek) gives ``ToldMCTS`` the real hand, and its search
    deals from a dealer told that hand; untold, it refuses to play."""
    g = positions("base", 4, seed=4)[2]
    bot = ToldMCTS(seed=1)
    with pytest.raises(RuntimeError, match="tells it the hand"):
        bot.choose(g.observation(g.to_play), Budget(iterations=5))
    tell_hand(bot, g)
    search = bot.search(g.observation(g.to_play), Budget(iterations=20), None)
    assert search.iterations == 20
    assert sorted(search.dealer.obs.opponent_known) == sorted(g.hands[1 - g.to_play])

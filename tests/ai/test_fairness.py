"""Bots see only their observation: hidden changes to the real game change nothing."""

from __future__ import annotations

import random
import threading

import pytest

from ai.base import Budget
from ai.registry import TIERS, make_bot
from solstis_tui.core import Game

from .conftest import VARIANTS, positions

BUDGETS = {"minimax": Budget(iterations=2), "mcts": Budget(iterations=40),
           "expert": Budget(iterations=40)}


def hidden_twin(g: Game, me: int, rand: random.Random) -> Game:
    """A copy of ``g`` that differs only in what ``me`` cannot see: the land pile order,
    the unrevealed tiles of the opponent's hand, the face-down display tiles, the spirit
    pile order and the random state."""
    h = g.copy()
    opp = 1 - me
    known = h.seen[me]
    hidden = list(h.pile) + [t for t in h.down if t >= 0]
    swappable = [t for t in h.hands[opp] if not known >> t & 1]
    rand.shuffle(hidden)
    if swappable and hidden:
        out, inn = swappable[0], hidden.pop()
        hidden.append(out)
        h.hands[opp] = sorted([t for t in h.hands[opp] if t != out] + [inn])
        rand.shuffle(hidden)
    h.down = [hidden.pop() if t >= 0 else -1 for t in h.down]
    h.pile = hidden
    rand.shuffle(h.spile)
    h.rng ^= 0x5DEECE66D
    return h


def twins(variant: str, count: int) -> list[tuple[Game, Game]]:
    rand = random.Random(99)
    out = []
    for g in positions(variant, count, seed=21):
        h = hidden_twin(g, g.to_play, rand)
        out.append((g, h))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_twins_differ_in_hidden_parts_only(variant: str) -> None:
    pairs = twins(variant, 8)
    assert any(g.pile != h.pile or g.hands != h.hands for g, h in pairs)
    for g, h in pairs:
        assert g.observation(g.to_play) == h.observation(g.to_play)


@pytest.mark.parametrize("tier", list(TIERS))
def test_choice_does_not_depend_on_hidden_information(tier: str) -> None:
    for variant in VARIANTS:
        for g, h in twins(variant, 4):
            me = g.to_play
            a = make_bot(tier, seed=7).choose(g.observation(me), BUDGETS.get(tier))
            b = make_bot(tier, seed=7).choose(h.observation(me), BUDGETS.get(tier))
            assert a == b


def test_rank_does_not_depend_on_hidden_information() -> None:
    g, h = twins("firefly", 3)[2]
    me = g.to_play
    budget = Budget(iterations=50)
    assert (make_bot("mcts", 3).rank(g.observation(me), budget)
            == make_bot("mcts", 3).rank(h.observation(me), budget))


@pytest.mark.parametrize("tier", ["minimax", "mcts", "expert"])
def test_cancelled_search_still_returns_a_legal_move(tier: str) -> None:
    g = positions("base", 6, seed=2)[5]
    obs = g.observation(g.to_play)
    stop = threading.Event()
    stop.set()
    assert make_bot(tier, 1).choose(obs, Budget(seconds=30), stop) in g.legal_moves()


@pytest.mark.parametrize("tier", ["greedy", "minimax", "mcts", "expert"])
def test_search_stops_when_cancelled_midway(tier: str) -> None:
    g = positions("firefly", 4, seed=6)[3]
    obs = g.observation(g.to_play)
    stop = threading.Event()
    timer = threading.Timer(0.05, stop.set)
    timer.start()
    try:
        move = make_bot(tier, 1).choose(obs, Budget(seconds=60), stop)
    finally:
        timer.cancel()
    assert move in g.legal_moves()

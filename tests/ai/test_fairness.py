"""Bots see only their observation: hidden changes to the real game change nothing."""

from __future__ import annotations

import random
import threading

import pytest

from solstis_tui.ai.base import Budget
from solstis_tui.ai.registry import BASELINES, TIERS, make_bot
from solstis_tui.core import Game, Observation

from .conftest import VARIANTS, positions

BUDGETS = {"minimax": Budget(iterations=2), "mcts": Budget(iterations=40),
           "expert": Budget(iterations=40), "plain-ismcts": Budget(iterations=40)}
SEARCHERS = ["minimax", "mcts", "expert", "plain-ismcts"]
"""The bots that search until their budget is spent (random and greedy do not search)."""
BOTS = [*TIERS, *BASELINES]
"""Every tier and the arena's yardsticks."""


def hidden_twin(g: Game, me: int, rand: random.Random) -> Game:
    """A copy of ``g`` that differs only in what ``me`` cannot see: the land pile order,
    the unrevealed tiles of the opponent's hand, the face-down display tiles, the spirit
    pile order and the random state."""
    h = g.copy()
    opp = 1 - me
    known = h.revealed[me]
    hidden = list(h.pile) + [t for t in h.face_down if t >= 0]
    swappable = [t for t in h.hands[opp] if not known >> t & 1]
    rand.shuffle(hidden)
    if swappable and hidden:
        out, inn = swappable[0], hidden.pop()
        hidden.append(out)
        h.hands[opp] = sorted([t for t in h.hands[opp] if t != out] + [inn])
        rand.shuffle(hidden)
    h.face_down = [hidden.pop() if t >= 0 else -1 for t in h.face_down]
    h.pile = hidden
    rand.shuffle(h.spirit_pile)
    h.draw_state ^= 0x5DEECE66D
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


@pytest.mark.parametrize("tier", BOTS)
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


UNBOUNDED = Budget(iterations=10**9)
"""No time limit and more iterations than any search finishes: only ``cancel`` stops it."""

HARD_TIMEOUT = 5.0
"""Seconds a cancelled bot gets to return; the contract is a check every 10 ms."""


class WatchedCancel(threading.Event):
    """A cancel event that notes when the bot has looked at it a few times."""

    def __init__(self, looks: int = 3) -> None:
        super().__init__()
        self.looked = threading.Event()
        self._looks_left = looks

    def is_set(self) -> bool:
        self._looks_left -= 1
        if self._looks_left <= 0:
            self.looked.set()
        return super().is_set()


def choose_in_thread(tier: str, obs: Observation, cancel: threading.Event,
                     ) -> tuple[threading.Thread, list[object]]:
    """Start ``choose`` with an unbounded budget; the list gets the move or the error."""
    out: list[object] = []

    def run() -> None:
        try:
            out.append(make_bot(tier, 1).choose(obs, UNBOUNDED, cancel))
        except Exception as exc:  # reported by the test, not lost in the thread
            out.append(exc)

    thread = threading.Thread(target=run, name=f"choose-{tier}", daemon=True)
    thread.start()
    return thread, out


def assert_returns_a_legal_move(tier: str, g: Game, thread: threading.Thread,
                                out: list[object]) -> None:
    thread.join(HARD_TIMEOUT)
    assert not thread.is_alive(), f"{tier} ignored cancel: still searching"
    assert len(out) == 1 and out[0] in g.legal_moves(), out


@pytest.mark.parametrize("tier", BOTS)
def test_cancelled_search_still_returns_a_legal_move(tier: str) -> None:
    """Cancel already set: the bot returns at once instead of using its budget."""
    g = positions("base", 6, seed=2)[5]
    cancel = threading.Event()
    cancel.set()
    thread, out = choose_in_thread(tier, g.observation(g.to_play), cancel)
    assert_returns_a_legal_move(tier, g, thread, out)


@pytest.mark.parametrize("tier", SEARCHERS)
def test_search_stops_when_cancelled_midway(tier: str) -> None:
    """Cancel set while the search runs (it has checked cancel a few times): it stops."""
    g = positions("firefly", 4, seed=6)[3]
    cancel = WatchedCancel()
    thread, out = choose_in_thread(tier, g.observation(g.to_play), cancel)
    started = cancel.looked.wait(HARD_TIMEOUT)
    cancel.set()
    assert started or not thread.is_alive(), f"{tier} never looks at cancel"
    assert_returns_a_legal_move(tier, g, thread, out)

"""The judge: the same seed gives the same verdict, and only the judged seat's
observation counts (hidden changes to the real game change nothing)."""

from __future__ import annotations

import random

import pytest

from solstis_tui.ai.judge import judge

from .conftest import VARIANTS, positions
from .test_fairness import hidden_twin, twins


def test_the_same_seed_gives_the_same_verdict() -> None:
    g = positions("base", 1, seed=5)[0]
    obs = g.observation(g.to_play)
    assert judge(obs, 9, 120, 8, None, 20) == judge(obs, 9, 120, 8, None, 20)
    assert judge(obs, 9, 120, 8, None, 20) != judge(obs, 10, 120, 8, None, 20)


def test_every_legal_move_is_judged_with_an_error() -> None:
    g = positions("firefly", 1, seed=6)[0]
    obs = g.observation(g.to_play)
    assert len(obs.legal_moves) > 2
    verdict = judge(obs, 1, 10, 6, None, 12)  # fewer iterations than the moves need
    assert {v.move for v in verdict.moves} == set(obs.legal_moves)
    assert all(v.results >= 6 and 0 <= v.win <= 1 and v.margin_error > 0
               for v in verdict.moves)
    assert verdict.moves[0].margin == max(v.margin for v in verdict.moves)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_deciding_seat_is_judged_from_its_observation_only(variant: str) -> None:
    for g, h in twins(variant, 3):
        me = g.to_play
        played = g.legal[-1]
        assert (judge(g.observation(me), 4, 80, 6, played, 12)
                == judge(h.observation(me), 4, 80, 6, played, 12))


def test_the_other_seat_is_judged_from_its_observation_only() -> None:
    rand = random.Random(5)
    for g in positions("base", 3, seed=8):
        other = 1 - g.to_play
        h = hidden_twin(g, other, rand)
        assert g.observation(other) == h.observation(other)
        played = g.legal[0]
        assert (judge(g.observation(other), 4, 80, 6, played, 12)
                == judge(h.observation(other), 4, 80, 6, played, 12))

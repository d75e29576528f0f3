"""Glicko-2 as Glickman describes it (2012): the paper's worked example, to its digits."""

from __future__ import annotations

import pytest

from solstis_tui.host.glicko2 import MAX_RD, SCALE, Rating, rate


def test_the_papers_worked_example():
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                           (Rating(1700, 300), 0.0)])
    # The paper's own figures are on the Glicko-2 scale, to 4 places: mu' = -0.2069,
    # phi' = 0.8722; it converts the rounded mu' to 1464.06 (the exact figure is 1464.0507:
    # a rounding of mu' in its 4th place is worth 0.009 here), and cuts sigma' = 0.059996
    # to 0.05999.
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.rd / SCALE, 4) == 0.8722
    assert after.vol == pytest.approx(0.05999, abs=0.00001)
    assert after.vol == pytest.approx(0.0599960, abs=0.0000001)  # step 5 to its tolerance
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.005)


def test_a_period_without_games_only_widens_the_deviation_up_to_a_newcomers():
    idle = rate(Rating(1600, 100, 0.06), [])
    assert (idle.rating, idle.vol) == (1600, 0.06) and idle.rd > 100
    assert Rating(1600, 340, 0.06).idle(1000).rd == MAX_RD


def test_a_win_against_a_stronger_player_gains_more_than_against_a_weaker_one():
    me = Rating(1500, 100, 0.06)
    strong = rate(me, [(Rating(1800, 60), 1.0)]).rating - 1500
    weak = rate(me, [(Rating(1200, 60), 1.0)]).rating - 1500
    assert strong > weak > 0
    assert Rating(1500, 111).provisional and not Rating(1500, 110).provisional

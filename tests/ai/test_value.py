"""The learned value: one story from both seats, it favours who is ahead, and the tool
that fits it writes weights the bots can read."""

from __future__ import annotations

import json
import random

import pytest

from ai.features import FEATURES
from ai.policy import best_move
from ai.value import Linear, models, value
from solstis_tui.core import Decision, Game, Options
from solstis_tui.core.scoring import score

from .conftest import VARIANTS, positions


def test_every_variant_has_weights_for_every_feature() -> None:
    assert set(models()) == set(VARIANTS)
    for model in models().values():
        assert len(model.margin.late) == len(model.win.early) == len(FEATURES)


def test_both_seats_read_the_same_position_the_same_way(variant: str) -> None:
    for g in positions(variant, 30, seed=3):
        if g.is_over:
            continue
        margin0, win0 = value(g, 0)
        margin1, win1 = value(g, 1)
        assert margin0 == pytest.approx(-margin1)
        assert win0 + win1 == pytest.approx(1.0)
        assert 0.0 < win0 < 1.0


def test_the_player_far_ahead_late_in_the_game_is_the_favourite() -> None:
    """Greedy against random: at turn starts near the end, whoever leads by 8 stars or
    more is expected to win, on margin and on chance."""
    rand = random.Random(1)
    seen = 0
    for deal in range(12):
        g = Game.new(seed=deal, options=Options.for_variant("base"))
        while not g.is_over:
            p = g.to_play
            if g.decision is Decision.PLAY and len(g.pile) < 10:
                lead = score(g, p).total - score(g, 1 - p).total
                if abs(lead) >= 8:
                    leader = p if lead > 0 else 1 - p
                    margin, win = value(g, leader)
                    assert margin > 0 and win > 0.5, (deal, lead, margin, win)
                    seen += 1
            g.play(best_move(g, rand) if p == 0 else rand.choice(g.legal_moves()))
    assert seen >= 10


def test_weights_without_a_feature_are_refused_by_name() -> None:
    data = models()["base"].margin.to_json()
    del data["weights"]["near_squares"]
    with pytest.raises(ValueError, match="near_squares"):
        Linear.from_json(data)


def test_the_fitting_tool_writes_weights_that_load_and_predict(tmp_path) -> None:
    from tools import fit_value

    out = tmp_path / "weights.json"
    assert fit_value.main(["--games", "80", "--variants", "base", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    base = data["variants"]["base"]
    margin = Linear.from_json(base["margin"])
    assert margin.late[FEATURES.index("biggest_section")] > 0
    assert base["held_out"]["margin_r2"] > 0
    assert 0.5 < base["held_out"]["win_accuracy"] <= 1.0
    assert not list(tmp_path.glob("*.tmp"))

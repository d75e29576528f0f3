"""The learned value: it calls winners better than the hand-written evaluation, favours
who is far ahead, and the tool that fits it writes weights the bots can read."""

from __future__ import annotations

import json
import random

import pytest

from solstis_tui.ai.evaluate import evaluate
from solstis_tui.ai.features import FEATURES, features
from solstis_tui.ai.policy import best_move
from solstis_tui.ai.value import Linear, models, value
from solstis_tui.core import Decision, Game, Options
from solstis_tui.core.board import parse_cell
from solstis_tui.core.scoring import score

from ..core.positions import position
from .conftest import VARIANTS


def turn_starts(variant: str, deals: range, epsilon: tuple[float, float], seed: int):
    """(game at a turn start, final winner) from heuristic self-play of ``deals``."""
    rand = random.Random(seed)
    for deal in deals:
        g = Game.new(seed=deal, options=Options.for_variant(variant))
        starts = []
        while not g.is_over:
            if g.decision is Decision.PLAY:
                starts.append(g.copy())
            g.play(best_move(g, rand, epsilon[g.to_play]))
        yield from ((start, g.winner) for start in starts)


def test_every_variant_has_a_model() -> None:
    assert set(models()) == set(VARIANTS)


@pytest.mark.parametrize("variant", ["base", "firefly"])
def test_it_calls_the_winner_more_often_than_the_hand_written_evaluation(
        variant: str) -> None:
    """Mid-game turn starts of games never used for fitting: whose margin is positive."""
    learned = hand = total = 0
    for g, winner in turn_starts(variant, range(7_000_000, 7_000_150), (0.1, 0.1), 4):
        if winner is None or not 6 <= len(g.pile) <= 20:
            continue
        total += 1
        learned += (value(g, winner)[0] > 0)
        hand += (evaluate(g, winner) > 0)
    assert total > 1000
    assert learned > hand + 0.01 * total, (learned, hand, total)


def test_the_player_far_ahead_late_in_the_game_is_the_favourite() -> None:
    """Greedy against random: at turn starts near the end, whoever leads by 8 stars or
    more is expected to win, on margin and on chance. Not always: a rival about to
    capture tiles that join their sections can be the favourite (one of these positions
    is such an end phase), but nearly always, and with a high chance on average."""
    chances = []
    for g, _ in turn_starts("base", range(12), (0.0, 1.0), 1):
        p = g.to_play
        lead = score(g, p).total - score(g, 1 - p).total
        if len(g.pile) < 10 and abs(lead) >= 8:
            margin, win = value(g, p if lead > 0 else 1 - p)
            chances.append((margin, win))
    assert len(chances) >= 10
    favourite = sum(margin > 0 and win > 0.5 for margin, win in chances)
    assert favourite >= 0.9 * len(chances), chances
    assert sum(win for _, win in chances) / len(chances) > 0.8


def test_three_fireflies_make_a_firefly_player_the_favourite() -> None:
    """One more square ends the game in their favour (rules.md §10)."""
    chances = []  # 200 deals: 60 held too few such positions for a steady mean
    for g, _ in turn_starts("firefly", range(200), (0.1, 0.1), 2):
        counts = [g.fireflies[p].bit_count() for p in (0, 1)]
        if sorted(counts) == [0, 3] or sorted(counts) == [1, 3]:
            chances.append(value(g, counts.index(3))[1])
    assert len(chances) >= 5
    assert sum(chances) / len(chances) > 0.6


def test_weights_for_other_features_are_refused_by_name() -> None:
    data = models()["base"].margin.to_json()
    del data["weights"]["near_squares"]
    data["weights"]["old_feature"] = [1.0, 0.0]
    with pytest.raises(ValueError, match="near_squares, old_feature"):
        Linear.from_json(data)


def test_the_fitting_tool_writes_weights_that_load_and_predict(tmp_path) -> None:
    from tools import fit_value

    out = tmp_path / "weights.json"
    assert fit_value.main(["--games", "400", "--variants", "base", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["features"] == list(FEATURES)
    base = data["variants"]["base"]
    margin = Linear.from_json(base["margin"])
    assert margin.base[FEATURES.index("biggest_section")] > 0
    assert base["held_out"]["margin_r2"] > 0.1
    assert base["held_out"]["win_accuracy"] > 0.55
    assert not list(tmp_path.glob("*.tmp"))


def test_shape_features_see_room_to_grow_and_the_cells_that_join_sections() -> None:
    """Row 1, columns 1-2 and a lone 1-4: open 1-3 would join them (a bridge). When the
    opponent holds 2-1, 2-2 and 1-3, the biggest section is hemmed in and cannot reach
    1-4 any more."""
    def shape(opponent: list[str]) -> dict[str, float]:
        g = position(p0={"hand": ["6-4"], "land": ["1-1", "1-2", "1-4"]},
                     p1={"hand": ["6-5"], "land": opponent})
        named = dict(zip(FEATURES, features(g, 0), strict=True))
        return {k: named[k] for k in ("frontier", "bridges", "reach")}

    free = shape(["6-7"])
    assert free["frontier"] == 3  # 2-1, 2-2, 1-3
    assert free["bridges"] == 1   # 1-3 joins 1-4
    assert free["reach"] == 47    # every cell but the opponent's 6-7
    hemmed = shape(["2-1", "2-2", "1-3"])
    assert hemmed == {"frontier": 0, "bridges": 0, "reach": 2}


def test_square_features_tell_a_square_in_reach_from_one_only_a_rainbow_can_fill() -> None:
    """1-1, 1-2, 2-1: the square at 1-1 wants 2-2, still to come. 1-5, 1-6, 2-5: the square
    at 1-5 wants 2-6, which the opponent holds. Two of four cells: the squares at 1-4 (1-5,
    2-5), 2-8 and 3-8 (3-8, 3-9). In Firefly, the Evil Spirit on 2-2 kills the first."""
    g = position(p0={"hand": ["6-4"], "land": ["1-1", "1-2", "2-1", "1-5", "1-6", "2-5",
                                               "3-8", "3-9"]},
                 p1={"hand": ["6-5"], "land": ["2-6"]})

    def squares() -> dict[str, float]:
        named = dict(zip(FEATURES, features(g, 0), strict=True))
        return {k: named[k] for k in ("near_squares", "blocked_near_squares", "half_squares")}

    assert squares() == {"near_squares": 1, "blocked_near_squares": 1, "half_squares": 3}
    g.evil_player, g.evil_cell = 0, parse_cell("2-2")
    assert squares() == {"near_squares": 0, "blocked_near_squares": 1, "half_squares": 3}


def test_the_fitting_tool_can_fit_a_bots_own_games(tmp_path) -> None:
    from solstis_tui.core import Game, Options
    from tools import fit_value

    # A bot that always makes the first legal move plays the deal exactly as a replay does.
    rows = fit_value.play_chunk("base", 3, 0, 1, player="tests.tui.bots:BackwardsRanker")
    game = Game.new(3 * 1_000_003, Options.for_variant("base"))
    while not game.is_over:
        game.play(game.legal_moves()[0])
    margin0 = game.score(0).total - game.score(1).total
    assert rows[0][-2] == margin0 and {r[-2] for r in rows} <= {margin0, -margin0}
    out = tmp_path / "weights.json"
    assert fit_value.main(["--games", "40", "--variants", "base", "--player", "greedy",
                           "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["fitted"]["player"] == "greedy"
    Linear.from_json(data["variants"]["base"]["win"])


def test_the_fitting_tool_plays_the_epsilons_it_is_given(tmp_path, monkeypatch, capsys) -> None:
    from tools import fit_value

    used: set[float] = set()
    real_best_move = fit_value.best_move

    def recording(g, rand, epsilon=0.0):
        used.add(epsilon)
        return real_best_move(g, rand, epsilon)

    monkeypatch.setattr(fit_value, "best_move", recording)
    fit_value.play_chunk("base", 3, 0, 2, epsilons=(0.2,))
    assert used == {0.2}
    out = tmp_path / "weights.json"
    assert fit_value.main(["--games", "40", "--variants", "base", "--epsilons", "0.1,0.3",
                           "--out", str(out)]) == 0
    assert json.loads(out.read_text())["fitted"]["epsilons"] == [0.1, 0.3]
    with pytest.raises(SystemExit):
        fit_value.main(["--epsilons", "0.1,lots", "--out", str(tmp_path / "bad.json")])
    assert "--epsilons takes numbers separated by commas" in capsys.readouterr().err
    assert not (tmp_path / "bad.json").exists()

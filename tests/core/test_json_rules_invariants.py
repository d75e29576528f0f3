"""Loading checks the rules' end conditions: a Firefly position with four
fireflies for a player and no end is refused (rules.md §10); a turn start with an empty
land pile where nobody can capture is played on to its end at once (rules.md §8)."""

from __future__ import annotations

import json
import random

import pytest

from solstis_tui.core import Decision, Game, InvalidPosition, Options
from solstis_tui.core.events import EndReason, GameEnded

from .positions import position

FOUR = ["1-1", "1-3", "1-5", "1-7"]
ROW12 = [f"{r}-{c}" for r in (1, 2) for c in range(1, 9)]


def _four_fireflies(**extra) -> Game:
    return position(p0={"hand": ["6-6"], "land": ROW12, "fireflies": FOUR},
                    p1={"hand": ["6-7"]}, options={"firefly": True}, **extra)


def test_s10_four_fireflies_in_a_game_in_play_are_refused_with_the_fix():
    with pytest.raises(InvalidPosition) as info:
        _four_fireflies()
    message = str(info.value)
    assert "player 0 has 4 fireflies but the game is not over" in message
    assert "rules.md §10" in message and '"winner": 0, "reason": "fireflies"' in message


def test_s10_four_fireflies_in_a_finished_game_load():
    game = _four_fireflies(over={"winner": 0, "reason": "fireflies"})
    assert game.is_over and game.winner == 0 and game.end_reason is EndReason.FIREFLIES


def test_s8_turn_start_where_nobody_can_capture_ends_on_load():
    """Empty land pile, 5-5 and 6-7 capture nothing on display: the game is over; p0's
    bigger section wins."""
    game = position(p0={"hand": ["5-5"], "land": ["1-1", "1-2", "1-3"]},
                    p1={"hand": ["6-7"], "land": ["3-1"]}, display=[["2-9", None]],
                    empty_pile=True)
    assert game.is_over and game.end_reason is EndReason.NORMAL and game.winner == 0
    assert game.legal_moves() == [] and game.decision is None
    assert game.log[-1] == GameEnded(EndReason.NORMAL, 0)


def test_s8_a_pending_play_decision_counts_as_a_turn_start():
    """The same end position written with its pending decision, as to_json writes it."""
    data = json.loads(Game.new(seed=5).to_json())
    for pile in data["display"]:
        data["removed"] += [t for t in pile if t]
    data["removed"] += data["land_pile"]
    data["display"], data["land_pile"] = [], []
    assert data["state"]["decision"] == "play"
    game = Game.from_json(json.dumps(data))
    assert game.is_over and game.end_reason is EndReason.NORMAL


def test_s8_a_turn_start_where_someone_can_capture_stays_in_play():
    game = position(p0={"hand": ["5-5"]}, p1={"hand": ["2-7"]}, display=[["2-9", None]],
                    empty_pile=True)
    assert not game.is_over and game.decision is Decision.PLAY
    assert [str(m) for m in game.legal_moves()] == ["pass"]


def test_s8_nobody_able_to_capture_with_land_pile_left_stays_in_play():
    game = position(p0={"hand": ["5-5"]}, p1={"hand": ["6-7"]}, display=[["2-9", None]])
    assert not game.is_over and [str(m) for m in game.legal_moves()] == ["play 5-5"]


@pytest.mark.parametrize("options", [Options(), Options(firefly=True)])
def test_the_engines_own_saves_are_never_finished_or_refused_on_load(options):
    """Every end-phase decision of random games saves and loads unchanged: the engine
    never leaves a game in play that these checks would end or refuse."""
    rand = random.Random(7)
    checked = 0
    for seed in range(30):
        game = Game.new(seed=seed, options=options)
        while not game.is_over:
            if not game.pile or max(game.fireflies[0], game.fireflies[1]).bit_count() >= 3:
                text = game.to_json()
                assert Game.from_json(text).to_json() == text
                checked += 1
            game.play(rand.choice(game.legal_moves()))
        text = game.to_json()
        assert Game.from_json(text).to_json() == text
    assert checked > 20

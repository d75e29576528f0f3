"""People end games too: ``Game.end`` resigns, times out or abandons a game through the
engine's public API, with an ``EndReason`` (as python-chess has ``Termination``), and the
game's JSON keeps how it ended and the position it ended in."""

from __future__ import annotations

import json

import pytest

from solstis_tui.core import EndReason, Game, IllegalMove, Options
from solstis_tui.core.events import GameEnded


def mid_turn_game() -> Game:
    """A game stopped with tiles on their way (a capture pending), turn 2 or later."""
    game = Game.new(seed=21, options=Options())
    while game.turn < 2 or game.decision is None or game.decision.name == "PLAY":
        game.play(game.legal_moves()[0])
    return game


def test_a_resignation_ends_the_game_for_the_other_player_and_logs_why():
    game = mid_turn_game()
    game.end(EndReason.RESIGNED, loser=0)
    assert game.is_over and game.winner == 1 and game.end_reason is EndReason.RESIGNED
    assert game.legal_moves() == []
    assert game.log[-1] == GameEnded(EndReason.RESIGNED, 1)
    obs = game.observation(1)
    assert obs.is_over and obs.end_reason is EndReason.RESIGNED and obs.winner == 1


def test_an_abandoned_game_has_no_winner():
    game = mid_turn_game()
    game.end(EndReason.ABANDONED)
    assert game.is_over and game.winner is None and game.end_reason is EndReason.ABANDONED


@pytest.mark.parametrize(("reason", "loser", "words"), [
    (EndReason.NORMAL, 0, "only the rules"),
    (EndReason.FIREFLIES, 0, "only the rules"),
    (EndReason.RESIGNED, None, "needs its loser"),
    (EndReason.TIME, 2, "needs its loser"),
    (EndReason.ABANDONED, 1, "no loser"),
])
def test_an_ending_that_does_not_fit_is_refused_and_changes_nothing(reason, loser, words):
    game = mid_turn_game()
    before = game.to_json()
    with pytest.raises(IllegalMove, match=words):
        game.end(reason, loser)
    assert game.to_json() == before and not game.is_over


def test_a_game_over_cannot_be_ended_again():
    game = mid_turn_game()
    game.end(EndReason.TIME, loser=1)
    with pytest.raises(IllegalMove, match="over already"):
        game.end(EndReason.RESIGNED, loser=0)
    assert game.winner == 0 and game.end_reason is EndReason.TIME


def test_an_ended_game_saves_and_loads_as_it_ended_mid_turn():
    """The file holds the position the game ended in (tiles still on their way) and the
    ending: loaded, it is the same finished game, and its log ends with the same event."""
    game = mid_turn_game()
    game.end(EndReason.RESIGNED, loser=1)
    data = json.loads(game.to_json())
    assert data["ended"] == {"reason": "resigned", "loser": 1}
    assert data["over"] is None  # the position itself was still being played
    loaded = Game.from_json(game.to_json())
    assert (loaded.is_over, loaded.winner, loaded.end_reason) == (True, 0, EndReason.RESIGNED)
    assert loaded.log == game.log and loaded.to_json() == game.to_json()
    copy = game.copy()
    assert copy.to_json() == game.to_json()


@pytest.mark.parametrize("ended", [
    {"reason": "normal", "loser": 0}, {"reason": "resigned", "loser": None},
    {"reason": "abandoned", "loser": 0}, {"reason": "walked off", "loser": 0},
    {"reason": "time", "loser": 5},
])
def test_a_file_with_an_impossible_ending_is_refused(ended):
    from solstis_tui.core import InvalidPosition

    data = json.loads(mid_turn_game().to_json())
    data["ended"] = ended
    with pytest.raises(InvalidPosition):
        Game.from_json(json.dumps(data))

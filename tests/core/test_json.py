"""Saved games and hand-made positions: round trips and clear refusals."""

from __future__ import annotations

import json

import pytest

from solstis_tui.core import Game, InvalidPosition, Options

MINIMAL = {
    "format": "solstis-game",
    "version": 1,
    "players": [{"hand": ["1-1", "2-2"]}, {"hand": ["3-3"]}],
    "display": [["1-5", None], ["4-4", "2-9"]],
}


def load(**changes) -> Game:
    return Game.from_json(json.dumps({**MINIMAL, **changes}))


def test_a_hand_made_position_loads_and_plays():
    game = load()
    assert [str(m) for m in game.legal_moves()] == ["play 1-1", "play 2-2"]
    assert len(game.pile) == 48 - 3 - 3
    game.play_str("play 1-1")  # row 1 matches 1-5: the only capture is made at once
    assert game.land[0] == (1 << 0) | (1 << 4)
    assert [(p, str(m), auto) for p, m, auto in game.history[:3]] == [
        (0, "play 1-1", False), (0, "capture 1-5", True), (1, "play 3-3", True)]


def test_to_json_is_versioned_and_readable():
    data = json.loads(Game.new(seed=3).to_json())
    assert data["format"] == "solstis-game" and data["version"] == 2
    assert all(isinstance(t, str) and "-" in t for t in data["players"][0]["hand"])
    assert len(data["land_pile"]) == 30 and len(data["display"]) == 6


@pytest.mark.parametrize(
    "text, problem",
    [
        ("{", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"format": "chess"}', "not a Solstis game"),
        ('{"format": "solstis-game", "version": 3}', "version 3 is not supported"),
        ('{"format": "solstis-game", "version": 1}', "missing field 'players'"),
    ],
)
def test_malformed_documents_are_refused_clearly(text, problem):
    with pytest.raises(InvalidPosition, match=problem):
        Game.from_json(text)


@pytest.mark.parametrize(
    "changes, problem",
    [
        ({"players": [{"hand": ["1-1", "1-1"]}, {}]}, "tile 1-1 is in two places"),
        ({"players": [{"hand": ["1-1"]}, {"land": ["1-5"]}]}, "tile 1-5 is in two places"),
        ({"players": [{"hand": ["7-1"]}, {}]}, "'7-1' is not a land tile"),
        ({"land_pile": ["1-2"]}, "is nowhere"),
        ({"land_pile": [f"{r}-{c}" for r in (1, 2, 3) for c in range(1, 11)]},
         "in two places"),
        ({"spirit_line": ["bee", "bee"]}, "spirit Bee is in two places"),
        ({"spirit_line": ["cow"]}, "Cow is not in this variant"),
        ({"spirit_line": ["evil"]}, "never goes to the spirit line"),
        ({"players": [{"land": ["1-1"], "spirits": [["bee", "1-1"]]}, {}]},
         "not complete"),
        ({"players": [{"land": ["1-1", "1-2", "2-1", "2-2"], "fireflies": ["1-1"]}, {}]},
         "only in the Firefly expansion"),
        ({"players": "two"}, "wrong type"),
        ({"players": [{}]}, "two player objects"),
        ({"players": [{"hand": ["1-1", "1-2", "1-3", "1-4"]}, {}]}, "hand size is 3"),
        ({"options": {"beginner": True, "firefly": True}}, "needs the Evil Spirit"),
        ({"rainbow_supply": 13}, "rainbows do not add up"),
        ({"to_play": 2}, "player must be 0 or 1"),
        ({"state": {"decision": "capture", "context": ["9-9"]}}, "not a land tile"),
        ({"state": {"decision": "fly"}}, "malformed"),
        ({"players": [{"hand": ["1-1"], "rainbows": ["1-1"]}, {}]}, None),
    ],
)
def test_inconsistent_positions_name_the_problem(changes, problem):
    if problem is None:  # a rainbow on a cell whose tile is in hand is fine
        load(**changes)
        return
    with pytest.raises(InvalidPosition, match=problem):
        load(**changes)


def test_a_pending_decision_without_legal_moves_is_refused():
    with pytest.raises(InvalidPosition, match="no legal move"):
        load(state={"decision": "beetle"}, display=[])


def test_the_firefly_evil_spirit_needs_an_empty_cell():
    with pytest.raises(InvalidPosition, match="not empty"):
        load(options={"firefly": True}, evil={"player": 1, "cell": "1-1"},
             players=[{"hand": ["1-2"]}, {"land": ["1-1"]}])


def test_options_survive_a_round_trip():
    for options in (Options(), Options(beginner=True), Options(firefly=True)):
        game = Game.new(seed=5, options=options)
        assert Game.from_json(game.to_json()).options == options

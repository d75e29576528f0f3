"""Move notation round-trips for every decision kind."""

from __future__ import annotations

import random

import pytest

from solstis_tui.core import Decision, Game, IllegalMove, Move, MoveKind, Options


def _collect_moves(n_games: int) -> dict[Decision, set[Move]]:
    seen: dict[Decision, set[Move]] = {}
    rand = random.Random(11)
    for i in range(n_games):
        game = Game.new(seed=i, options=[Options(), Options(firefly=True)][i % 2])
        while not game.is_over:
            seen.setdefault(game.decision, set()).update(game.legal_moves())
            game.play(rand.choice(game.legal_moves()))
        for _, move, _ in game.history:  # automatic moves count too
            seen.setdefault(None, set()).add(move)
    return seen


SEEN = _collect_moves(400)


@pytest.mark.parametrize("decision", list(Decision))
def test_every_decision_kind_round_trips(decision):
    moves = SEEN.get(decision)
    assert moves, f"no random game reached the {decision.name} decision"
    for move in moves:
        assert Move.parse(str(move)) == move
        assert Move.parse(str(move).upper()) == move


def test_every_move_kind_appears_in_histories():
    kinds = {m.kind for m in SEEN[None]}
    assert kinds == set(MoveKind)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "empty move"),
        ("jump 3-4", "unknown move 'jump'"),
        ("play", "needs a tile"),
        ("play 7-1", "not a land tile"),
        ("play 3-11", "not a land tile"),
        ("take dragon", "not a spirit"),
        ("draw 3-4", "takes nothing"),
    ],
)
def test_bad_notation_says_what_is_wrong(text, problem):
    with pytest.raises(ValueError, match=problem):
        Move.parse(text)


def test_fox_is_the_squirrel():
    assert str(Move.parse("take Fox")) == "take squirrel"


def test_play_str_turns_bad_notation_into_an_illegal_move():
    game = Game.new(seed=1)
    before = game.to_json()
    with pytest.raises(IllegalMove, match="unknown move"):
        game.play_str("jump 3-4")
    assert game.to_json() == before

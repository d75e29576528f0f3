"""The public API contract other code relies on."""

from __future__ import annotations

import pytest

from solstis_tui.core import Decision, Game, IllegalMove, Move, MoveKind, Options


def test_a_new_game_waits_for_seat_0_to_play_a_tile():
    game = Game.new(seed=1, options=Options())
    assert game.to_play == 0
    assert game.decision is Decision.PLAY
    assert {m.kind for m in game.legal_moves()} == {MoveKind.PLAY}
    assert not game.is_over and game.winner is None and game.history == []


def test_an_illegal_move_raises_with_a_reason_and_changes_nothing():
    game = Game.new(seed=1)
    before = game.to_json()
    not_mine = next(t for t in range(60) if t in game.pile)
    with pytest.raises(IllegalMove, match="not in your hand"):
        game.play(Move(MoveKind.PLAY, not_mine))
    with pytest.raises(IllegalMove, match="you cannot draw now"):
        game.play(Move(MoveKind.DRAW))
    with pytest.raises(IllegalMove, match="not a move"):
        game.play("play 3-4")  # type: ignore[arg-type]
    assert game.to_json() == before


def test_legal_moves_returns_a_fresh_list():
    game = Game.new(seed=1)
    moves = game.legal_moves()
    moves.clear()
    assert game.legal_moves()


def test_score_breakdown_has_every_line():
    score = Game.new(seed=1).score(0)
    for field in ("biggest_section", "lit_fires", "spirits", "bonuses", "fireflies", "total"):
        assert hasattr(score, field)
    assert score.total == 0


def test_moving_after_the_end_is_refused():
    import random

    game = Game.new(seed=2)
    rand = random.Random(2)
    while not game.is_over:
        game.play(rand.choice(game.legal_moves()))
    assert game.legal_moves() == []
    with pytest.raises(IllegalMove, match="game is over"):
        game.play(Move(MoveKind.PASS))

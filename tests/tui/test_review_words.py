"""A hint calls moves closer than CLOSE_CALL stars 'about as good as' each other; the
analysis board's short move names fit 15 characters ('square 2-3', not 'the square at …')."""

from __future__ import annotations

import random

from solstis_tui.coach.hints import hint_text
from solstis_tui.core import Game, Options
from solstis_tui.words.moves import CLOSE_CALL, short_move


def test_every_move_fits_the_boards_15_character_lists():
    rng = random.Random(1)
    for variant in ("base", "firefly"):
        game = Game.new(seed=4, options=Options.for_variant(variant))
        while not game.is_over:
            for move in game.legal_moves():
                text = short_move(move)
                assert len(text) <= 15, text
                assert "…" not in text and not text.startswith("the ")
            game.play(rng.choice(game.legal_moves()))


def test_a_hint_between_close_moves_says_they_look_equally_good():
    game = Game.new(seed=4, options=Options())
    obs = game.observation(game.to_play)
    a, b = obs.legal_moves[:2]
    names = ("You", "Expert")
    close = hint_text(obs, [(a, 1.0, 0.5), (b, 1.0 - CLOSE_CALL / 2, 0.5)], names)
    far = hint_text(obs, [(a, 1.0, 0.5), (b, 1.0 - 2 * CLOSE_CALL, 0.5)], names)
    assert "about as good as" in close and "about as good as" not in far

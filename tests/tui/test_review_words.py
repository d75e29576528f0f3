"""Hint and review judge alike: moves closer than CLOSE_CALL stars are 'about as good'
in the hint and 'about as good' in the review (not a cost to worry about); the review's
move columns fit 15 characters ('square 2-3', not 'the square at …')."""

from __future__ import annotations

import random

from textual.widgets import DataTable, Static

from solstis_tui.core import Game, Options
from solstis_tui.play.hints import hint_text
from solstis_tui.play.words import CLOSE_CALL, short_move

from .conftest import make_app, review_after_a_game


def test_every_move_fits_the_reviews_15_character_columns():
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


async def test_the_review_calls_a_close_difference_about_as_good():
    app = make_app(seats=("human", "greedy"), seed=3, hint_spec="tests.tui.bots:NarrowRanker")
    async with app.run_test(size=(80, 24)) as pilot:
        review = await review_after_a_game(pilot, app, random.Random(4))
        close = [i for i, row in enumerate(review.rows) if 0 < row["cost"] < CLOSE_CALL]
        far = [i for i, row in enumerate(review.rows) if row["cost"] >= CLOSE_CALL]
        assert close and far
        assert all(review.rows[i]["close"] for i in close)
        assert not any(review.rows[i]["close"] for i in far)
        review.query_one(DataTable).move_cursor(row=close[0])  # the player picks that move
        await pilot.pause()
        detail = str(review.query_one("#detail", Static).render())
        assert "about as good" in detail and "preferred" not in detail

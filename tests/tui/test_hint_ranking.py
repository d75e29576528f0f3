"""A hint recommends the top of the judge's values it shows, and a review never charges a
negative cost, even when the review bot's order and its values disagree."""

from __future__ import annotations

import random
import re

from .conftest import make_app, review_after_a_game, settle

BACKWARDS = "tests.tui.bots:BackwardsRanker"


async def test_the_recommended_move_is_never_shown_as_worth_less_than_the_next():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert gs.play.hint_text.startswith("Hint: play")
        values = [float(v) for v in re.findall(r"([+-]\d+\.\d)★", gs.play.hint_text)]
        assert not values or values[0] >= values[1], gs.play.hint_text


async def test_a_review_never_charges_a_negative_cost():
    app = make_app(seats=("human", "random"), seed=3, hint_spec=BACKWARDS)
    async with app.run_test(size=(100, 30)) as pilot:
        review = await review_after_a_game(pilot, app, random.Random(2))
        assert all(row["cost"] >= 0 for row in review.rows)
        assert all(row["agree"] for row in review.rows)

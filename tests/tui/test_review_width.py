"""At 80 columns the review shows every column, the cost too, without scrolling sideways."""

from __future__ import annotations

import random

from textual.widgets import DataTable

from .conftest import make_app, review_after_a_game


async def test_every_review_column_fits_in_80_columns():
    app = make_app(seats=("human", "greedy"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        review = await review_after_a_game(pilot, app, random.Random(4))
        table = review.query_one(DataTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width

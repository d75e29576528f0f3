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


def test_every_decision_has_a_name_that_fits_the_reviews_column():
    from solstis_tui.core import Decision
    from solstis_tui.play.words import asked_short

    assert all(0 < len(asked_short(d)) <= 16 for d in Decision)


async def test_the_reviews_decision_column_is_whole_at_80_columns():
    """It read 'play a tile from y…'."""
    app = make_app(seats=("human", "greedy"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        review = await review_after_a_game(pilot, app, random.Random(4))
        table = review.query_one(DataTable)
        column = list(table.columns).index(next(k for k, c in table.columns.items()
                                                if str(c.label) == "decision"))
        cells = [str(table.get_row_at(r)[column]) for r in range(table.row_count)]
        assert cells and "play a tile" in cells
        width = table.ordered_columns[column].width
        assert all(len(cell) <= width for cell in cells), cells

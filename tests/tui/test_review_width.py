"""At 80 columns the review shows every column, the cost too, without scrolling sideways."""

from __future__ import annotations

import random

from textual.widgets import DataTable

from solstis_tui.screens.review import ReviewScreen

from .conftest import make_app, play_by_keys, settle


async def test_every_review_column_fits_in_80_columns():
    app = make_app(seats=("human", "greedy"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_by_keys(pilot, app, random.Random(4))
        await settle(pilot, app)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width

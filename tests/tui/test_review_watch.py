"""A watched game between bots can be reviewed: both bots' decisions are on the board."""

from __future__ import annotations

from solstis_tui.screens.end import EndScreen

from .conftest import make_app, open_review


async def test_a_watched_game_reviews_both_bots_decisions():
    app = make_app(seats=("random", "greedy"), seed=4)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(3000):
            await pilot.pause(0.01)
            if isinstance(app.screen, EndScreen):
                break
        assert isinstance(app.screen, EndScreen)
        review = await open_review(pilot, app)
        assert review.board.seats == (0, 1)
        assert {step.seat for step in review.board.steps} == {0, 1}
        assert len(review.board.steps) == review.board.points > 10
        assert "Random bot vs Greedy bot" in review.board.heading()

"""A bot that raises, and quitting while a bot searches."""

from __future__ import annotations

from solstis_tui.screens.boterror import BotErrorScreen

from . import bots
from .conftest import make_app, settle


async def test_a_failing_bot_shows_an_error_and_the_game_goes_on():
    app = make_app(seats=("tests.tui.bots:FailingBot", "human"), seed=3)
    async with app.run_test() as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, BotErrorScreen)
        assert "blew up" in app.screen.message
        await pilot.press("enter")  # continue with the fallback move
        await settle(pilot, app)
        gs = app.game_screen
        assert len(gs.session.game.history) >= 1
        assert app.screen is gs or isinstance(app.screen, BotErrorScreen)


async def test_quitting_mid_search_cancels_the_bot():
    bots.CANCELLED.clear()
    bots.STARTED.clear()
    app = make_app(seats=("tests.tui.bots:SlowBot", "human"), seed=3)
    async with app.run_test() as pilot:
        for _ in range(200):
            await pilot.pause()
            if bots.STARTED.is_set():
                break
        assert app.game_screen.play.turns.pacing.thinking_since is not None
        assert "thinking" in str(app.game_screen.query_one("#prompt").render())
        await pilot.press("q")
    assert bots.CANCELLED.wait(5)
    assert app.return_code in (0, None)

"""Complete games played by key presses only."""

from __future__ import annotations

import random

import pytest

from solstis_tui.screens.end import EndScreen

from .conftest import make_app, play_by_keys, settle


@pytest.mark.whole_game
async def test_full_game_against_random_bot_by_keys():
    app = make_app(seats=("human", "random"), seed=3)
    seen: set = set()
    async with app.run_test(size=(80, 24)) as pilot:
        await play_by_keys(pilot, app, random.Random(1), seen=seen)
        await settle(pilot, app)
        assert app.game_screen.session.game.is_over
        assert isinstance(app.screen, EndScreen)
        lines = app.game_screen.shown_log()
        assert any(line.startswith("You played") for line in lines)
        assert lines[-1].startswith("Game over")
    assert len(seen) >= 3


@pytest.mark.whole_game
async def test_a_hot_seat_game_plays_to_the_end_by_keys_with_the_hands_hidden_between_turns():
    """One hot-seat game end to end through the real keys (every decision kind is met
    through the controller's intents in tests/play/test_controller.py)."""
    from solstis_tui.screens.passkb import PassScreen

    app = make_app(seats=("human", "human"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, PassScreen)  # hands hidden until Enter
        await play_by_keys(pilot, app, random.Random(1), limit=600)
        await settle(pilot, app)
        assert isinstance(app.screen, EndScreen)

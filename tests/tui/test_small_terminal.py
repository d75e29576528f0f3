"""A terminal too small for the board: the screen says so, and behind it no key plays or
opens anything but quit; at a size that fits, the same keys play again."""

from __future__ import annotations

from textual.command import CommandPalette

from .conftest import make_app, settle


async def test_keys_do_nothing_behind_the_too_small_screen_but_quit():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        assert gs.has_class("-too-small") and gs.session.human_to_play
        before = len(gs.session.game.history)
        await pilot.press("2", "enter")
        await settle(pilot, app)
        assert len(gs.session.game.history) == before, "a key played behind the screen"
        await pilot.press("2", "t")
        await settle(pilot, app)
        assert gs.play.choice.selected == 0 and gs.play.hint_text == ""
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen is gs and not CommandPalette.is_open(app)

        await pilot.resize_terminal(80, 24)  # seen again: the same keys play
        await pilot.pause()
        assert not gs.has_class("-too-small")
        await pilot.press("2", "enter")
        await settle(pilot, app)
        assert len(gs.session.game.history) > before

        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.press("q")  # quitting still works
        await pilot.pause()
    assert app.return_code in (0, None) and not app.is_running

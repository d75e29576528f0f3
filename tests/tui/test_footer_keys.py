"""The footer offers only keys that can act: undo against a bot, none in hot-seat (where
``u`` still says why)."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from solstis_tui.screens.passkb import PassScreen

from .conftest import make_app, settle


def footer_keys(app) -> dict[str, str]:
    """What the footer shows: key → description."""
    return {key.key_display: key.description for key in app.screen.query(FooterKey)}


async def test_hotseat_footer_has_no_undo_and_u_still_says_why():
    app = make_app(seats=("human", "human"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        if isinstance(app.screen, PassScreen):
            await pilot.press("s")
            await pilot.pause()
        keys = footer_keys(app)
        assert "OK" in keys.values() and "Undo" not in keys.values(), keys
        await pilot.press("u")
        await pilot.pause()
        assert "undo is for games against bots" in \
            str(app.game_screen.query_one("#prompt").render())


async def test_against_a_bot_the_footer_offers_undo():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        assert footer_keys(app).get("u") == "Undo"


async def test_watching_bots_the_footer_offers_no_hint_and_no_confirm_and_fits_80():
    app = make_app(seats=("random", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")  # paused: the bots wait
        await settle(pilot, app)
        assert app.screen is app.game_screen
        keys = footer_keys(app)
        assert not {"Hint", "OK", "Back", "Undo"} & set(keys.values()), keys
        assert keys.get("q") == "Quit"
        await pilot.press("t")
        await pilot.pause()
        assert "hints are for a person playing against bots" in \
            str(app.game_screen.query_one("#prompt").render())


@pytest.mark.parametrize("ascii_mode", [False, True])
async def test_at_80_columns_the_footer_keeps_quit_in_sight(ascii_mode):
    """ASCII mode names Enter in full: the footer still ends with q Quit."""
    app = make_app(seats=("human", "random"), seed=3, ascii_mode=ascii_mode)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        keys = [k for k in app.screen.query(FooterKey) if k.description == "Quit"]
        assert keys and keys[0].region.right <= 80 - len("^p palette"), \
            "q Quit is cut off by the palette key"


async def test_the_tutorials_footer_has_no_esc_back():
    from solstis_tui.app import SolstisApp

    app = SolstisApp(tutorial="base", pace=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        keys = footer_keys(app)
        assert "Back" not in keys.values() and "Quit" in keys.values(), keys


async def test_screens_opened_and_closed_leave_no_footer_keys_behind():
    """Textual keeps every footer key it ever made unless told (issue #6666): a session's
    memory, and the garbage collector's pauses, grew with each screen opened."""
    import gc

    def alive() -> int:
        gc.collect()
        return sum(isinstance(o, FooterKey) for o in gc.get_objects())

    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for _ in range(2):
            await pilot.press("v")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
        start = alive()
        for _ in range(8):
            await pilot.press("v")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
        assert alive() <= start + 2

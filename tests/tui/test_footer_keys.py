"""The footer offers only keys that can act: undo against a bot, none in hot-seat (where
``u`` still says why)."""

from __future__ import annotations

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
            await pilot.press("enter")
            await pilot.pause()
        keys = footer_keys(app)
        assert "Confirm" in keys.values() and "Undo" not in keys.values(), keys
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

"""The live score sheet (beside the board on a wide screen) lists only what scores."""

from __future__ import annotations

from solstis_tui.core import Decision, Spirit

from .conftest import make_app, settle
from .positions import save_position
from .test_ascii_everywhere import screen_text


def _holds_squirrel(session) -> bool:
    return any(s == Spirit.SQUIRREL for s, _ in session.game.spirits[0])


async def test_the_score_sheet_has_no_squirrel_bonus_row():
    session = save_position(set(Decision), check=_holds_squirrel)
    assert session.game.score(0).bonuses.get("Squirrel") == 0
    app = make_app(resume=True)
    async with app.run_test(size=(130, 40)) as pilot:  # wide: the live sheet is shown
        await settle(pilot, app)
        sheet = screen_text(app)
        assert "Spirits (1 each)" in sheet
        assert "Squirrel bonus" not in sheet


def header_of_sheet(app) -> str:
    """The first line of the score sheet on the top screen (the live one or the end's)."""
    region = app.screen.query_one("#sheet").region
    return app.screen._compositor.render_strips()[region.y].crop(region.x, region.right).text


async def test_the_score_sheets_put_you_on_the_left_as_the_board_does():
    """In seat 2 the sheets had the bot's column first while the board puts You left."""
    from solstis_tui.screens.end import EndScreen

    app = make_app(seats=("greedy", "human"), seed=3)
    async with app.run_test(size=(130, 40)) as pilot:
        await settle(pilot, app)
        bot = app.game_screen.session.name(0)
        assert header_of_sheet(app).index("You") < header_of_sheet(app).index(bot)
        gs = app.game_screen
        app.push_screen(EndScreen(gs.session, gs.play.obs))
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        header = header_of_sheet(app)
        assert header.index("You") < header.index(bot), header

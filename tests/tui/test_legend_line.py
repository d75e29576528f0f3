"""At 80×24 the board's legend is one key away: `g` shows it line by line in the prompt."""

from __future__ import annotations

from solstis_tui.screens.helpers import legend_lines

from .conftest import make_app, settle


def detail_line(app) -> str:
    return str(app.game_screen.query_one("#prompt").render()).splitlines()[-1]


async def test_g_shows_every_legend_line_whole_at_80_columns():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        shown = []
        for _ in range(len(legend_lines(False))):
            await pilot.press("g")
            await pilot.pause(0.3)  # the line stays while nothing else happens
            shown.append(detail_line(app).strip())
        assert shown == list(legend_lines(False))
        assert "S summits" in shown[0] and "lit fire" in shown[1] and "spirits" in shown[2]
        # The marks on screen from the tutorial's step 7 on, and a covered spirit's look.
        assert "◇ a cell you may pick" in shown[3] and "covers" in shown[3]
        await pilot.press("g")
        await pilot.pause()
        assert detail_line(app).strip() == shown[0]  # round again
        await pilot.press("2")  # any other key: the usual line again
        await pilot.pause()
        assert "pick a tile" in detail_line(app)


def test_every_legend_line_fits_an_80_column_prompt():
    for ascii_only in (False, True):
        assert all(len(line) <= 78 for line in legend_lines(ascii_only))


async def test_g_shows_the_legend_while_a_bot_thinks_and_it_stays_through_the_spinner():
    app = make_app(seats=("tests.tui.bots:SlowBot", "human"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await pilot.pause()
            if app.game_screen.play.turns.pacing.thinking_since is not None:
                break
        assert "Space skips ahead" in detail_line(app)
        await pilot.press("g")
        await pilot.pause(0.35)  # three turns of the spinner
        assert detail_line(app).strip() == legend_lines(False)[0]
        assert "thinking" in str(app.game_screen.query_one("#prompt").render())
        await pilot.press("q")

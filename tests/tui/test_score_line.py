"""The score line never ends in a cut-off bracket: at 80 columns with long names its parts
get terser; on a wide screen they are spelt out."""

from __future__ import annotations

from solstis_tui.app import SolstisApp
from solstis_tui.local.session import Setup

from .conftest import settle


def score_line(app) -> str:
    return str(app.game_screen.query_one("#scoreline").render())


async def test_long_names_at_80_columns_keep_every_bracket():
    setup = Setup(seed=3, seats=("human", "greedy"), names=("Alexandra Longname", ""))
    app = SolstisApp(setup, pace=0.0, hint_spec="random")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        line = score_line(app)
        assert "…" not in line and line.count("(") == line.count(")"), line
        assert "Alexandra Longname ★0" in line and "Greedy bot ★0" in line
        await pilot.resize_terminal(90, 30)
        await pilot.pause()
        assert "Alexandra Longname ★0 (sec0 fire0 spir0+0)" in score_line(app)
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert "Alexandra Longname ★0 (sec 0 fire 0 spir 0+0)" in score_line(app)

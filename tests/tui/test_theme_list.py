"""The palette's Theme command offers our four themes, in our order, and they work."""

from __future__ import annotations

from textual.command import CommandPalette
from textual.widgets import OptionList

from .conftest import make_app, settle


async def test_the_theme_command_lists_our_themes_only():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        app.action_change_theme()
        for _ in range(50):
            await pilot.pause(0.02)
            palette = app.screen
            if isinstance(palette, CommandPalette):
                options = palette.query_one(OptionList)
                if options.option_count:
                    break
        names = [str(options.get_option_at_index(i).prompt).strip()
                 for i in range(options.option_count)]
        assert names == ["dark", "light", "high-contrast", "ansi-16"]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.theme == "light"

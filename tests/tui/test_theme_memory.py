"""A theme chosen in the command palette is used again at the next start, unless
``--theme`` chooses one for that run."""

from __future__ import annotations

from textual.command import CommandPalette
from textual.widgets import OptionList

from solstis_tui.cli import build_parser

from .conftest import make_app, settle


async def choose_in_palette(pilot, app, downs: int) -> None:
    """Ctrl+P, Theme, then the theme ``downs`` places below the first (dark)."""
    app.action_change_theme()
    for _ in range(50):
        await pilot.pause(0.02)
        if isinstance(app.screen, CommandPalette) and \
                app.screen.query_one(OptionList).option_count:
            break
    await pilot.press(*["down"] * downs, "enter")
    await pilot.pause()


async def theme_at_start(**kwargs) -> str:
    app = make_app(seats=("human", "random"), seed=3, **kwargs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        return app.theme


async def test_the_palettes_theme_is_used_at_the_next_start():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.theme == "dark"
        await choose_in_palette(pilot, app, 1)
        assert app.theme == "light"
    assert await theme_at_start() == "light"  # quit and start again
    # --theme wins for its run, and does not replace the remembered choice.
    assert await theme_at_start(theme_name="high-contrast") == "high-contrast"
    assert await theme_at_start() == "light"


def test_theme_option_is_unset_unless_given():
    assert build_parser().parse_args([]).theme is None
    assert build_parser().parse_args(["--theme", "ansi-16"]).theme == "ansi-16"

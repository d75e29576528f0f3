"""With --ascii every glyph on screen is ASCII: the board, footer, dialogs, dropdowns, log,
command palette, help, review, end dialog — scanned over a whole game; a line cut short ends
with three dots."""

from __future__ import annotations

import html
import random
import re

import pytest
from textual.command import CommandPalette

from solstis_tui.screens.end import EndScreen
from solstis_tui.screens.review import ReviewScreen

from ..online.helpers import until
from .conftest import keys_for, make_app, settle

_TEXT = re.compile(r"<text[^>]*>(.*?)</text>", re.S)


def screen_text(app) -> str:
    """Every character the screen shows (from Textual's own screenshot)."""
    svg = app.export_screenshot()
    return "".join(html.unescape(t) for t in _TEXT.findall(svg)).replace("\xa0", " ")


def non_ascii(app, where: str, found: dict[str, str]) -> None:
    for ch in set(screen_text(app)):
        if ord(ch) > 126 and ch not in found:
            found[ch] = where


async def drawn(pilot, app) -> None:
    """Once what the keys started is done (a screen's workers: the palette's search) and
    drawn."""
    await app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.whole_game  # every decision a game brings is drawn and scanned
async def test_ascii_mode_shows_only_ascii_on_every_screen():
    app = make_app(seats=("human", "random"), seed=5, ascii_mode=True)
    found: dict[str, str] = {}
    rng = random.Random(3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        for key, name in (("question_mark", "help"), ("v", "log"), ("e", "spirits"),
                          ("ctrl+p", "palette"), ("n", "new game")):
            await pilot.press(key)
            await until(lambda: app.screen is not gs, pilot)
            await drawn(pilot, app)
            non_ascii(app, name, found)
            if isinstance(app.screen, CommandPalette):  # the palette's search box too
                await pilot.press("t", "h", "e")
                await drawn(pilot, app)
                non_ascii(app, "palette search", found)
            await pilot.press("escape")
            await pilot.pause()
        for _ in range(400):
            await settle(pilot, app)
            if gs.session.game.is_over:
                break
            non_ascii(app, f"turn {gs.session.game.turn}", found)
            await pilot.press(*keys_for(gs, rng))
        await settle(pilot, app)
        assert isinstance(app.screen, EndScreen)
        non_ascii(app, "end dialog", found)
        await pilot.press("r")
        await until(lambda: isinstance(app.screen, ReviewScreen), pilot)
        await drawn(pilot, app)
        non_ascii(app, "review", found)
    assert not found, "; ".join(f"{ch} U+{ord(ch):04X} in {where}" for ch, where in found.items())


async def test_in_ascii_mode_a_line_cut_short_ends_with_three_dots():
    app = make_app(seats=("human", "random"), seed=3, ascii_mode=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        lines = [line.rstrip() for line in screen_text(app).splitlines()]
        keys = next(line for line in lines if "pick a tile" in line)
        assert keys.endswith("..."), keys  # cut at the right edge, and says so
        assert not [line for line in lines if re.search(r"[\w-] \.$", line)], lines

"""Play-test polish: the Bear's hand size is not read as a tile count, the score sheet has
no "Squirrel bonus 0" row, and hot-seat's footer offers no undo it cannot do."""

from __future__ import annotations

import dataclasses
import re

from textual.widgets._footer import FooterKey

from solstis_tui.core import Decision, Spirit
from solstis_tui.screens.passkb import PassScreen
from solstis_tui.widgets.panorama import PanoramaGrid

from .conftest import make_app, settle
from .positions import find_position, save_position
from .test_ascii_everywhere import screen_text


def footer_keys(app) -> dict[str, str]:
    """What the footer shows: key → description."""
    return {key.key_display: key.description for key in app.screen.query(FooterKey)}


def _bear_and_evil(session) -> bool:
    game = session.game
    return game.hand_size[0] == 4 and game.evil_player == 0


async def test_the_bears_hand_size_reads_as_a_size_and_the_title_keeps_its_marks():
    session = find_position(set(Decision), check=_bear_and_evil)
    # A long name: it is cut, never the stars, Evil, the hand size or the turn marker.
    session.setup = dataclasses.replace(session.setup, names=("Wilhelmina the Bold", ""))
    from solstis_tui import saves

    saves.save(session)
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        mine = app.game_screen.query_one("#mine", PanoramaGrid)
        title = str(mine.render()).splitlines()[0].rstrip()
        assert "hand size 4" in title and "hand 4" not in title
        assert title.endswith("Evil hand size 4 ◀"), title
        assert title.startswith("Wilhelm") and "…" in title
        assert len(title) <= mine.size.width


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


async def test_in_ascii_mode_a_line_cut_short_ends_with_three_dots():
    app = make_app(seats=("human", "random"), seed=3, ascii_mode=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        lines = [line.rstrip() for line in screen_text(app).splitlines()]
        keys = next(line for line in lines if "pick a tile" in line)
        assert keys.endswith("..."), keys  # cut at the right edge, and says so
        assert not [line for line in lines if re.search(r"[\w-] \.$", line)], lines

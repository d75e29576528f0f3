"""Help, the legend and the spirit table name only what the game being played has: no Evil
Spirit in beginner mode, fireflies and the forbidden cell only with Firefly, a covered
spirit only in the base game."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from solstis_tui.core import Options, Spirit
from solstis_tui.screens.help import HelpScreen, keys_text
from solstis_tui.screens.helpers import legend_lines, legend_text
from solstis_tui.screens.spiritinfo import effect_in

from .conftest import make_app, settle

EVIL_WORDS = ("Evil Spirit", "firefl", "forbid", "cover")


@pytest.mark.parametrize("ascii_only", [False, True])
def test_the_beginner_legend_has_no_evil_spirit_and_no_firefly(ascii_only):
    shown = " ".join(legend_lines(ascii_only, "beginner")) + legend_text(ascii_only, "beginner")
    assert not [w for w in EVIL_WORDS if w in shown]


def test_fireflies_and_the_forbidden_cell_are_in_the_firefly_legend_only():
    for variant in ("base", "beginner"):
        shown = " ".join(legend_lines(False, variant)) + legend_text(False, variant)
        assert "firefly" not in shown and "forbid" not in shown
    shown = " ".join(legend_lines(False, "firefly")) + legend_text(False, "firefly")
    assert "firefly" in shown and "forbid" in shown and "cover" not in shown
    assert "covers" in " ".join(legend_lines(False, "base"))


def test_the_beginner_key_list_has_no_evil_spirit_and_no_firefly():
    assert not [w for w in EVIL_WORDS if w in keys_text("beginner")]
    assert "firefly" not in keys_text("base") and "✦" in keys_text("firefly")


def test_the_spirit_table_says_the_evil_spirits_part_for_the_game_played():
    base, firefly = effect_in(Spirit.EVIL, Options()), effect_in(Spirit.EVIL, Options(firefly=True))
    assert "covers" in base and "forbids" not in base
    assert "forbids" in firefly and "covers" not in firefly
    assert "uncovered" not in effect_in(Spirit.BEE, Options(beginner=True))
    assert "uncovered" in effect_in(Spirit.BEE, Options())


async def test_help_in_a_beginner_game_leaves_out_the_evil_spirit_and_firefly_rules():
    app = make_app(seats=("human", "random"), seed=3, variant="beginner")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = {block.id for block in app.screen.query(Static) if block.id}
        assert "section-9" in shown and "section-12" in shown
        assert "section-10" not in shown and "section-11" not in shown
        firefly_rows = [w for w in ("Phoenix", "Viper |", "Renard |", "Cow |")
                        if w in str(app.screen.query_one("#section-9", Static).render())]
        assert firefly_rows == []


@pytest.mark.prepares_screens
async def test_help_follows_the_variant_when_the_next_game_is_another():
    from solstis_tui.local.session import Session, Setup

    from .test_help_hint import prepared

    app = make_app(seats=("human", "random"), seed=3, variant="beginner")
    async with app.run_test(size=(80, 24)) as pilot:
        await prepared(pilot, app)
        assert app.help_screen.variant == "beginner"
        app.start_session(Session(Setup(variant="base", seed=4, seats=("human", "random"))))
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and app.screen.variant == "base"
        assert app.screen.query("#section-11")  # the base game's Evil Spirit
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.game_screen

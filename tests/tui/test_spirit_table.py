"""The spirit table (e) against rules.md: every spirit's kind as §9 lists it, the Evil
Spirit's effect as §10 and §11 say, and where the Evil Spirit is (never 'pile' once it is
held or placed)."""

from __future__ import annotations

import re

import pytest

from solstis_tui.core import Decision, Spirit, cell_name
from solstis_tui.screens.help import rules_text
from solstis_tui.screens.spiritinfo import spirit_rows

from ..online.helpers import screen_lines, until
from .positions import find_position

NAMES = ("You", "Random bot")


def rules_kinds() -> dict[str, str]:
    """§9's table: spirit name → kind."""
    kinds = {}
    for line in rules_text().splitlines():
        m = re.match(r"\| (\w+)(?: \*\(Firefly\)\*)? \| (plain|blue) \|", line)
        if m:
            kinds[m.group(1)] = m.group(2)
    return kinds


@pytest.mark.parametrize("variant", ["base", "firefly", "beginner"])
def test_every_rows_kind_is_the_one_rules_md_gives(variant):
    kinds = rules_kinds()
    session = find_position({Decision.PLAY}, variant=variant)
    rows = spirit_rows(session.game.observation(0), NAMES)
    assert len(rows) == (14 + 4 * (variant == "firefly") + (variant != "beginner"))
    for title, kind, _where, _effect in rows:
        assert kind == ("evil" if title == "Evil Spirit" else kinds[title]), title


def test_the_evil_spirits_effect_says_where_rules_md_puts_it():
    effect = Spirit.EVIL.effect
    assert "opponent's panorama" in effect  # §10: on the opponent's panorama
    assert "its host's panorama" not in effect
    assert "chosen by the opponent" in effect  # §11: the cover is the opponent's choice


def _holds_evil(session) -> bool:
    return session.game.evil_player is not None and session.game.evil_player >= 0


def test_in_the_base_game_the_table_names_the_evil_spirits_holder():
    session = find_position(set(Decision), check=_holds_evil)
    obs = session.game.observation(0)
    rows = {title: where for title, _, where, _ in spirit_rows(obs, NAMES)}
    assert rows["Evil Spirit"] == f"held by {NAMES[obs.evil_player]}"


def test_in_firefly_the_table_says_which_panorama_and_cell_it_forbids():
    def placed(session) -> bool:
        return _holds_evil(session) and session.game.evil_cell >= 0

    session = find_position(set(Decision), variant="firefly", check=placed)
    obs = session.game.observation(0)
    rows = {title: where for title, _, where, _ in spirit_rows(obs, NAMES)}
    owner = obs.evil_player
    cell = cell_name(obs.panoramas[owner].forbidden)
    assert rows["Evil Spirit"] == f"{NAMES[owner]}'s panorama, {cell}"


async def test_the_table_on_screen_lists_every_spirit_and_rewraps_when_the_window_grows():
    from textual.containers import VerticalScroll

    from solstis_tui.core.spirits import spirit_set

    from .conftest import make_app, settle

    def shown(app) -> str:
        return "\n".join(screen_lines(app))

    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        spirits = spirit_set(False, False)
        await pilot.press("e")
        await until(lambda: spirits[0].title in shown(app), pilot)
        seen = shown(app)
        app.screen.query_one(VerticalScroll).scroll_end(animate=False)
        await until(lambda: spirits[-1].title in shown(app), pilot)
        seen += shown(app)
        for spirit in spirits:
            assert spirit.title in seen
        # 80 columns wrap the Fly's effect; 160 hold it on one line.
        fly = "put a random tile from the opponent's hand into your panorama"
        assert fly not in seen
        await pilot.resize_terminal(160, 50)
        await until(lambda: fly in shown(app), pilot)  # (fails after its safety net)

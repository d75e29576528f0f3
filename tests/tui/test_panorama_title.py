"""A panorama's title: a long name is cut, never the marks after it (stars, Evil, the
Bear's hand size, whose turn), and the Bear's hand size reads as a size, not a count."""

from __future__ import annotations

import dataclasses

from solstis_tui.core import Decision
from solstis_tui.local import saves
from solstis_tui.widgets.panorama import PanoramaGrid

from .conftest import make_app, settle
from .positions import find_position


def _bear_and_evil(session) -> bool:
    game = session.game
    return game.hand_size[0] == 4 and game.evil_player == 0


async def test_the_bears_hand_size_reads_as_a_size_and_the_title_keeps_its_marks():
    session = find_position(set(Decision), check=_bear_and_evil)
    session.setup = dataclasses.replace(session.setup, names=("Wilhelmina the Bold", ""))
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


async def test_at_80_columns_a_bots_name_stays_whole_beside_every_mark():
    session = find_position(set(Decision), check=_bear_and_evil)
    session.setup = dataclasses.replace(session.setup, names=("Minimax bot", ""))
    saves.save(session)
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        mine = app.game_screen.query_one("#mine", PanoramaGrid)
        title = str(mine.render()).splitlines()[0].rstrip()
        assert title.startswith("Minimax bot ★") and "…" not in title, title
        assert title.endswith("Evil hand size 4 ◀"), title


def _firefly_evil_placed(session) -> bool:
    game = session.game
    return game.evil_player is not None and game.evil_player >= 0 and game.evil_cell >= 0


async def test_in_firefly_the_panorama_the_evil_spirit_sits_on_is_marked_evil():
    session = find_position(set(Decision), variant="firefly", check=_firefly_evil_placed)
    saves.save(session)
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        owner = app.game_screen.session.game.evil_player
        sides = {0: "#mine", 1: "#theirs"}
        marked = app.game_screen.query_one(sides[owner], PanoramaGrid)
        other = app.game_screen.query_one(sides[1 - owner], PanoramaGrid)
        assert " Evil" in str(marked.render()).splitlines()[0]
        assert " Evil" not in str(other.render()).splitlines()[0]

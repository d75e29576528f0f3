"""Spirits on side-by-side squares keep a space between their tags at 80×24 ("Be Fi", not
"BeeFsh"), so each spirit is seen on its own square."""

from __future__ import annotations

import re

from solstis_tui.core import Decision, Spirit
from solstis_tui.widgets.panorama import PanoramaGrid
from solstis_tui.widgets.view import SHORT_CODES, SPIRIT_CODES

from .conftest import make_app, settle
from .positions import save_position

CODES = "|".join(sorted({*SPIRIT_CODES.values(), *SHORT_CODES.values()}, key=len,
                        reverse=True))


def side_by_side(session) -> bool:
    squares = {sq for _, sq in session.game.spirits[0]}
    return any(sq + 1 in squares for sq in squares)


async def test_tags_of_neighbouring_squares_do_not_run_together():
    save_position(set(Decision), check=side_by_side)
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        mine = app.game_screen.query(PanoramaGrid).first()
        text = str(mine.render())
        assert re.search(rf"(?:{CODES}) (?:{CODES})", text), text
        assert not re.search(rf"(?:{CODES})(?:{CODES})", text), text




async def test_a_covered_spirit_is_drawn_in_lower_case_not_only_dimmed():
    """Dim alone is lost without colour (NO_COLOR, some SSH terminals)."""
    import random

    from solstis_tui.local import saves
    from solstis_tui.local.seats import PERSON
    from solstis_tui.local.session import Session, Setup

    for seed in range(200):
        session = Session(Setup(seed=seed, seats=(PERSON, "random")))
        rng = random.Random(seed)
        while not session.game.is_over:
            session.apply(rng.choice(session.game.legal_moves()))
        if session.game.covered[0] >= 0:
            break
    else:
        raise AssertionError("no game ended with a spirit of seat 0 covered")
    saves.save(session)
    covered = SPIRIT_CODES[Spirit(session.game.covered[0])]
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        mine = app.game_screen.query_one("#mine", PanoramaGrid)
        text = str(mine.render())
        short = SHORT_CODES[covered]
        assert covered.lower() in text or short.lower() in text, text
        assert covered not in text.replace(covered.lower(), "")

"""The live score sheet (beside the board on a wide screen) lists only what scores."""

from __future__ import annotations

from solstis_tui.core import Decision, Spirit

from .conftest import make_app, settle
from .positions import save_position
from .test_ascii_everywhere import screen_text


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

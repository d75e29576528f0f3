"""While choosing what to capture, the hand line shows the tile just played."""

from __future__ import annotations

from solstis_tui.core import Decision
from solstis_tui.core.board import NAMES

from .conftest import make_app, settle
from .positions import save_position


async def test_the_played_tile_is_on_screen_during_the_capture_choice():
    session = save_position({Decision.CAPTURE})
    played = NAMES[session.game.context[0]]
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        hand = str(app.game_screen.query_one("HandBar").render())
        assert f"played {played}" in hand, hand

"""At 80×24 the opponent's last turn is on the main screen, without a key: the line above
the log says what the bot played and captured."""

from __future__ import annotations

from textual.widgets import Static

from .conftest import make_app, settle


async def test_the_bots_last_turn_is_in_sight_at_80x24():
    app = make_app(seats=("greedy", "human"), seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        line = app.game_screen.query_one("#lastturn", Static)
        text = str(line.render()).strip()
        assert text.startswith("Greedy bot's turn: played "), text
        assert "captured" in text
        assert line.region.height == 1 and line.region.bottom <= 24 and line.region.width

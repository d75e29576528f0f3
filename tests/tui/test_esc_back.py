"""Esc back: the prompt offers it only when Esc can take back the tile just played, and
after a second-chance draw it says why there is no going back."""

from __future__ import annotations

from solstis_tui.core import Decision

from .conftest import make_app, settle
from .positions import save_position


def prompt_of(app) -> str:
    return str(app.game_screen.query_one("#prompt").render())


def _second_chance(session) -> bool:
    """The capture pending is the drawn tile's: the played one captured nothing."""
    game = session.game
    _player, move, _auto = game.history[-1]
    return move.kind.name == "PLAY" and game.context[0] != move.arg


async def test_esc_back_is_offered_when_the_played_tile_captures():
    app = make_app(seats=("human", "random"), seed=312)
    async with app.run_test() as pilot:
        await settle(pilot, app)
        await pilot.press("1", "enter")  # 2-2 captures: the capture decision is pending
        assert app.game_screen.session.game.decision is Decision.CAPTURE
        assert "Esc back" in prompt_of(app)


async def test_after_a_second_chance_draw_esc_is_not_offered_and_says_why():
    session = save_position({Decision.CAPTURE}, check=_second_chance)
    before = list(session.game.history)
    app = make_app(resume=True)
    async with app.run_test() as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        assert gs.session.game.decision is Decision.CAPTURE
        shown = prompt_of(app)
        assert "Enter takes it" in shown and "Esc" not in shown
        await pilot.press("escape")
        await pilot.pause()
        shown = prompt_of(app)
        assert "✗ no going back: the tile drawn for the second chance is face up" in shown
        assert list(gs.session.game.history) == before
        assert gs.session.game.decision is Decision.CAPTURE

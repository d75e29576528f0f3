"""The opponent list says how many cores the expert searches on, and a finished game's
expert stops its worker processes when the next game starts."""

from __future__ import annotations

from textual.widgets import Select

from solstis_tui.ai import expert
from solstis_tui.screens.newgame import NewGameScreen
from solstis_tui.session import Session, Setup

from .conftest import make_app, settle


async def test_the_opponent_list_names_the_experts_cores(monkeypatch):
    monkeypatch.setattr(expert, "usable_cores", lambda: 4)
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        options = dict((value, str(label)) for label, value in
                       app.screen.query_one("#opponent", Select)._options)
        assert options["expert"] == "Expert bot (4 cores)"
        assert options["mcts"] == "MCTS bot"


async def test_a_new_game_stops_the_last_games_expert_workers():
    app = make_app(seats=("human", "random"), seed=3)
    closed = []

    class Closing:
        def close(self) -> None:
            closed.append(True)

    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        app.game_screen.session.bots[1] = Closing()
        app.start_session(Session(Setup(seed=4, seats=("human", "random"))))
        await settle(pilot, app)
        assert closed == [True]

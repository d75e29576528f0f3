"""`solstis` with options that choose a new game never silently replaces an unfinished
saved game: it asks first, as the plain `solstis` start does."""

from __future__ import annotations

import random

import pytest

from solstis_tui import cli
from solstis_tui.app import SolstisApp
from solstis_tui.local import saves
from solstis_tui.screens.resume import ContinueScreen

from .conftest import keys_for, make_app, settle


async def _leave_a_game_unfinished() -> list:
    """Play a few decisions of a seed-12 game, then quit: its history."""
    app = make_app(seats=("human", "random"), seed=12)
    async with app.run_test() as pilot:
        for _ in range(3):
            await settle(pilot, app)
            await pilot.press(*keys_for(app.game_screen, random.Random(4)))
        await settle(pilot, app)
        return list(app.game_screen.session.game.history)


def _app_for(argv: list[str], monkeypatch) -> SolstisApp:
    """The app ``solstis ARGV`` would run (not run yet)."""
    made: list[SolstisApp] = []
    monkeypatch.setattr(SolstisApp, "run", lambda self, **_k: made.append(self))
    assert cli.main([*argv, "--pace", "0"]) == 0
    return made[0]


def _question(app: SolstisApp) -> str:
    assert isinstance(app.screen, ContinueScreen), f"no question: {app.screen!r}"
    return str(app.screen.text)


@pytest.mark.parametrize("argv", [
    ["--variant", "firefly", "--first", "bot"],
    ["--hotseat"],
    ["--seed", "5"],
    ["--watch", "--opponent", "random"],
])
async def test_options_ask_before_the_saved_game_is_replaced_and_c_continues_it(
        argv, monkeypatch):
    history = await _leave_a_game_unfinished()
    saved = saves.autosave_path().read_text()
    app = _app_for(argv, monkeypatch)
    async with app.run_test() as pilot:
        await pilot.pause()
        text = _question(app)
        assert "Continue your last game?" in text and "seed 12, turn" in text
        assert "Starting it replaces the saved game" in text
        assert saves.autosave_path().read_text() == saved  # nothing written while asking
        await pilot.press("c")
        await settle(pilot, app)
        session = app.game_screen.session
        assert session.setup.seed == 12
        assert tuple(map(str, session.setup.seats)) == ("human", "random")
        assert list(session.game.history)[:len(history)] == history
    assert saves.peek()["seed"] == 12


async def test_n_starts_the_game_the_options_ask_for(monkeypatch):
    await _leave_a_game_unfinished()
    app = _app_for(["--variant", "firefly", "--opponent", "random", "--seed", "7"],
                   monkeypatch)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert "new game: firefly game, seed 7:" in _question(app)
        await pilot.press("n")
        await settle(pilot, app)
        setup = app.game_screen.session.setup
        assert setup.variant == "firefly" and setup.seed == 7


async def test_q_quits_and_keeps_the_saved_game(monkeypatch):
    await _leave_a_game_unfinished()
    saved = saves.autosave_path().read_text()
    app = _app_for(["--watch", "--opponent", "random"], monkeypatch)
    async with app.run_test() as pilot:
        await pilot.pause()
        _question(app)
        await pilot.press("q")
        await pilot.pause()
    assert saves.autosave_path().read_text() == saved


async def test_options_without_a_saved_game_start_at_once(monkeypatch):
    app = _app_for(["--variant", "beginner", "--opponent", "random"], monkeypatch)
    async with app.run_test() as pilot:
        await pilot.pause()
        await settle(pilot, app)
        assert app.screen is app.game_screen
        assert app.game_screen.session.setup.variant == "beginner"

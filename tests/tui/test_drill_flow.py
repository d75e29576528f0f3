"""The drill on the board: each mistake is asked at the position the player saw, answered
with the game's keys, judged (tiny judge effort) and explained; Enter goes on, q leaves
with a summary; with nothing to drill a sentence says why; ``solstis drill`` closes after
its summary."""

from __future__ import annotations

import pytest

from solstis_tui import cli
from solstis_tui.app import SolstisApp
from solstis_tui.coach import analysis, store
from solstis_tui.local import drill
from solstis_tui.screens.drill import DrillScreen
from solstis_tui.screens.message import MessageScreen
from solstis_tui.words.moves import as_played, describe_move
from tests.online.helpers import until

from ..drill_games import keep_games
from .conftest import keys_for_move, make_app


@pytest.fixture(autouse=True)
def tiny(monkeypatch):
    monkeypatch.setattr(store, "EFFORT", analysis.TINY)


def panel(screen: DrillScreen) -> str:
    return str(screen.query_one("#lesson").render())


async def answer_with(pilot, app, screen: DrillScreen, move) -> None:
    await pilot.press(*keys_for_move(screen, move))
    await app.workers.wait_for_complete()
    await pilot.pause()


async def read_on(pilot, app, screen: DrillScreen) -> None:
    """Enter after an answer, as a player reading it: an explanation cut to the screen is
    read whole first (Enter shows it, Enter closes it), then Enter goes on."""
    await until(lambda: screen.panel_fitted == screen.panel, pilot)
    if screen.panel_unread():
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, MessageScreen), pilot)
        await pilot.press("enter")
        await until(lambda: app.screen is screen, pilot)
    await pilot.press("enter")
    await pilot.pause()


async def test_each_mistake_is_asked_on_the_board_judged_explained_and_the_next_follows(
        data_dir):
    keep_games(data_dir / "records", [4, 5], analysed=1)
    app = make_app(seats=("human", "random"), seed=3, drill_effort=analysis.TINY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game_screen = app.screen
        app.start_drill()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        run = screen.drill_run
        first = run.exercise
        assert run.drill.unanalysed  # the second game: left out, and said
        assert screen.play.obs == first.observation()  # what the seat saw, nothing else
        assert f"Drill 1 of {run.total}" in panel(screen)
        assert f"You {as_played(first.played)} here" in panel(screen)
        await pilot.press("t")  # no hint: the answer is the player's own
        assert screen.play.error.startswith("no hints in a drill") and not run.answers
        await answer_with(pilot, app, screen, first.best)
        answer = run.answers[0]
        assert answer.move == first.best
        assert f"In the game, {describe_move(first.played)} lost" in panel(screen)
        assert screen.play.prompt().headline == \
            f"You answered {first.best}: {answer.judgement()}"
        assert screen.play.obs == first.observation()  # the position did not move on
        await read_on(pilot, app, screen)
        assert run.index == 1 and f"Drill 2 of {run.total}" in panel(screen)
        assert screen.play.obs == run.exercise.observation()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        assert app.screen.text.startswith(f"1 of {run.total} answered")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is game_screen


async def test_with_nothing_to_drill_the_app_says_why(data_dir):
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_drill()
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        assert app.screen.text.startswith("No mistakes to drill")


def test_solstis_drill_with_nothing_to_drill_says_why_without_a_screen(data_dir, capsys):
    assert cli.main(["drill"]) == 0
    assert capsys.readouterr().out.startswith("No mistakes to drill")


async def test_solstis_drill_closes_after_its_summary(data_dir):
    keep_games(data_dir / "records", [4], analysed=1)
    found = drill.collect()
    run = drill.DrillRun(drill.Drill(found.exercises[:1]), analysis.TINY)
    app = SolstisApp(drill=run, pace=0.0, hint_spec="random")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        await answer_with(pilot, app, screen, run.exercise.played)
        await until(lambda: screen.panel_fitted == screen.panel, pilot)
        assert "the summary" in screen.play.prompt().detail  # Enter's, or n's once cut
        await read_on(pilot, app, screen)
        assert isinstance(app.screen, MessageScreen)
        assert app.screen.text.startswith("1 of 1 answered")
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_code == 0


async def test_the_game_under_a_drill_waits_for_it_and_goes_on_after(data_dir):
    keep_games(data_dir / "records", [4], analysed=1)
    app = make_app(seats=("random", "human"), seed=3, pace=30.0, drill_effort=analysis.TINY)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):  # the bot's first move is found and waits out its pace
            await pilot.pause()
            if app.game_screen is not None and app.game_screen.play.turns.pacing.pending:
                break
        game = app.game_screen
        assert game.play.turns.pacing.busy
        before = len(game.session.game.history)
        app.start_drill()
        await pilot.pause()
        assert not game.play.turns.pacing.busy  # nothing moves under the drill
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("enter")  # the summary
        await pilot.pause()
        assert app.screen is game and game.play.turns.pacing.busy  # the bot's turn again
        assert len(game.session.game.history) == before


async def test_the_palette_on_a_drill_offers_no_hint_undo_or_review_of_the_game_under_it(
        data_dir):
    keep_games(data_dir / "records", [4], analysed=1)
    app = make_app(seats=("human", "random"), seed=3, drill_effort=analysis.TINY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        on_game = {c.title for c in app.get_system_commands(app.screen)}
        assert "Hint" in on_game and "Review game" not in on_game  # it is not over yet
        app.start_drill()
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        on_drill = {c.title for c in app.get_system_commands(app.screen)}
        assert not {"Hint", "Undo", "Review game"} & on_drill

"""Rough edges a player met around the analysis board (issue 63), each as the player meets
it: play from here goes back to the board it came from (Esc, r, the palette's Review);
q asks before quitting a practice game; the drill asks inaccuracies when the kept games
have no mistake, and a cut explanation offers "Enter: all of it"."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from solstis_tui.app import SolstisApp
from solstis_tui.coach import analysis, store
from solstis_tui.local import drill
from solstis_tui.local.practice import PracticeSession, points
from solstis_tui.screens.confirm import ConfirmScreen
from solstis_tui.screens.drill import DrillScreen
from solstis_tui.screens.end import EndScreen
from solstis_tui.screens.game import GameScreen
from solstis_tui.screens.message import MessageScreen
from solstis_tui.screens.review import ReviewScreen
from tests.online.helpers import screen_lines, until
from tests.review_game import finished_record

from ..drill_games import keep_games
from .conftest import keys_for_move, make_app, play_by_keys, settle


def shown(app) -> str:
    return "\n".join(screen_lines(app))


def palette(app) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


async def practice_from_the_board(pilot, app: SolstisApp, record, last: bool = False):
    """The player's game on the board, `r` to its analysis board, then `f` (at the first
    decision, or the last): the practice on top. The board."""
    app.push_screen(app.review_screen(record))
    await until(lambda: isinstance(app.screen, ReviewScreen), pilot)
    board = app.screen
    if last:
        await pilot.press("end")
    await pilot.press("f")
    await until(lambda: isinstance(app.game_screen.session, PracticeSession)
                and app.screen is app.game_screen, pilot)
    await settle(pilot, app)
    return board


# ---------------------------------------------------------------------- play from here
async def test_esc_in_a_practice_goes_back_to_the_analysis_board_and_the_game_under_it(
        data_dir):
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        game, game_screen = app.session, app.game_screen
        board = await practice_from_the_board(pilot, app, finished_record())
        await until(lambda: "esc Board" in screen_lines(app)[-1], pilot)  # said in the footer
        # and in a note (a message to the app, handled in its turn: waited for)
        await until(lambda: "Esc goes back to the analysis board" in " ".join(
            n.message for n in app._notifications), pilot)
        await pilot.press("escape")
        await until(lambda: app.screen is board, pilot)  # the same board, as it was left
        assert app.session is game and app.game_screen is game_screen
        await pilot.press("escape")  # the board closes: the game under it again
        await until(lambda: app.screen is game_screen, pilot)


async def test_esc_first_backs_out_of_a_half_made_choice_then_goes_to_the_board(data_dir):
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        board = await practice_from_the_board(pilot, app, finished_record())
        practice = app.game_screen
        practice.play.say_error("a refused key")  # something Esc drops first
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is practice and not practice.play.error
        await pilot.press("escape")
        await until(lambda: app.screen is board, pilot)


async def test_the_palette_in_a_practice_offers_review_which_goes_back_to_the_board(
        data_dir):
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        board = await practice_from_the_board(pilot, app, finished_record())
        assert "Review game" in palette(app)
        command = next(c for c in app.get_system_commands(app.screen)
                       if c.title == "Review game")
        command.callback()
        await until(lambda: app.screen is board, pilot)


async def test_a_finished_practice_offers_review_and_r_goes_back_to_the_board(data_dir):
    record = finished_record()
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        board = await practice_from_the_board(pilot, app, record, last=True)
        await play_by_keys(pilot, app, random.Random(2))
        await until(lambda: isinstance(app.screen, EndScreen), pilot)
        assert "Review (r)" in shown(app)
        await pilot.press("r")
        await until(lambda: app.screen is board, pilot)


async def test_solstis_review_then_a_practice_then_esc_is_the_board_and_closing_it_ends(
        data_dir):
    app = SolstisApp(review=finished_record(), review_effort=analysis.TINY,
                     review_workers=1, autosave=False, pace=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(app.screen, ReviewScreen), pilot)
        board = app.screen
        await pilot.press("f")
        await until(lambda: app.game_screen is not None and app.screen is app.game_screen,
                    pilot)
        await settle(pilot, app)
        await pilot.press("escape")
        await until(lambda: app.screen is board, pilot)
        assert app.session is None
        await pilot.press("escape")  # the board was the program's: closing it ends it
        await until(lambda: not app.is_running, pilot)


# ---------------------------------------------------------------------- q in a practice
async def test_q_in_a_practice_asks_before_quitting_and_another_key_plays_on(data_dir):
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await practice_from_the_board(pilot, app, finished_record())
        practice = app.game_screen
        await pilot.press("q")
        await until(lambda: isinstance(app.screen, ConfirmScreen), pilot)
        assert "Quit Solstis? This practice game is not kept" in shown(app)
        assert "y quits" in shown(app)
        await pilot.press("n")  # any other key: the practice goes on
        await until(lambda: app.screen is practice, pilot)
        assert app.is_running
        await pilot.press("q", "y")
        await until(lambda: not app.is_running, pilot)


async def test_q_in_a_practice_started_without_a_board_asks_too(data_dir):
    record = finished_record()
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.play_from_here(record, points(record)[0].index, points(record)[0].seat)
        await settle(pilot, app)
        await pilot.press("q")
        await until(lambda: isinstance(app.screen, ConfirmScreen), pilot)
        assert app.is_running


async def test_q_in_a_real_game_still_quits_at_once(data_dir):
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q")  # the game is saved after each decision: nothing is lost
        await until(lambda: not app.is_running, pilot)


# ---------------------------------------------------------------------- the drill
@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(store, "EFFORT", analysis.TINY)


def only_inaccuracies(path, many: int = 5) -> None:
    """Keep beside the record at ``path`` its analysis with the person's first ``many``
    decisions called inaccuracies (0.6★ lost) and nothing worse anywhere."""
    text = path.read_text(encoding="utf-8")
    game, names = store.load(text)
    found = analysis.analyse(game, names, store.SEED, analysis.TINY)
    notes, marked = [], 0
    for note in found.notes:
        if isinstance(note, analysis.DecisionNote):
            minor = note.seat == 0 and marked < many
            marked += minor
            note = replace(note, label="inaccuracy" if minor else None,
                           loss_stars=0.6 if minor else 0.0)
        notes.append(note)
    store.keep(path, text, analysis.Analysis(found.seats, tuple(notes)))


def test_with_no_mistakes_the_drill_asks_the_inaccuracies(tmp_path, tiny):
    [path] = keep_games(tmp_path, [4], analysed=0)
    only_inaccuracies(path)
    found = drill.collect(tmp_path)
    assert len(found.exercises) == 5 and found.minor
    assert {ex.label for ex in found.exercises} == {"inaccuracy"}
    assert found.minor_sentence().startswith("None of your kept games has a mistake")


async def test_the_drill_after_a_game_of_inaccuracies_asks_them_and_says_why(data_dir, tiny):
    [path] = keep_games(data_dir / "records", [4], analysed=0)
    only_inaccuracies(path)
    app = make_app(seats=("human", "random"), seed=3, drill_effort=analysis.TINY)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        app.start_drill()
        await until(lambda: isinstance(app.screen, DrillScreen), pilot)
        screen = app.screen
        assert screen.drill_run.total == 5
        assert "an inaccuracy (0.6★ lost)" in screen.panel
        await until(lambda: "None of your kept games has a mistake" in " ".join(
            shown(app).split()), pilot)


async def test_a_cut_explanation_offers_enter_for_all_of_it_then_enter_goes_on(
        data_dir, tiny):
    keep_games(data_dir / "records", [4, 5], analysed=2)
    app = make_app(seats=("human", "random"), seed=3, drill_effort=analysis.TINY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.start_drill()
        await until(lambda: isinstance(app.screen, DrillScreen), pilot)
        screen, run = app.screen, app.screen.drill_run
        for _ in range(run.total):  # the first exercise whose explanation is cut at 80×24
            await pilot.press(*keys_for_move(screen, run.exercise.played))
            await app.workers.wait_for_complete()
            await until(lambda: run.index in run.answers
                        and "You answered" in screen.play.prompt().headline, pilot)
            await until(lambda: screen.panel_fitted == screen.panel, pilot)
            if screen.panel_cut:
                break
            await pilot.press("n")
            await until(lambda: run.index not in run.answers, pilot)
        else:
            pytest.fail("no explanation was long enough to be cut at 80×24")
        await until(lambda: "… Enter: all of it" in shown(app), pilot)
        assert "Enter: all of the text above" in shown(app)  # the prompt says it too
        at = run.index
        await pilot.press("enter")  # all of it, not the next exercise
        await until(lambda: isinstance(app.screen, MessageScreen), pilot)
        assert app.screen.text == screen.panel and run.index == at
        reason = run.answers[at].reason
        assert reason.split()[-1] in " ".join(shown(app).split())  # its end is there
        await pilot.press("enter")  # the box closes
        await until(lambda: app.screen is screen and "Enter: next exercise" in shown(app),
                    pilot)
        await pilot.press("enter")  # read: Enter goes on
        await until(lambda: run.index == at + 1, pilot)

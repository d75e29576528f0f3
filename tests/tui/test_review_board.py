"""The analysis board on screen: its keys, the marks told apart without colour, nothing of
the other seat's hand shown, ASCII only in ASCII mode, and the "play from here" hook."""

from __future__ import annotations

import re
import threading

from rich.segment import Segment
from textual.color import Color
from textual.filter import NoColor

from solstis_tui.app import SolstisApp
from solstis_tui.coach.analysis import TINY
from solstis_tui.core import Game, Move, Spirit
from solstis_tui.core.board import NAMES
from solstis_tui.screens.review import ReviewScreen
from solstis_tui.words.moves import short_move
from tests.online.helpers import screen_lines, widget_text
from tests.review_game import finished_record

from .conftest import analysed, settle


def board_app(record=None, **kwargs) -> SolstisApp:
    return SolstisApp(review=record or finished_record(), review_effort=TINY,
                      review_workers=1, autosave=False, **kwargs)


async def test_the_keys_step_jump_and_find_the_mistakes():
    app = board_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await analysed(pilot, app.screen)
        board = screen.board
        total = len(board.steps)
        await pilot.press("right", "right")
        assert board.cursor == 2
        assert f"decision 3 of {total}" in widget_text(app, "#topbar")
        await pilot.press("left")
        assert board.cursor == 1
        await pilot.press("end")
        assert board.cursor == total - 1
        await pilot.press("home")
        assert board.cursor == 0
        # n goes on from here: a label on the first step is where the board opens
        labelled = [i for i, s in enumerate(board.steps) if board.note(s).label and i > 0]
        await pilot.press("n")
        assert board.cursor == labelled[0]
        assert board.note().label in widget_text(app, "#info")
        await pilot.press("n", "p")
        assert board.cursor == labelled[0]
        top = widget_text(app, "#graph")  # at 80 columns the top three are beside the graph
        assert f"1 {short_move(board.note().best)} " in top
        assert "Judge: " not in widget_text(app, "#info")
        assert board.note().reason[:40] in widget_text(app, "#info").replace("\n", " ")


async def test_the_other_seats_hand_never_appears_on_the_board():
    record = finished_record(kinds=("greedy", "random"))  # both seats reviewed
    app = board_app(record)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await analysed(pilot, app.screen)
        for step in screen.board.steps:
            assert screen.board.current is step
            game = Game.new(record.seed, record.options)
            for mv in record.moves[:step.move_index]:
                game.play(Move.parse(mv))
            hidden = set(game.observation(1 - step.seat).hand) - \
                set(step.obs.opponent_known)
            shown = "\n".join(widget_text(app, f"#{part}")
                              for part in ("hand", "display", "mine", "theirs", "pool"))
            named = set(re.findall(r"(?<![\d-])([1-6]-\d{1,2})(?!\d)", shown))
            assert hidden and named and not {NAMES[t] for t in hidden} & named, \
                "a tile of the other hand was shown"
            assert f"{screen.board.names[1 - step.seat]}: " \
                f"{step.obs.opponent_hand_count} tile" in widget_text(app, "#hand")
            await pilot.press("right")


def _styles_of(app: SolstisApp, selector: str, text: str) -> list:
    """The styles (colours taken away, as NO_COLOR does) of the segments that draw ``text``
    in the widget ``selector``."""
    widget = app.screen.query_one(selector)
    segments = list(app.console.render(widget.render(), app.console.options))
    plain = NoColor().apply(segments, Color(0, 0, 0))
    return [s.style for s in Segment.simplify(plain) if text in s.text and s.style]


async def test_the_move_played_and_the_best_are_told_apart_without_colour():
    app = board_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await analysed(pilot, app.screen)
        board = screen.board
        i = next(i for i, s in enumerate(board.steps)
                 if board.note(s).best != s.played and s.played.kind.name == "CAPTURE"
                 and board.note(s).best.kind.name == "CAPTURE")
        board.go(i)
        screen.redraw()
        await pilot.pause()
        played, best = NAMES[board.current.played.arg], NAMES[board.note().best.arg]
        (p_style,) = _styles_of(app, "#display", played)
        (b_style,) = _styles_of(app, "#display", best)
        assert p_style.reverse and not p_style.underline
        assert b_style.underline and not b_style.reverse


def _drawn(app: SolstisApp, selector: str) -> str:
    """What the widget ``selector`` draws itself (before ASCII mode's last filter)."""
    widget = app.screen.query_one(selector)
    return "".join(s.text for s in app.console.render(widget.render(), app.console.options))


async def test_every_decision_on_the_board_is_drawn_in_ascii_in_ascii_mode():
    app = board_app(finished_record(kinds=("greedy", "random")), ascii_mode=True)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await analysed(pilot, app.screen)
        for _ in screen.board.steps:
            for part in ("topbar", "mine", "theirs", "display", "hand", "pool", "graph",
                         "info", "list"):
                text = _drawn(app, f"#{part}")
                assert text.isascii(), (part, {ch for ch in text if not ch.isascii()})
            assert "\n".join(screen_lines(app)).isascii()
            await pilot.press("right")


async def test_s_sums_the_game_up_once_it_is_judged_and_a_wide_screen_shows_it_beside(
        monkeypatch):
    from solstis_tui.coach import analysis
    from solstis_tui.screens.message import MessageScreen

    gate = threading.Event()
    real = analysis.analyse

    def held(*args, **kwargs):
        gate.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(analysis, "analyse", held)
    app = board_app()
    try:
        async with app.run_test(size=(130, 30)) as pilot:
            review = app.screen
            await pilot.press("s")  # nothing judged yet: no sum, and no key offered
            assert app.screen is review and "Summary" not in "\n".join(screen_lines(app))
            assert widget_text(app, "#summary").strip() == ""
            gate.set()
            await analysed(pilot, review)
            await pilot.pause()
            names = review.board.names
            wide = "\n".join(screen_lines(app))  # the sum stands beside the board
            assert all(f"{name}: " in wide for name in names) and "luck" in wide
            assert "s Summary" in wide
            await pilot.press("s")
            await pilot.pause()
            assert isinstance(app.screen, MessageScreen)
            shown = "\n".join(screen_lines(app))
            assert "The game in sum" in shown and f"{names[0]} played " in shown
            await pilot.press("enter")
            assert app.screen is review
    finally:
        gate.set()


class NoPracticeApp(SolstisApp):
    """An app without practice games (as the online client is)."""

    play_from_here = None


async def test_f_is_not_offered_where_the_app_cannot_play_from_here():
    app = NoPracticeApp(review=finished_record(), review_effort=TINY, review_workers=1,
                        autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert "Play from here" not in "\n".join(screen_lines(app))
        assert app.screen.check_action("play_from_here", ()) is False


async def test_f_on_solstis_review_plays_on_from_the_decision_shown_in_a_practice(data_dir):
    from solstis_tui.local.practice import PracticeSession

    record = finished_record()
    app = board_app(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        step = app.screen.board.current
        await pilot.press("f")
        await settle(pilot, app)
        assert app.is_running  # closing the board for the practice did not end the program
        session = app.game_screen.session
        assert isinstance(session, PracticeSession)
        assert session.source == (record, step.point, step.seat)
        assert "Practice (re-dealt)" in "\n".join(screen_lines(app))


async def test_the_judge_works_in_processes_from_inside_the_app():
    """Inside Textual, stderr is a capture without a descriptor: the pool must still start."""
    app = SolstisApp(review=finished_record(), review_effort=TINY, review_workers=2,
                     autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await analysed(pilot, app.screen)
        assert screen.board.failed == "" and screen.board.notes


async def test_a_decision_shows_on_the_board_while_the_rest_is_still_judged(monkeypatch):
    from solstis_tui.coach import analysis

    gate = threading.Event()
    real = analysis.analyse

    def held_after_the_first(*args, judged=None, **kwargs):
        def hold(k, note):
            judged(k, note)
            if k == 0:
                gate.wait(30)

        return real(*args, judged=hold, **kwargs)

    monkeypatch.setattr(analysis, "analyse", held_after_the_first)
    app = board_app()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            board = app.screen.board
            for _ in range(500):  # a guard: the first decision is judged in a moment
                await pilot.pause(0.01)
                if board.judged:
                    break
            assert board.current.point == 0 and not board.notes
            assert board.note() is not None
            assert f"1 {short_move(board.note().best)} " in widget_text(app, "#graph")
            assert "judging" in widget_text(app, "#topbar")
            gate.set()
            await analysed(pilot, app.screen)
    finally:
        gate.set()


async def test_a_rainbow_played_and_the_best_one_are_marked_on_their_cells():
    app = board_app(finished_record(2))  # Ann plays a rainbow the judge would place elsewhere
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await analysed(pilot, app.screen)
        board = screen.board
        i = next(i for i, s in enumerate(board.steps) if s.played.kind.name == "RAINBOW"
                 and board.note(s).best.arg != s.played.arg)  # a rainbow not the best
        for _ in range(i):
            await pilot.press("right")
        played, best = board.current.played.arg, board.note().best.arg
        assert played != best
        rows = {line[:3].strip(): line for line in widget_text(app, "#mine").splitlines()}
        for cell, glyph in ((played, "◆◆"), (best, "◇◇")):
            row, column = cell // 10 + 1, cell % 10 + 1
            x = 3 + (column - 1) * 3
            assert rows[str(row)][x:x + 2] == glyph, (cell, rows[str(row)])


async def test_at_80_columns_the_spirit_line_shows_where_a_spirit_is_chosen():
    app = board_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await analysed(pilot, app.screen)
        board = screen.board
        pool = screen.query_one("#pool")
        assert board.current.played.kind.name == "PLAY" and not pool.display
        i = next(i for i, s in enumerate(board.steps) if s.played.kind.name == "TAKE")
        for _ in range(i):
            await pilot.press("right")
        assert pool.display
        taken = Spirit(board.current.played.arg).title
        assert taken in widget_text(app, "#pool")
        (style,) = [s for s in _styles_of(app, "#pool", taken)]
        assert style.reverse


async def test_question_mark_explains_the_marks_at_80_columns_where_no_side_panel_shows():
    from textual.widgets import Static

    from solstis_tui.screens.message import MessageScreen

    app = board_app()
    async with app.run_test(size=(80, 24)) as pilot:
        review = await analysed(pilot, app.screen)
        footer = screen_lines(app)[-1]
        assert "? Marks" in footer and "esc Close" in footer  # every key fits
        assert "Reversed: the move played" not in "\n".join(screen_lines(app))
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        shown = " ".join(str(w.render()) for w in app.screen.query(Static))
        assert "Reading the board" in shown and "Reversed: the move played" in shown
        assert "Underlined: the judge's best" in shown and "i, m, b: inaccuracy" in shown
        await pilot.press("enter")
        assert app.screen is review


async def test_a_draw_marks_the_spirit_pile_and_a_keep_the_spirit_kept_among_those_drawn():
    app = board_app(finished_record(1))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await analysed(pilot, app.screen)
        board = screen.board
        for kind in ("DRAW", "KEEP"):
            board.go(next(i for i, s in enumerate(board.steps) if s.played.kind.name == kind))
            screen.redraw()
            await pilot.pause()
            step = board.current
            if kind == "DRAW":
                marked = f"pile {step.obs.spirit_pile}"
            else:
                marked = Spirit(step.played.arg).title
                drawn = [Spirit(s).title for s in step.obs.context]
                assert "Drawn " + " ".join(drawn) + " · Spirits" in widget_text(app, "#pool")
            assert marked in widget_text(app, "#pool")
            assert any(style.reverse for style in _styles_of(app, "#pool", marked)), kind


async def test_a_reason_too_long_for_80x24_is_cut_with_a_pointer_and_enter_shows_it_whole():
    from textual.widgets import Static

    from solstis_tui.screens.message import MessageScreen

    app = board_app(finished_record(1))
    async with app.run_test(size=(80, 24)) as pilot:
        review = await analysed(pilot, app.screen)
        board = review.board
        seen = {"cut": 0, "whole": 0}
        for i in range(len(board.steps)):
            board.go(i)
            review.redraw()
            await pilot.pause()
            shown = widget_text(app, "#info")
            reason = board.note().reason
            if reason.split()[-1] in shown:  # all of it fits
                seen["whole"] += 1
                assert "Enter: all of it" not in shown
            else:
                seen["cut"] += 1
                assert shown.rstrip().endswith("… Enter: all of it"), shown
                await pilot.press("enter")
                await pilot.pause()
                assert isinstance(app.screen, MessageScreen)
                text = " ".join(str(w.render()) for w in app.screen.query(Static))
                assert " ".join(reason.split()) in " ".join(text.split())
                await pilot.press("enter")
                assert app.screen is review
        assert seen["cut"] and seen["whole"], seen

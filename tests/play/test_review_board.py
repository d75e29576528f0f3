"""The analysis board's controller, without an app: stepping through a finished game,
n/p over the labelled decisions, what is marked on the board, what stays hidden, and the
graph of each seat's expected result."""

from __future__ import annotations

import dataclasses

import pytest

from solstis_tui.coach.analysis import signed
from solstis_tui.core import Game, Move, MoveKind
from solstis_tui.core.board import NAMES
from solstis_tui.play.review_board import ReviewBoard, marks_of
from solstis_tui.play.review_graph import ASCII_LEVELS
from solstis_tui.records import replay
from tests.review_game import finished_record, tiny_analysis


def analysed_board(seats=None) -> ReviewBoard:
    record = finished_record()
    board = ReviewBoard(record, seats)
    board.set_analysis(tiny_analysis(record))
    return board


def test_the_board_reviews_the_persons_decisions_by_default_and_both_seats_on_request():
    record = finished_record()
    assert {s.seat for s in ReviewBoard(record).steps} == {0}
    both = ReviewBoard(record, (0, 1))
    assert {s.seat for s in both.steps} == {0, 1}
    assert len(both.steps) == both.points == len(tiny_analysis(record).decisions())
    watched = ReviewBoard(finished_record(kinds=("greedy", "random")))
    assert watched.seats == (0, 1)


def test_arrows_step_one_decision_and_stop_at_either_end():
    board = ReviewBoard(finished_record())
    assert board.cursor == 0
    board.step(-1)
    assert board.cursor == 0
    board.step(1)
    board.step(1)
    assert board.cursor == 2
    board.end()
    assert board.cursor == len(board.steps) - 1
    board.step(1)
    assert board.cursor == len(board.steps) - 1
    board.home()
    assert board.cursor == 0
    assert f"decision 1 of {len(board.steps)}" in board.heading()


def test_n_and_p_go_to_the_next_and_previous_labelled_decision():
    board = analysed_board()
    # n goes on from the board's first step: a label there is where the board opens
    labelled = [i for i, s in enumerate(board.steps) if board.note(s).label and i > 0]
    assert len(labelled) >= 2
    seen = []
    for _ in labelled:
        board.next_mistake()
        seen.append(board.cursor)
    assert seen == labelled
    board.next_mistake()  # none further on: the cursor stays and the board says so
    assert board.cursor == labelled[-1]
    assert "No inaccuracy, mistake or blunder after this one" in board.info()[0]
    board.previous_mistake()
    assert board.cursor == labelled[-2]
    assert board.note().label in ("inaccuracy", "mistake", "blunder")
    assert board.note().label in board.info()[0]


def test_n_before_the_analysis_is_done_says_so_and_stays():
    board = ReviewBoard(finished_record())
    board.set_progress(3, 35)
    board.next_mistake()
    assert board.cursor == 0
    assert "as the judge gets to them" in board.info()[0]
    assert "judging 3 of 35" in board.heading()


def test_a_decision_shows_as_soon_as_it_is_judged():
    record = finished_record()
    board = ReviewBoard(record)
    notes = tiny_analysis(record).decisions()
    labelled = [i for i, s in enumerate(board.steps) if notes[s.point].label and i > 0]
    board.end()
    assert board.note() is None and "still at work" in board.info()[0]
    for k in range(board.steps[labelled[1]].point + 1):  # judged up to the 2nd mistake
        board.add_note(k, notes[k])
    board.home()
    assert board.note() == notes[board.steps[0].point]
    assert board.info()[1].startswith("Judge: 1 ")
    board.next_mistake()
    assert board.cursor == labelled[0]
    board.next_mistake()
    assert board.cursor == labelled[1]
    board.next_mistake()
    assert board.cursor == labelled[1] and "so far" in board.info()[0]
    assert board.graph(80) == []  # the graph waits for the whole analysis


def test_the_move_played_and_the_judges_best_are_marked_where_they_are_on_the_board():
    board = analysed_board()
    for i, step in enumerate(board.steps):
        board.go(i)
        view = board.board()
        note = board.note()
        assert view.played == marks_of(step.played, step.obs)
        assert view.best == marks_of(note.best, step.obs)
        if step.played.kind in (MoveKind.PLAY, MoveKind.CAPTURE, MoveKind.DEER):
            assert view.played.tiles == {step.played.arg}
            shown = set(step.obs.hand) | {t for t, _ in step.obs.display}
            assert step.played.arg in shown  # a tile the board shows
        if note.best.kind in (MoveKind.PLAY, MoveKind.CAPTURE):
            assert view.best.tiles == {note.best.arg}


def test_each_kind_of_move_marks_its_own_place():
    obs = Game.new(seed=3).observation(0)
    assert marks_of(Move(MoveKind.RAINBOW, 12), obs).cells == ({12}, set())
    assert marks_of(Move(MoveKind.SHIFT, 12), obs).cells == ({12}, set())
    assert marks_of(Move(MoveKind.EVIL, 21), obs).cells == (set(), {21})
    assert marks_of(Move(MoveKind.VIPER, 21), obs).cells == (set(), {21})
    assert marks_of(Move(MoveKind.SQUARE, 11), obs).squares == ({11}, set())
    assert marks_of(Move(MoveKind.TAKE, 4), obs).spirits == {4}
    assert marks_of(Move(MoveKind.KEEP, 4), obs).spirits == {4}
    assert marks_of(Move(MoveKind.DRAW), obs).pile and not marks_of(None, obs).pile
    assert marks_of(Move(MoveKind.PASS), obs) == marks_of(None, obs)


def test_each_decision_is_shown_as_its_seat_saw_it_and_the_other_hand_stays_hidden():
    record = finished_record()
    board = ReviewBoard(record, (0, 1))
    game = replay(record)
    again = Game.new(record.seed, record.options, legacy=record.legacy)
    seen = 0
    for p, mv, auto in game.history:
        if not auto:
            if len(again.legal) > 1:
                step = board.steps[seen]
                board.go(seen)
                view = board.board()
                assert view.obs == again.observation(p) and view.me == p
                assert view.my_hand == again.observation(p).hand
                hidden = set(again.observation(1 - p).hand) - set(again.observation(p)
                                                                  .opponent_known)
                assert not hidden & set(view.their_hand or ()), "the other hand was shown"
                assert step.played == mv
                seen += 1
            again.play(mv)
    assert seen == len(board.steps)


def test_the_lines_under_the_board_give_the_top_three_with_values_and_the_reason():
    board = analysed_board()
    board.next_mistake()
    note = board.note()
    first, top, reason = board.info()
    assert first.startswith(f"Turn {board.current.turn}, Ann: ")
    assert note.label in first
    assert top.startswith("Judge: 1 ") and f"{signed(note.top[0].margin)}★" in top
    assert len(note.top) == min(3, len(board.current.obs.legal_moves))
    assert "(played)" in top or "played " in top
    assert reason == note.reason


def test_the_top_three_for_beside_the_graph_flag_the_move_played():
    board = analysed_board()
    board.next_mistake()
    note = board.note()
    entries = board.top_entries()
    assert len(entries) == len(note.top) and entries[0].startswith("1 ")
    flagged = [e for e in entries if e.endswith(" <")]
    assert len(flagged) == (note.played in [t.move for t in note.top])
    first, reason = board.info(top_beside=True)
    assert reason == note.reason and "Judge:" not in first


def test_the_graph_marks_the_cursor_and_the_labelled_decisions():
    board = analysed_board()
    board.next_mistake()
    rows = board.graph(board.points)
    assert len(rows) == 3 and all(len(r) == board.points for r in rows)
    cursor = [i for i, cell in enumerate(rows[0]) if cell.cursor]
    assert cursor == [board.current.point]
    notes = board.analysis.decisions()
    labelled = {k for k, n in enumerate(notes) if n.label and n.seat in board.seats}
    assert {i for i, c in enumerate(rows[2]) if c.kind == "label"} == labelled
    assert rows[2][board.current.point].text == board.note().label[0]
    wide = board.graph(3 * board.points + 2)  # room to spare: three characters a decision
    assert all(len(r) == 3 * board.points for r in wide)
    assert [i for i, c in enumerate(wide[0]) if c.cursor] == \
        [3 * board.current.point + k for k in range(3)]


def test_the_graph_marks_only_the_mistakes_n_and_p_go_to():
    board = analysed_board()  # the person's seat only
    notes = board.analysis.decisions()
    others = {k for k, n in enumerate(notes) if n.label and n.seat not in board.seats}
    assert others  # the other seat erred too: those are not marked
    marked = {i for i, c in enumerate(board.graph(board.points)[2]) if c.kind == "label"}
    assert not marked & others
    reached = set()
    board.go(0)
    while True:
        at = board.cursor
        board.next_mistake()
        if board.cursor == at:
            break
        reached.add(board.current.point)
    while True:  # and back: p reaches the first decision too, which n starts past
        at = board.cursor
        board.previous_mistake()
        if board.cursor == at:
            break
        reached.add(board.current.point)
    assert reached == marked


def test_a_long_game_folds_into_a_narrow_graph_and_ascii_draws_ascii():
    board = analysed_board()
    rows = board.graph(10, ascii_mode=True)
    assert all(len(r) == 10 for r in rows)
    assert all(c.text in ASCII_LEVELS for c in rows[0] + rows[1])
    assert all(c.text.isascii() for row in rows for c in row)
    assert sum(c.cursor for c in rows[0]) == 1


def test_an_analysis_of_another_game_is_refused():
    board = ReviewBoard(finished_record())
    other = tiny_analysis(finished_record(seed=6))
    fewer = dataclasses.replace(other, notes=other.notes[:3])
    with pytest.raises(ValueError):
        board.set_analysis(fewer)
    assert board.analysis is None


def test_the_decision_list_keeps_the_cursor_in_its_window():
    board = analysed_board()
    board.end()
    lines, at = board.decision_lines(5)
    assert len(lines) == 5 and at == 4
    assert NAMES.get(board.current.played.arg, "") in lines[at] or \
        board.current.played.kind.name.lower() in lines[at].lower()


def test_a_seat_that_resigned_before_its_first_choice_has_nothing_to_review_and_no_judging():
    from datetime import UTC, datetime

    from solstis_tui.core import EndReason, Game
    from solstis_tui.records import SeatRecord, record_of

    game = Game.new(seed=5)
    while game.to_play == 0 or len(game.legal) < 2:  # seat 1 faces its first real choice
        game.play(game.legal_moves()[0])
    game.end(EndReason.RESIGNED, 1)
    record = record_of(game, (SeatRecord("Ann", "human"), SeatRecord("Bob", "human")),
                       datetime(2026, 12, 4, tzinfo=UTC))
    board = ReviewBoard(record, (1,))
    assert board.points > 0 and not board.steps
    assert board.status() == ""  # no "judging 0 of 1" that never moves
    assert board.info() == ["Bob made no decision before the game ended: nothing to review."]


def test_the_game_in_sum_comes_with_the_analysis_and_speaks_for_the_reviewed_seat():
    record = finished_record()
    board = ReviewBoard(record, (1,))
    assert board.summary_lines() == []
    found = tiny_analysis(record)
    board.set_analysis(found)
    ann, bob, line = board.summary_lines()
    for text, seat in ((ann, found.seats[0]), (bob, found.seats[1])):
        assert text.startswith(f"{seat.name}: {seat.error_rate:.2f}★ lost a decision; ")
        assert f"{seat.labels['blunder']} blunder" in text and "luck " in text
    assert line.startswith(f"{found.seats[1].name} played ")  # the reviewed seat, not seat 0


def test_a_mistake_that_gives_up_no_win_chance_says_so_without_a_negative_percentage():
    board = analysed_board()
    board.next_mistake()
    at = board.notes.index(board.note())
    board.notes[at] = dataclasses.replace(board.note(), loss_win=-0.021)
    first = board.info()[0]
    assert "lost (the win chance is no lower)" in first and "-2%" not in first, first
    board.notes[at] = dataclasses.replace(board.note(), loss_win=0.003)
    assert "and under 1% win chance lost" in board.info()[0]
    board.notes[at] = dataclasses.replace(board.note(), loss_win=0.126)
    assert "and 13% win chance lost" in board.info()[0]

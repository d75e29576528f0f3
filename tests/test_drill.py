"""Drill: the player's newest mistakes across kept games (20 at most), each asked again at
the position the player saw, the answer judged as the analysis judges and explained; kept
games not analysed yet are left out and said; with nothing to drill, a clear sentence."""

from __future__ import annotations

import random

import pytest

from solstis_tui.coach import analysis, store
from solstis_tui.core import IllegalMove, Move
from solstis_tui.local import drill
from solstis_tui.words.moves import describe_move

from .drill_games import keep_games


@pytest.fixture(autouse=True)
def tiny(monkeypatch):
    monkeypatch.setattr(store, "EFFORT", analysis.TINY)


def test_the_drill_asks_the_newest_mistakes_of_the_person_first_and_twenty_at_most(tmp_path):
    keep_games(tmp_path, [4, 5, 6], analysed=3, labelled=True)
    everything = drill.collect(tmp_path, limit=1000).exercises
    assert len(everything) > drill.LIMIT
    asked = drill.collect(tmp_path).exercises
    assert asked == everything[:drill.LIMIT]
    assert len({ex.path for ex in everything}) == 3  # across games
    order = [(-ex.date.timestamp(), -ex.index) for ex in everything]
    assert order == sorted(order)  # the newest game first, its last mistake first
    for ex in everything:
        assert ex.label in ("mistake", "blunder") and ex.loss_stars >= 3.0
        assert ex.record.seats[ex.seat].is_human


def test_only_the_persons_decisions_are_asked(tmp_path):
    keep_games(tmp_path, [4, 5], analysed=2, person=1)
    asked = drill.collect(tmp_path).exercises
    assert asked and {ex.seat for ex in asked} == {1}


def test_games_not_analysed_yet_are_left_out_and_said(tmp_path):
    paths = keep_games(tmp_path, [4, 5, 6], analysed=1)
    found = drill.collect(tmp_path)
    assert set(found.unanalysed) == set(paths[1:])
    assert {ex.path for ex in found.exercises} == {paths[0]}
    assert "2 kept games are not analysed yet" in found.unanalysed_sentence()
    assert drill.analyse_missing(found) == 2
    again = drill.collect(tmp_path)
    assert not again.unanalysed and {ex.path for ex in again.exercises} == set(paths)


def test_with_nothing_to_drill_a_sentence_says_why(tmp_path):
    nothing = drill.collect(tmp_path)
    assert not nothing.exercises
    assert nothing.empty_message().startswith("No mistakes to drill")
    keep_games(tmp_path, [4], analysed=0)
    waiting = drill.collect(tmp_path)
    assert "solstis drill --analyse" in waiting.empty_message()
    with pytest.raises(ValueError, match="No mistakes"):
        drill.DrillRun(nothing)


def test_an_answer_is_judged_as_the_analysis_judged_the_game(tmp_path):
    keep_games(tmp_path, [4, 5], analysed=2)
    for ex in drill.collect(tmp_path).exercises[:4]:
        # The analysis judged decision k from the seat's observation with seed 2k + seat.
        answer = drill.judge_answer(ex, ex.played, analysis.TINY, seed=2 * ex.index + ex.seat)
        assert answer.loss_stars == pytest.approx(ex.loss_stars, abs=0.01)
        assert answer.label == ex.label and answer.best == ex.best


def test_the_answer_is_explained_by_its_loss_the_best_move_and_the_games_loss(tmp_path):
    keep_games(tmp_path, [4], analysed=1)
    ex = drill.collect(tmp_path).exercises[0]
    said = set()
    for move in ex.observation().legal_moves:
        answer = drill.judge_answer(ex, move, analysis.TINY)
        judgement = answer.judgement()
        if answer.label is None:
            assert judgement.startswith("as good as the best")
        else:
            assert judgement == (f"{answer.loss_stars:.1f}★ less than the best, "
                                 f"{answer.best} ({answer.label}).")
        why = ex.explanation(answer.reason)
        assert why.startswith(f"In the game, {describe_move(ex.played)} lost {ex.loss_stars:.1f}★ "
                              f"({ex.label}).")
        named = why.lower()  # the reason names both moves in words, maybe capitalised
        assert describe_move(answer.best).lower() in named
        assert describe_move(move).lower() in named
        said.add(judgement + why)
    assert len(said) == len(ex.observation().legal_moves)


def test_an_illegal_answer_is_refused_and_a_given_one_keeps_the_position(tmp_path):
    keep_games(tmp_path, [4], analysed=1)
    run = drill.DrillRun(drill.collect(tmp_path), analysis.TINY)
    while run.exercise.observation().land_pile < 2:  # something hidden to deal anew
        assert run.next()
    session = run.session(random.Random(1))
    seat = run.exercise.seat
    seen = session.game.observation(seat)
    assert seen == run.exercise.observation()
    real = run.exercise.position()  # what the seat could not see is dealt anew
    assert (session.game.hands[1 - seat], session.game.pile) != (real.hands[1 - seat],
                                                                 real.pile)
    with pytest.raises(IllegalMove):
        drill.judge_answer(run.exercise, Move.parse("draw"))
    move = seen.legal_moves[0]
    session.apply(move)
    assert session.answer == move and session.game.observation(seat) == seen
    with pytest.raises(IllegalMove, match="answered"):
        session.apply(move)
    assert not session.assists and session.takeback is None
    assert not session.keeps_record and not session.autosaves


def test_an_answer_that_is_the_best_is_told_why_it_beats_the_games_move(tmp_path):
    keep_games(tmp_path, [4], analysed=1)
    ex = drill.collect(tmp_path).exercises[0]
    best = drill.judge_answer(ex, ex.played, analysis.TINY).best
    answer = drill.judge_answer(ex, best, analysis.TINY)
    assert answer.move == answer.best
    if answer.best != ex.played:
        assert describe_move(ex.played).lower() in answer.reason.lower()

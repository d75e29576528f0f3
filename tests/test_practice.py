"""Play from here: a practice game starts at a finished game's decision with everything the
player saw there, and nothing they could not see: the hidden parts are dealt anew, against
the same opponent; it is never kept as a record nor saved over the player's game."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from solstis_tui.coach import analysis
from solstis_tui.core import Game
from solstis_tui.core.determinize import Dealer
from solstis_tui.local import practice
from solstis_tui.local.seats import Seat
from solstis_tui.records import GameRecord, SeatRecord, record_of
from tests.test_records import finished

WHEN = datetime(2026, 12, 4, 17, 30, tzinfo=UTC)


def a_record(seed: int = 4, variant: str = "base", other: str = "mcts") -> GameRecord:
    return record_of(finished(seed, variant), (SeatRecord("You", "human"),
                                               SeatRecord("Bot", other)), WHEN)


def hidden(game: Game, seat: int) -> tuple[object, ...]:
    """What ``seat`` cannot see: the other hand, the land pile, the face-down display
    tiles, the spirit pile."""
    return (tuple(game.hands[1 - seat]), tuple(game.pile), tuple(game.face_down),
            tuple(game.spirit_pile))


@pytest.mark.parametrize("variant", ["base", "beginner", "firefly"])
def test_the_practice_starts_where_the_seat_decided_with_all_it_saw_and_the_rest_redealt(
        variant):
    record = a_record(5, variant)
    found = practice.points(record)
    for index in range(0, len(found), 4):
        spot = found[index]
        for seat in (0, 1):
            session = practice.start(record, index, seat, random.Random(index))
            game = session.game
            # Hand, board, display, spirits, scores, whose decision, the log: all as seen.
            assert game.observation(seat) == spot.before.observation(seat)
            assert (game.score(0), game.score(1)) == (spot.before.score(0),
                                                      spot.before.score(1))
            assert (game.turn, game.to_play) == (spot.before.turn, spot.before.to_play)
            if spot.seat == seat:  # the same choices (the other seat's are its hand's)
                assert game.legal_moves() == spot.before.legal_moves()
            assert hidden(game, seat) != hidden(spot.before, seat)
            assert session.human_to_play == (spot.seat == seat)


def test_decisions_are_numbered_as_the_analysis_numbers_them():
    game = finished(6)
    record = record_of(game, (SeatRecord("A", "human"), SeatRecord("B", "random")), WHEN)
    notes = analysis.analyse(game, effort=analysis.TINY).decisions()
    assert [(n.turn, n.seat, n.played) for n in notes] == \
        [(p.turn, p.seat, p.played) for p in practice.points(record)]


def test_what_the_real_game_hid_does_not_reach_the_practice():
    record = a_record(7)
    spot = practice.point(record, 12)
    seat = 0
    real = spot.before
    # Another game the seat cannot tell from the real one: only the hidden parts differ.
    other = Dealer(real.observation(seat)).deal(random.Random(99))
    assert other.observation(seat) == real.observation(seat)
    assert hidden(other, seat) != hidden(real, seat)
    from_real = practice.from_position(real, seat, Seat("mcts"), random.Random(3))
    from_other = practice.from_position(other, seat, Seat("mcts"), random.Random(3))
    assert hidden(from_real.game, seat) == hidden(from_other.game, seat)


def test_each_practice_is_dealt_from_fresh_secret_randomness():
    record = a_record(7)
    first, second = (practice.start(record, 12, 0) for _ in range(2))
    assert hidden(first.game, 0) != hidden(second.game, 0)
    assert first.setup.secret and first.setup.seed != second.setup.seed
    # Later draws (the Fly's) come from the keyed generator, not from guessable SplitMix64.
    assert not first.game.legacy
    assert first.game.observation(0) == second.game.observation(0)


def test_the_practice_is_against_the_same_tier_and_a_person_is_replaced_by_the_expert():
    session = practice.start(a_record(other="minimax@40"), 3, 0)
    assert [str(s) for s in session.setup.seats] == ["human", "minimax@40"]
    bot_first = record_of(finished(4), (SeatRecord("Bot", "greedy"),
                                         SeatRecord("You", "human")), WHEN)
    session = practice.start(bot_first, 3, 1)
    assert [str(s) for s in session.setup.seats] == ["greedy", "human"]
    hotseat = record_of(finished(4), (SeatRecord("Ann", "human"), SeatRecord("Bob", "human")),
                        WHEN)
    assert str(practice.start(hotseat, 3, 0).setup.seats[1]) == practice.STANDIN


def test_a_practice_says_so_and_is_neither_kept_nor_autosaved():
    session = practice.start(a_record(), 3, 0)
    assert "Practice" in session.deal_label()
    assert not session.keeps_record
    assert not session.autosaves


def test_a_decision_or_seat_that_is_not_there_is_refused_with_a_reason():
    record = a_record()
    count = len(practice.points(record))
    with pytest.raises(ValueError, match=f"has {count} decisions"):
        practice.start(record, count, 0)
    with pytest.raises(ValueError, match="has"):
        practice.start(record, -1, 0)
    with pytest.raises(ValueError, match="seats 1 and 2"):
        practice.start(record, 0, 2)

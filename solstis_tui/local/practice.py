"""Play from here: a practice game from a decision of a finished game, re-dealt.

A finished game's record (``records.GameRecord``) is replayed to one of its decisions with
a real choice, numbered as ``analysis.analyse`` numbers them (its ``DecisionNote``s, in
order). From there the reviewing seat plays on against the record's other seat: the bot
its kind names, if it is one of this program's tiers or an installed bot
(``ai.registry.spec_from_file``: a record, which anyone may send, never names a module to
import). A person there is replaced by ``STANDIN``; a kind that names no such bot, by the
same tier at its own budget or ``STANDIN``, and the practice says so (``Opponent.note``).
Only the reviewing seat's observation goes into the practice game: the other hand, the
land pile, the face-down display tiles and the spirit pile are dealt anew from it by the
bots' dealer (``core.determinize.deal_anew``), from the OS's randomness, so nothing hidden
in the real game leaks into the practice. A practice game is not kept as a record and not autosaved:
the player's saved game stays as it was. No Textual here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from ..ai.registry import spec_from_file
from ..coach.choice_points import choice_points
from ..core import Game, Move
from ..core.determinize import deal_anew
from ..core.rng import new_secret
from ..records import GameRecord, replay
from .seats import PERSON, Seat
from .session import STRONGEST, Session, Setup

#: The opponent of a practice from a game whose other seat was a person (hot-seat,
#: online): the tier hints and reviews ask.
STANDIN: Final = STRONGEST
#: What the top bar says in place of the deal.
LABEL: Final = "Practice (re-dealt)"


@dataclass(frozen=True)
class Point:
    """A decision with a real choice in a finished game: the ``index``-th (from 0) as the
    analysis numbers them, who made it, the move made, and the game just before it."""

    index: int
    turn: int
    seat: int
    played: Move
    before: Game


def points(record: GameRecord) -> list[Point]:
    """Every decision of ``record`` with a real choice (more than one legal move), in the
    order of the game: the decisions ``analysis.analyse`` judges, in the same order
    (``choice_points``). The record is replayed from its deal; ValueError if it does not
    replay."""
    return [Point(c.index, c.before.turn, c.seat, c.played, c.before.copy())
            for c in choice_points(replay(record))]


def point(record: GameRecord, decision_index: int) -> Point:
    """Decision ``decision_index`` (from 0) of ``record``; ValueError saying how many
    there are when there is no such decision."""
    found = points(record)
    if not 0 <= decision_index < len(found):
        raise ValueError(f"there is no decision {decision_index + 1}: this game has "
                         f"{len(found)} decisions with a real choice")
    return found[decision_index]


@dataclass(frozen=True)
class Opponent:
    """Who a practice from a record plays against (``seat``), and ``note``: '' when it is
    the record's own bot (or the stand-in for a person), else a sentence saying that the
    record's seat names no bot this program has and which tier plays it instead."""

    seat: Seat
    note: str = ""


def opponent_of(record: GameRecord, seat: int) -> Opponent:
    """The opponent of a practice as ``seat``: the record's other seat's bot, with its
    budget, when its kind names one of the program's bots (``spec_from_file``); the same
    bot at its own budget when only the budget is out of bounds; ``STANDIN`` where a person
    sat or the kind names no such bot (an import path, a bot not installed here), with a
    ``note`` naming the record's line. Nothing named in the record is ever imported."""
    other = record.seats[1 - seat]
    if other.is_human:
        return Opponent(Seat(STANDIN))
    try:
        return Opponent(Seat(spec_from_file(other.kind)))
    except ValueError as exc:
        why = str(exc)
    try:
        nearest = Seat(spec_from_file(other.kind.partition("@")[0]))
    except ValueError:
        nearest = Seat(STANDIN)
    number = 2 - seat
    note = (f"Seat {number} of this record (line {record.line_of(f'seat {number}')}) "
            f"cannot play here: {why}. The {nearest.title} plays it instead.")
    return Opponent(nearest, note)


def opponent(record: GameRecord, seat: int) -> Seat:
    """Who the practice as ``seat`` is against (``opponent_of``)."""
    return opponent_of(record, seat).seat


class PracticeSession(Session):
    """A practice game: a person on one seat of a re-dealt position, a bot on the other.
    Not kept as a record, not autosaved (``saves``: the saved game is the player's real
    one), and the top bar says "Practice"."""

    keeps_record = False
    autosaves = False
    source: tuple[GameRecord, int, int] | None = None
    """(record, decision index, seat) it started from: the same decision may be tried
    again (re-dealt again)."""
    note: str = ""
    """'' or why the record's other seat is played by another bot (``Opponent.note``)."""

    def deal_label(self) -> str:
        return LABEL

    def started_at(self) -> str:
        """Where the practice starts, for a sentence: 'turn 7'."""
        return f"turn {self.origin.turn}"


def start(record: GameRecord, decision_index: int, seat: int,
          rand: random.Random | None = None) -> PracticeSession:
    """A practice game from decision ``decision_index`` of ``record`` for ``seat`` (0 or
    1), against the same opponent where the program has it (``opponent_of``). The
    position is what ``seat`` saw just before that decision; everything it could not see
    is dealt anew by ``rand`` (default: the OS's CSPRNG). ValueError, saying why, for a
    seat or decision that is not there."""
    if seat not in (0, 1):
        raise ValueError(f"a game has seats 1 and 2, not {seat + 1}")
    before = point(record, decision_index).before
    against = opponent_of(record, seat)
    session = from_position(before, seat, against.seat, rand)
    session.source = (record, decision_index, seat)
    session.note = against.note
    return session


def from_position(game: Game, seat: int, bot: Seat,
                  rand: random.Random | None = None) -> PracticeSession:
    """A practice game for ``seat`` against ``bot`` from what ``seat`` sees of ``game``:
    only its observation is read, the rest is dealt anew (``deal_anew``)."""
    dealt = deal_anew(game.observation(seat), rand)
    seats = (PERSON, bot) if seat == 0 else (bot, PERSON)
    setup = Setup(variant=game.options.variant, seed=new_secret(), seats=seats, secret=True)
    return PracticeSession(setup, position=dealt)

"""Drill: the player's last mistakes across kept games, asked again one after another.

The mistakes are the decisions of a person's seat that the game's analysis labels mistake
or blunder (``analysis``; ``solstis analyze`` keeps it beside each record as
``RECORD.analysis.json``, at its effort: ``coach.store``); where the kept games have none,
their inaccuracies are asked instead (``Drill.minor``). The newest come first
(the newest game first, and in a game its last mistake first), ``LIMIT`` at most. A kept
game not yet analysed is left out and counted (``Drill.unanalysed``): analysing a game
takes 10 to 30 seconds, so a drill starts at once and says how to add them
(``analyse_missing`` analyses them first, with progress, for ``solstis drill --analyse``).

An exercise is the position as the seat saw it at that decision (``practice.points``),
re-dealt so that nothing hidden sits behind the board; the player's answer is judged from
the seat's observation (``ai/judge.py``, the answer as its focus, at ``ANSWER_EFFORT``) and
explained. No Textual here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final

from .. import record_files
from ..ai.judge import judge
from ..coach import analysis, store
from ..coach.reasons import explain
from ..core import Game, IllegalMove, Move, Observation
from ..core.determinize import deal_anew
from ..records import GameRecord
from ..words.moves import as_played, describe_move
from .practice import opponent, points
from .seats import PERSON, Seat
from .session import Session, Setup

#: The most mistakes a drill asks.
LIMIT: Final = 20
#: The labels a drill asks again.
LABELS: Final = ("mistake", "blunder")
#: The labels it asks where the kept games have none of those.
MINOR: Final = ("inaccuracy",)
#: The judge's effort for an answer: a quarter of the analysis' iterations, a fifth of its
#: shared deals; about a second for a decision on the compiled engine (docs/analysis.md).
ANSWER_EFFORT: Final = analysis.Effort(500, 12, 200)
#: The judge's seed for answers: the same answer is judged the same every time.
ANSWER_SEED: Final = 48


@dataclass(frozen=True)
class Exercise:
    """One mistake to try again: decision ``index`` (as the analysis numbers them) of the
    game ``record`` (kept at ``path``), made by ``seat``, who played ``played`` where the
    judge preferred ``best``, losing ``loss_stars``."""

    record: GameRecord
    path: Path
    index: int
    seat: int
    turn: int
    played: Move
    best: Move
    loss_stars: float
    label: str

    @property
    def date(self) -> datetime:
        return self.record.date

    def position(self) -> Game:
        """The real game just before the decision (only its ``observation(seat)`` is
        shown or judged)."""
        found = points(self.record)
        return found[self.index].before

    def observation(self) -> Observation:
        """What the seat saw when it decided."""
        return self.position().observation(self.seat)

    def about(self) -> str:
        """Which game and decision, in a few words: 'your game of 1 Dec 2026 against
        Expert bot, turn 7'."""
        other = self.record.seats[1 - self.seat].name
        return f"your game of {_day(self.date)} against {other}, turn {self.turn}"

    def explanation(self, reason: str, star: str = "★") -> str:
        """What the move played in the game lost, then ``reason``: why the best is
        better."""
        return (f"In the game, {describe_move(self.played)} lost {self.loss_stars:.1f}{star} "
                f"({self.label}). {reason}")


@dataclass(frozen=True)
class Drill:
    """The exercises, newest first, and the kept games that were left out because they are
    not analysed yet."""

    exercises: tuple[Exercise, ...]
    unanalysed: tuple[Path, ...] = ()
    minor: bool = False
    """The kept games have no mistake or blunder: the exercises are inaccuracies."""

    def empty_message(self) -> str:
        """What to say when there is nothing to drill."""
        if self.unanalysed:
            return f"No mistakes to drill yet. {self.unanalysed_sentence()}"
        return ("No mistakes to drill: none of your kept games has a decision the analysis "
                "calls an inaccuracy, a mistake or a blunder. Finished games are kept as "
                "records; 'solstis analyze RECORD' judges one.")

    def minor_sentence(self) -> str:
        """Why the exercises are inaccuracies ('' where they are mistakes)."""
        if not self.minor:
            return ""
        n = len(self.exercises)
        these = "this inaccuracy" if n == 1 else f"these {n} inaccuracies"
        return ("None of your kept games has a mistake or a blunder, so the drill asks "
                f"{these} instead: each lost a little.")

    def unanalysed_sentence(self) -> str:
        """How many kept games were left out, and how to add them ('' for none)."""
        n = len(self.unanalysed)
        if not n:
            return ""
        games, whose = ("game is", "its") if n == 1 else ("games are", "their")
        return (f"{n} kept {games} not analysed yet, so {whose} mistakes are not asked: "
                "'solstis drill --analyse' analyses them first (10 to 30 seconds a "
                "game), or 'solstis analyze RECORD' one at a time.")


def collect(folder: Path | None = None, limit: int = LIMIT) -> Drill:
    """The drill from the records kept in ``folder`` (default: the data directory's): the
    newest ``limit`` mistakes and blunders of the seats a person played, with their
    analyses read from beside the records (``store.kept``); where there are none, the
    newest ``limit`` inaccuracies (``Drill.minor``)."""
    found: list[Exercise] = []
    minor: list[Exercise] = []
    unanalysed: list[Path] = []
    for entry in record_files.entries(folder):  # newest first; damaged ones last
        record = entry.record
        if record is None or not any(seat.is_human for seat in record.seats):
            continue
        data = store.kept(entry.path)
        if data is None:
            unanalysed.append(entry.path)
            continue
        for labels, kept in ((LABELS, found), (MINOR, minor)):
            if len(kept) < limit:
                kept.extend(sorted(_mistakes(record, entry.path, data, labels),
                                   key=lambda ex: -ex.index))
    if not found and minor:
        return Drill(tuple(minor[:limit]), tuple(unanalysed), minor=True)
    return Drill(tuple(found[:limit]), tuple(unanalysed))


def _mistakes(record: GameRecord, path: Path, found: analysis.Analysis,
              labels: tuple[str, ...] = LABELS) -> list[Exercise]:
    """The exercises in one game's analysis: its decisions, numbered in order, that a
    person's seat made and the analysis gives one of ``labels``."""
    return [Exercise(record, path, index, note.seat, note.turn, note.played, note.best,
                     note.loss_stars, note.label)
            for index, note in enumerate(found.decisions())
            if note.label in labels and record.seats[note.seat].is_human]


def analyse_missing(drill: Drill, progress: Callable[[int, int, Path], None] | None = None,
                    workers: int = 1) -> int:
    """Analyse the kept games ``drill`` left out and keep each analysis beside its record
    (as ``solstis analyze`` does); ``progress(done, total, path)`` before each game.
    Returns how many were analysed (a game that cannot be, or not kept, is passed by)."""
    done = 0
    for k, path in enumerate(drill.unanalysed):
        if progress is not None:
            progress(k, len(drill.unanalysed), path)
        try:  # a FIFO put there is refused, not waited on
            found = store.analysed(path, workers=workers)
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        if found.not_kept is not None:
            continue
        done += 1
    return done


# ---------------------------------------------------------------------- answers
@dataclass(frozen=True)
class Answer:
    """The judge's word on an answer: its loss in stars against the judge's best move (at
    the drill's effort), its label, and why the best is better in game terms (than the
    answer, or, for an answer that is the best, than the game's move)."""

    move: Move
    best: Move
    loss_stars: float
    label: str | None
    reason: str

    def judgement(self, star: str = "★") -> str:
        """The answer against the judge's best, in a few words."""
        if self.label is not None:
            return f"{self.loss_stars:.1f}{star} less than the best, {self.best} ({self.label})."
        if self.move == self.best:
            return "as good as the best."
        return (f"as good as the best, {self.best}, within the judge's noise "
                f"({self.loss_stars:.1f}{star} less).")


def judge_answer(exercise: Exercise, move: Move, effort: analysis.Effort = ANSWER_EFFORT,
                 seed: int = ANSWER_SEED) -> Answer:
    """Judge ``move`` at the exercise's decision from the seat's observation, with
    ``move`` as the judge's focus. IllegalMove if it is not a legal move there."""
    obs = exercise.observation()
    if move not in obs.legal_moves:
        raise IllegalMove(f"{move} is not a legal move here")
    verdict = judge(obs, seed, effort.iterations, effort.floor, move, effort.close_floor)
    loss_stars, _ = verdict.loss(move)
    best = verdict.best.move
    # Found the best: what makes it better than the game's move; else, than the answer.
    other = exercise.played if move == best else move
    words = explain(obs, other, best, [seat.name for seat in exercise.record.seats])
    return Answer(move, best, round(loss_stars, 2), analysis.label_of(loss_stars), words)


# ---------------------------------------------------------------------- on the board
class DrillSession(Session):
    """One exercise on the game board: the seat's position, re-dealt from what it saw;
    the first legal move the player makes is the answer (``answer``), and the game does
    not go on. No hints, no undo, nothing kept or saved."""

    keeps_record = False
    autosaves = False
    exercise: Exercise
    number: tuple[int, int] = (1, 1)
    answer: Move | None = None

    @classmethod
    def of(cls, exercise: Exercise, number: tuple[int, int],
           rand: random.Random | None = None) -> DrillSession:
        """Exercise ``number[0]`` of ``number[1]`` on a board of its own."""
        seat = exercise.seat
        dealt = deal_anew(exercise.observation(), rand)
        bot = opponent(exercise.record, seat)
        seats: tuple[Seat, Seat] = (PERSON, bot) if seat == 0 else (bot, PERSON)
        setup = Setup(variant=exercise.record.variant, seed=0, seats=seats, secret=True)
        session = cls(setup, position=dealt)
        session.exercise, session.number = exercise, number
        return session

    def deal_label(self) -> str:
        return f"Drill {self.number[0]} of {self.number[1]}"

    def question(self, star: str = "★") -> str:
        """Which game and decision (a first line), what was played there, what is asked."""
        ex = self.exercise
        article = "an" if ex.label[:1] in "aeiou" else "a"
        return (f"Drill {self.number[0]} of {self.number[1]} · {ex.about()}.\n"
                f"You {as_played(ex.played)} here: {article} {ex.label} "
                f"({ex.loss_stars:.1f}{star} lost). What is better? Choose as in a game.")

    def explained(self, reason: str, star: str = "★") -> str:
        """What the game's move lost, then ``reason``, why the best is better."""
        return self.exercise.explanation(reason, star)

    @property
    def assists(self) -> bool:
        return False

    @property
    def takeback(self) -> None:
        """No taking back: the answer is the one move."""
        return None

    def apply(self, move: Move) -> None:
        """The player's answer (IllegalMove, saying why, if it is not legal here or the
        exercise is answered). The position stays as it was."""
        if self.answer is not None:
            raise IllegalMove("this one is answered: Enter goes to the next")
        if move not in self.game.legal_moves():
            self.game.copy().play(move)  # raises IllegalMove with the engine's reason
            raise IllegalMove(f"{move} is not a legal move now")
        self.answer = move
        self.changed()


class DrillRun:
    """A drill under way: which exercise is on the board, and the answers so far."""

    def __init__(self, drill: Drill, effort: analysis.Effort = ANSWER_EFFORT) -> None:
        if not drill.exercises:
            raise ValueError(drill.empty_message())
        self.drill = drill
        self.effort = effort
        self.index = 0
        self.answers: dict[int, Answer] = {}
        """The judged answers by exercise index (an exercise may be skipped)."""

    @property
    def total(self) -> int:
        return len(self.drill.exercises)

    @property
    def exercise(self) -> Exercise:
        return self.drill.exercises[self.index]

    @property
    def last(self) -> bool:
        return self.index == self.total - 1

    def session(self, rand: random.Random | None = None) -> DrillSession:
        """The current exercise on a board of its own."""
        return DrillSession.of(self.exercise, (self.index + 1, self.total), rand)

    def judge(self, index: int, move: Move) -> Answer:
        """Judge ``move`` as the answer to exercise ``index`` (it may take a second: the
        screen runs it in a worker), and keep it."""
        answer = judge_answer(self.drill.exercises[index], move, self.effort)
        self.answers[index] = answer
        return answer

    def next(self) -> bool:
        """On to the next exercise; False when the drill is over."""
        if self.last:
            return False
        self.index += 1
        return True

    def summary(self, star: str = "★") -> str:
        """The drill in a sentence or two."""
        asked, answered = self.total, len(self.answers)
        if not answered:
            return f"No answer given: {asked} exercises wait for next time."
        good = sum(1 for a in self.answers.values() if a.label is None)
        lost = sum(a.loss_stars for a in self.answers.values())
        was = sum(self.drill.exercises[i].loss_stars for i in self.answers)
        return (f"{answered} of {asked} answered: {good} as good as the judge's best. Your "
                f"answers lost {lost:.1f}{star} in all; in the games those decisions lost "
                f"{was:.1f}{star}.")


def _day(when: datetime) -> str:
    return f"{when.day} {when.strftime('%b %Y')}"

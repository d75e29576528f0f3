"""The analysis board's controller: a finished game stepped through decision by decision,
each shown as the deciding seat saw it then, with the judge's verdict as it comes in.

``ReviewBoard(record, seats)`` takes a finished game's record (``solstis_tui.records``) and
the seats whose decisions are reviewed (default: the people's; both seats for a game of
bots). It holds the cursor and the ``Analysis`` (``set_analysis``) and takes intents
(``step``, ``home``, ``end``, ``next_mistake``, ``previous_mistake``); it returns what to
draw: ``board`` (a ``BoardView`` of the deciding seat's observation, with the move played
and the judge's best marked), ``info`` (the moves and their values), ``graph``,
``decision_lines`` and ``summary_lines``. The other seat's hand is never in a view: the
board is what the deciding seat saw at the time, even though the game is over. No Textual
here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..coach.analysis import Analysis, DecisionNote, TopMove, seat_line, signed, summary
from ..coach.choice_points import choice_points
from ..core import Decision, Move, MoveKind, Observation
from ..records import GameRecord, replay
from ..words.moves import describe_move, short_move
from .review_graph import GraphCell, graph
from .session_view import scores_of
from .view import NO_MARKS, BoardView, MoveMarks


@dataclass(frozen=True)
class Step:
    """One reviewed decision (a decision with a real choice of a reviewed seat)."""

    point: int
    """Its index among the game's decisions with a real choice (``Analysis.decisions``)."""
    move_index: int
    """Its index in the record's moves (``GameRecord.moves``)."""
    turn: int
    seat: int
    played: Move
    obs: Observation
    """What ``seat`` saw when it decided."""


def marks_of(move: Move | None, obs: Observation) -> MoveMarks:
    """Where ``move``, a choice at ``obs``'s decision, shows on a board drawn from
    ``obs``'s seat: its tile, cell, square or spirit, or the spirit pile it draws from
    (nothing for a pass)."""
    if move is None:
        return NO_MARKS
    k, a = move.kind, move.arg
    none: frozenset[int] = frozenset()
    one = frozenset({a})
    if k in (MoveKind.PLAY, MoveKind.DEER, MoveKind.CAPTURE, MoveKind.BEETLE,
             MoveKind.RENARD):
        return MoveMarks(tiles=one)
    if k in (MoveKind.RAINBOW, MoveKind.SHIFT):
        return MoveMarks(cells=(one, none))
    if k in (MoveKind.VIPER, MoveKind.EVIL):
        return MoveMarks(cells=(none, one))
    if k is MoveKind.SQUARE:
        return MoveMarks(squares=(one, none))
    if k in (MoveKind.TAKE, MoveKind.KEEP):
        return MoveMarks(spirits=one)
    if k is MoveKind.DRAW:
        return MoveMarks(pile=True)
    if k is MoveKind.COVER and obs.context:
        holder = obs.context[0]
        squares = frozenset(sq for spirit, sq in obs.panoramas[holder].spirits if spirit == a)
        return MoveMarks(squares=(squares, none) if holder == obs.player else (none, squares))
    return NO_MARKS


def reviewed_seats(record: GameRecord) -> tuple[int, ...]:
    """Whose decisions a review shows by default: the people's; with none, both seats."""
    people = tuple(i for i, seat in enumerate(record.seats) if seat.is_human)
    return people or (0, 1)


class ReviewBoard:
    """One finished game on the analysis board. See the module docstring."""

    def __init__(self, record: GameRecord, seats: Sequence[int] | None = None) -> None:
        self.record = record
        self.game = replay(record)
        self.seats: tuple[int, ...] = tuple(sorted(set(seats))) if seats \
            else reviewed_seats(record)
        if not set(self.seats) <= {0, 1}:
            raise ValueError(f"seats are 0 and 1, not {self.seats}")
        self.names = (record.seats[0].name, record.seats[1].name)
        self.points = 0
        """The game's decisions with a real choice, both seats' (what the analysis judges)."""
        self.steps: list[Step] = self._steps()
        self.cursor = 0
        self.analysis: Analysis | None = None
        self.notes: list[DecisionNote] = []
        self.judged: dict[int, DecisionNote] = {}
        """Notes of decisions judged so far (by ``point``), while the analysis runs."""
        self.progress: tuple[int, int] | None = None
        """(decisions judged, of how many) while the analysis runs."""
        self.failed = ""
        """Why the analysis stopped, if it did."""
        self.message = ""
        """What the last key said (e.g. no mistake further on); gone at the next step."""

    def _steps(self) -> list[Step]:
        """Every reviewed decision, with its seat's observation then (``choice_points``,
        the analysis' own walk)."""
        steps: list[Step] = []
        for c in choice_points(self.game):
            if c.seat in self.seats:
                steps.append(Step(c.index, c.move_at, c.before.turn, c.seat, c.played,
                                  c.before.observation(c.seat)))
            self.points += 1
        return steps

    # ------------------------------------------------------------------ the analysis
    def set_progress(self, done: int, total: int) -> None:
        self.progress = (done, total)

    def add_note(self, point: int, note: DecisionNote) -> None:
        """One decision judged (``point``: its index among the game's decisions with a
        real choice): it shows at once, before the analysis is done."""
        if 0 <= point < self.points:
            self.judged[point] = note

    def set_analysis(self, found: Analysis) -> None:
        """The analysis is done: its notes show from now on. ValueError if it is not this
        game's (another count of decisions)."""
        notes = found.decisions()
        if len(notes) != self.points:
            raise ValueError(f"the analysis has {len(notes)} decisions, the game "
                             f"{self.points}")
        self.analysis, self.notes, self.progress = found, notes, None
        self.judged.clear()

    def analysis_failed(self, reason: str) -> None:
        self.failed, self.progress = reason, None

    def note(self, step: Step | None = None) -> DecisionNote | None:
        """The judge's note on ``step`` (default: the cursor's), once it is judged."""
        step = step or self.current
        if step is None:
            return None
        if self.notes:
            return self.notes[step.point]
        return self.judged.get(step.point)

    # ------------------------------------------------------------------ intents
    @property
    def current(self) -> Step | None:
        return self.steps[self.cursor] if self.steps else None

    def go(self, index: int) -> None:
        """The cursor to reviewed decision ``index`` (kept on the board)."""
        self.message = ""
        if self.steps:
            self.cursor = max(0, min(len(self.steps) - 1, index))

    def step(self, delta: int) -> None:
        """←/→: the previous or next decision."""
        self.go(self.cursor + delta)

    def home(self) -> None:
        self.go(0)

    def end(self) -> None:
        self.go(len(self.steps) - 1)

    def next_mistake(self) -> None:
        """n: the next decision with a label (inaccuracy, mistake or blunder)."""
        self._mistake(range(self.cursor + 1, len(self.steps)), "after this one")

    def previous_mistake(self) -> None:
        """p: the previous decision with a label."""
        self._mistake(range(self.cursor - 1, -1, -1), "before this one")

    def _mistake(self, order: range, where: str) -> None:
        if not self.notes and not self.judged:
            self.message = "The mistakes are marked as the judge gets to them."
            return
        for i in order:
            note = self.note(self.steps[i])
            if note is not None and note.label:
                self.go(i)
                return
        so_far = "" if self.notes else " so far (the judge is still at work)"
        self.message = f"No inaccuracy, mistake or blunder {where}{so_far}."

    # ------------------------------------------------------------------ drawing
    def board(self, ascii_mode: bool = False) -> BoardView:
        """The cursor's decision as its seat saw it, the move played and the judge's best
        marked. ValueError on a game without reviewed decisions (``steps`` empty)."""
        step = self.current
        if step is None:
            raise ValueError("no decision to show")
        obs = step.obs
        their: tuple[int, ...] | None = obs.opponent_known or None
        if obs.decision is Decision.RENARD:  # the Renard shows the other hand: seen then
            their = tuple(mv.arg for mv in obs.legal_moves)
        note = self.note(step)
        return BoardView(
            obs=obs, me=step.seat, names=self.names, scores=scores_of(obs),
            my_hand=obs.hand, their_hand=their, their_count=obs.opponent_hand_count,
            ascii=ascii_mode, to_play=obs.to_play, deciding_is_human=False,
            played=marks_of(step.played, obs),
            best=marks_of(note.best if note else None, obs))

    def heading(self) -> str:
        """The top bar: the analysis's progress, the decision shown, and the game."""
        names = f"{self.names[0]} vs {self.names[1]}"
        step = self.current
        where = (f"turn {step.turn} · decision {self.cursor + 1} of {len(self.steps)}"
                 if step else "no decisions to review")
        # The progress and the place first: long names are what a narrow bar cuts.
        return f"Review{self.status()} · {where} · {names} · {self.record.variant}"

    def status(self) -> str:
        """' · judging 3 of 30' while the analysis runs; '' once it is done."""
        if self.failed:
            return " · analysis stopped"
        if self.notes or not self.steps:  # nothing is judged for a board with no decision
            return ""
        done, total = self.progress or (0, self.points)
        return f" · judging {done} of {total}"

    def info(self, top_beside: bool = False) -> list[str]:
        """The lines under the board: the decision and the move played (with its label
        and loss), the judge's top three with their values (unless ``top_beside``: the
        screen shows ``top_entries`` beside the graph), and the reason."""
        step = self.current
        if step is None:
            if not self.points:
                return ["Every move of this game was forced or automatic: nothing to review."]
            who = " and ".join(self.names[s] for s in self.seats)
            return [f"{who} made no decision before the game ended: nothing to review."]
        who = self.names[step.seat]
        first = f"Turn {step.turn}, {who}: {describe_move(step.played)}"
        note = self.note(step)
        lines: list[str] = []
        if note is None:
            state = (f"the analysis stopped: {self.failed}" if self.failed
                     else "the judge is still at work")
            lines = [f"{first} ({state})."]
        else:
            if note.label:
                stars = f" · {note.label}: {note.loss_stars:.1f}★"
                if note.loss_win <= 0:  # the star-best move may win a little less often
                    first += f"{stars} lost (the win chance is no lower)"
                elif note.loss_win < 0.005:
                    first += f"{stars} and under 1% win chance lost"
                else:  # rounded as the figures after the reason are (analysis.figures)
                    first += f"{stars} and {note.loss_win * 100:.0f}% win chance lost"
            elif note.played == note.best:
                first += " · the judge's best"
            else:
                first += f" · about as good ({note.loss_stars:.1f}★ below the best)"
            lines = [first, note.reason] if top_beside else \
                [first, self.top_line(note), note.reason]
        if self.message:
            lines.insert(0, self.message)
        return lines

    @staticmethod
    def top_line(note: DecisionNote) -> str:
        """'Best: 1 take Marmot +1.2★ 55% · 2 ...', the move played flagged."""
        parts = [f"{i} {_value(t)}" + (" (played)" if t.move == note.played else "")
                 for i, t in enumerate(note.top, 1)]
        if note.played not in [t.move for t in note.top] and note.top:
            best = note.top[0]
            played = TopMove(note.played, best.margin - note.loss_stars,
                             best.win - note.loss_win)
            parts.append(f"played {_value(played)}")
        return "Judge: " + " · ".join(parts)

    def top_entries(self) -> list[str]:
        """The judge's top three at the cursor's decision, one a line ('1 take Marmot
        +1.2★ 55%', the move played flagged '<'); none before it is judged."""
        note = self.note()
        if note is None:
            return []
        return [f"{i} {_value(t)}" + (" <" if t.move == note.played else "")
                for i, t in enumerate(note.top, 1)]

    def graph(self, width: int, ascii_mode: bool = False) -> list[list[GraphCell]]:
        """The graph of each seat's expected result (``review_graph``), the cursor's
        decision marked; empty until the analysis is done."""
        if self.analysis is None:
            return []
        step = self.current
        return graph(self.analysis, self.seats[0], step.point if step else None,
                     width, ascii_mode, marked=self.seats)

    def summary_lines(self) -> list[str]:
        """The game in sum once it is judged: each seat's error rate, labels and luck,
        then the summary of the (first) reviewed seat against the other; none before."""
        if self.analysis is None:
            return []
        lines = [seat_line(s.name, s.error_rate, s.labels, s.luck)
                 for s in self.analysis.seats]
        return [*lines, summary(self.analysis, self.seats[0])]

    def decision_lines(self, height: int) -> tuple[list[str], int]:
        """The reviewed decisions, one a line, as many as ``height`` holds round the
        cursor; and which of the lines is the cursor's."""
        lines = []
        several = len(self.seats) > 1
        for step in self.steps:
            note = self.note(step)
            mark = (note.label or ("best" if note.played == note.best else "")) \
                if note else "…"
            who = f"{self.names[step.seat][:8]:<8} " if several else ""
            lines.append(f"{step.turn:>3} {who}{short_move(step.played):<15} {mark}")
        height = max(1, height)
        start = max(0, min(self.cursor - height // 2, len(lines) - height))
        return lines[start:start + height], self.cursor - start


def _value(top: TopMove) -> str:
    return f"{short_move(top.move)} {signed(top.margin)}★ {top.win:.0%}"

"""The drill's controller: the play controller on one exercise, answered by one move.

The player chooses as in a game; the first legal move is the answer (``DrillSession``
keeps it and leaves the position as it was). The screen then judges it away from the
screen (``DrillPort.judge_answer``) and hands the result back (``judged``); Enter goes on
to the next exercise. The panel above the log says what is asked and, once judged, how
the answer fared. No Textual here.
"""

from __future__ import annotations

from typing import Protocol

from ..core import Move
from .controller import PlayController, Prompt, ScreenPort
from .session_view import SessionView


class Judged(Protocol):
    """An answer judged (``drill.Answer``)."""

    @property
    def move(self) -> Move: ...

    @property
    def best(self) -> Move: ...

    @property
    def loss_stars(self) -> float: ...

    @property
    def label(self) -> str | None: ...

    @property
    def reason(self) -> str:
        """Why the best is better, in game terms."""

    def judgement(self, star: str) -> str:
        """The answer against the judge's best, in a few words."""


class DrillView(SessionView, Protocol):
    """One exercise as the board plays it (``drill.DrillSession``)."""

    @property
    def answer(self) -> Move | None:
        """The player's answer, once given (the position stays as it was)."""

    def question(self, star: str) -> str:
        """Which game and decision, what was played there, and what is asked."""

    def explained(self, reason: str, star: str) -> str:
        """Why: what the game's move lost, then ``reason``, why the best is better (the
        prompt says the answer's ``judgement``)."""


class DrillPort(ScreenPort, Protocol):
    """What the drill asks of its screen besides a game's needs."""

    def judge_answer(self, move: Move) -> None:
        """Judge ``move`` away from the screen; then ``judged`` (or ``judge_failed``)."""

    def next_exercise(self) -> None:
        """The answer is judged and read: the next exercise (or the drill's end)."""

    def panel_unread(self) -> bool:
        """The panel's text is cut on screen and was not shown whole yet."""

    def show_whole_panel(self) -> None:
        """Show the panel's whole text."""


class DrillController(PlayController):
    """One exercise (``drill``, a ``DrillSession``) on the game board."""

    def __init__(self, drill: DrillView, port: DrillPort, last: bool,
                 pace: float = 0.5) -> None:
        super().__init__(drill, port, pace)
        self.drill = drill
        self.drill_port = port
        self.last = last
        """This is the drill's last exercise (Enter then ends it)."""
        self.result: Judged | None = None
        self.failure = ""

    @property
    def answered(self) -> bool:
        return self.drill.answer is not None

    def advance(self) -> None:
        if self.answered:  # nobody plays on: the position waits for Enter
            self.turns.pacing.thinking_since = None
            self.port.redraw()
            return
        super().advance()

    def after_move(self) -> None:
        """The answer is in: judge it (the position does not change)."""
        answer = self.drill.answer
        if answer is None:
            super().after_move()
            return
        self.error = self.notice = ""
        self.clear_hint()
        self.drill_port.judge_answer(answer)
        self.port.redraw()

    def judged(self, answer: Judged) -> None:
        self.result = answer
        self.port.redraw()

    def judge_failed(self, message: str) -> None:
        self.failure = message
        self.port.redraw()

    def confirm(self) -> None:
        if not self.answered:
            super().confirm()
        elif self.drill_port.panel_unread():
            self.drill_port.show_whole_panel()  # all of it first, then on
        elif self.result is not None or self.failure:
            self.drill_port.next_exercise()
        else:
            self.say_error("the judge is still weighing your answer")

    def hint(self) -> None:
        self.say_error("no hints in a drill: the answer is yours")

    def undo(self) -> None:
        self.say_error("nothing to undo: the answer is judged as given")

    def prompt(self) -> Prompt:
        if not self.answered:
            return super().prompt()
        enter = "Enter: the drill's summary" if self.last else "Enter: next exercise"
        if self.drill_port.panel_unread() and (self.result is not None or self.failure):
            enter = "Enter: all of the text above · n " + ("the summary" if self.last
                                                           else "next")
        if self.failure:
            return Prompt("The judge could not weigh this answer.", f"{enter} · q leaves",
                          self.error)
        if self.result is None:
            return Prompt(f"You answered {self.drill.answer}. The judge is weighing it…",
                          "q leaves the drill", self.error)
        star = "*" if self.ascii_mode else "★"
        return Prompt(f"You answered {self.result.move}: {self.result.judgement(star)}",
                      f"{enter} · q leaves the drill", self.error)

    def panel_text(self, ascii_mode: bool = False) -> str:
        """What is asked, and once judged, the answer explained."""
        star = "*" if ascii_mode else "★"
        asked = self.drill.question(star)
        if self.failure:
            return f"{asked}\nThe judge failed: {self.failure}"
        if self.result is None:
            return asked
        return f"{asked.splitlines()[0]}\n{self.drill.explained(self.result.reason, star)}"

"""The drill screen: the game board with a panel that asks each mistake again.

One exercise at a time (``drill.DrillRun``): the position as the seat saw it, answered
with the game's keys; the answer is judged in a thread worker (group ``judge``) and
explained in the panel; Enter goes on. The screen closes at the end or on q; the app
then says the run's summary.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Static

from ..core import Move
from ..local.drill import DrillRun
from ..play.drill import DrillController
from ..play.session_view import SessionView
from ..widgets.view import asciify
from .game import GameScreen


class DrillScreen(GameScreen):
    """The drill ``run``, from its current exercise on."""

    CSS_PATH = ["game.tcss", "tutorial.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "leave", "Leave drill"),
        Binding("n", "next_exercise", "Next"),
        Binding("r", "nothing", "Review", show=False),
        Binding("u", "undo_unavailable", "Undo", show=False),
        Binding("t", "hint_unavailable", "Hint", show=False),
    ]
    play: DrillController

    def __init__(self, run: DrillRun, pace: float = 0.5) -> None:
        self.drill_run = run
        self.pace = pace
        self.exercise = run.session()
        super().__init__(self.exercise, pace=pace)

    def make_controller(self, session: SessionView, pace: float) -> DrillController:
        return DrillController(self.exercise, self, self.drill_run.last, pace)

    def on_mount(self) -> None:
        # The panel takes the lesson's place (and look): the tutorial's stylesheet.
        self.query_one("#left").mount(Static(id="lesson", markup=False), after="#scoreline")
        super().on_mount()
        unanalysed = self.drill_run.drill.unanalysed_sentence()
        if unanalysed:
            self.notify(unanalysed, markup=False, timeout=10)

    def redraw(self) -> None:
        super().redraw()
        if self.is_mounted:
            text = self.play.panel_text(self.sapp.ascii_mode)
            self.query_one("#lesson", Static).update(
                asciify(text) if self.sapp.ascii_mode else text)

    # ------------------------------------------------------------------ the port
    def judge_answer(self, move: Move) -> None:
        self.run_worker(partial(self._judge, self.drill_run.index, move), thread=True,
                        group="judge", exit_on_error=False, name="judge")

    def _judge(self, index: int, move: Move) -> None:
        try:
            answer = self.drill_run.judge(index, move)
        except Exception as exc:  # the judge's failure is said; the drill goes on
            self._back(index, self.play.judge_failed, f"{type(exc).__name__}: {exc}")
            return
        self._back(index, self.play.judged, answer)

    def _back(self, index: int, callback: object, value: object) -> None:
        def deliver() -> None:
            if index == self.drill_run.index and callable(callback):  # still that exercise
                callback(value)

        with contextlib.suppress(RuntimeError):  # the app may be closing
            self.app.call_from_thread(deliver)

    def next_exercise(self) -> None:
        self.play.stop_bot()
        if not self.drill_run.next():
            self.dismiss()
            return
        self.exercise = self.drill_run.session()
        self.play = self.make_controller(self.exercise, self.pace)
        self.play.reset_log()
        self.redraw()
        self.call_after_refresh(self.play.advance)

    # ------------------------------------------------------------------ keys
    def action_next_exercise(self) -> None:
        """n: on to the next exercise, answered or not."""
        self.next_exercise()

    def action_leave(self) -> None:
        """q: leave the drill with what was answered."""
        self.play.stop_bot()
        self.dismiss()

    def action_nothing(self) -> None:
        self.play.say_error("a drill has no review: its answers are judged one by one")

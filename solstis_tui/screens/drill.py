"""The drill screen: the game board with a panel that asks each mistake again.

One exercise at a time (``drill.DrillRun``): the position as the seat saw it, answered
with the game's keys; the answer is judged in a thread worker (group ``judge``) and
explained in the panel; Enter goes on. A panel cut to the room it has (about three lines
at 80×24) ends with "… Enter: all of it" (before the answer, "r: all of it"): the whole
text, once read, Enter goes on. The screen closes at the end or on q; the app then says
the run's summary.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from ..core import Move
from ..local.drill import DrillRun
from ..play.drill import DrillController
from ..play.session_view import SessionView
from ..widgets.view import asciify
from .game import GameScreen
from .message import MessageScreen


class DrillScreen(GameScreen):
    """The drill ``run``, from its current exercise on."""

    CSS_PATH = ["game.tcss", "tutorial.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "leave", "Leave drill"),
        Binding("n", "next_exercise", "Next"),
        Binding("r", "whole_panel", "All of the text", show=False),
        Binding("u", "undo_unavailable", "Undo", show=False),
        Binding("t", "hint_unavailable", "Hint", show=False),
    ]
    play: DrillController

    def __init__(self, run: DrillRun, pace: float = 0.5) -> None:
        self.drill_run = run
        self.pace = pace
        self.exercise = run.session()
        self.panel = ""
        """The panel's whole text (the screen may cut it: ``fit_panel``)."""
        self.panel_cut = False
        self.panel_read = ""
        """The panel text last shown whole."""
        self.panel_fitted = ""
        """The panel text last fitted to the screen (once it is ``panel``, ``panel_cut``
        says whether it was cut)."""
        super().__init__(self.exercise, pace=pace)

    def make_controller(self, session: SessionView, pace: float) -> DrillController:
        return DrillController(self.exercise, self, self.drill_run.last, pace)

    def on_mount(self) -> None:
        # The panel takes the lesson's place (and look): the tutorial's stylesheet.
        self.query_one("#left").mount(Static(id="lesson", markup=False), after="#scoreline")
        super().on_mount()
        drill = self.drill_run.drill
        for said in (drill.minor_sentence(), drill.unanalysed_sentence()):
            if said:
                self.notify(said, markup=False, timeout=10)

    def redraw(self) -> None:
        super().redraw()
        if self.is_mounted:
            text = self.play.panel_text(self.sapp.ascii_mode)
            self.panel = asciify(text) if self.sapp.ascii_mode else text
            self.query_one("#lesson", Static).update(self.panel)
            self.call_after_refresh(self.fit_panel)  # once the layout gives it its room

    def fit_panel(self) -> None:
        """Cut the panel to the room it has down to the prompt, its last line ending with
        the key that shows it whole (and the prompt says that key while it is unread)."""
        if not self.is_mounted:
            return
        lesson = self.query_one("#lesson", Static)
        width = lesson.content_region.width
        room = self.query_one("#left").content_region.bottom - lesson.content_region.y
        if width <= 0 or room <= 0:
            return  # not laid out yet
        lines = list(Text(self.panel).wrap(self.app.console, width))
        cut = len(lines) > room
        if cut:
            key = "Enter" if self.play.answered else "r"
            more = f" … {key}: all of it"
            kept = lines[:room]
            kept[-1].truncate(max(0, width - len(more)))
            kept[-1].append(more)
            lesson.update(Text("\n").join(kept))
        self.panel_fitted = self.panel
        if cut != self.panel_cut:
            self.panel_cut = cut
            self.redraw_prompt()

    def panel_unread(self) -> bool:
        """The panel is cut on screen and was not shown whole yet."""
        return self.panel_cut and self.panel_read != self.panel

    def show_whole_panel(self) -> None:
        """The panel's whole text, in a box of its own."""
        self.panel_read = self.panel
        self.app.push_screen(MessageScreen(f"Drill {self.drill_run.index + 1} of "
                                           f"{self.drill_run.total}", self.panel),
                             lambda _: self.redraw_prompt())

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
        self.play.turns.stop()
        if not self.drill_run.next():
            self.dismiss()
            return
        self.exercise = self.drill_run.session()
        self.play = self.make_controller(self.exercise, self.pace)
        self.play.log.reset()
        self.redraw()
        self.call_after_refresh(self.play.advance)

    # ------------------------------------------------------------------ keys
    def action_next_exercise(self) -> None:
        """n: on to the next exercise, answered or not."""
        self.next_exercise()

    def action_leave(self) -> None:
        """q: leave the drill with what was answered."""
        self.play.turns.stop()
        self.dismiss()

    def action_whole_panel(self) -> None:
        """r: the panel's whole text (where the screen cut it)."""
        self.show_whole_panel()

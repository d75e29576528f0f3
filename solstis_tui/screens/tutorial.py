"""The tutorial screen: the game screen with a lesson panel in place of the log.

The panel says what the current step asks; the board highlights the tiles and cells the
step names. A move the step does not ask for is refused with the step's reason (in the
prompt's error line, as any refused move) and changes nothing. Read steps go on with
Enter, and hold the Tutor back until then. Every step is kept in ``tutorial.json``, so
``solstis learn`` resumes where the player left.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Protocol, cast

from textual.binding import Binding
from textual.widgets import Static

from ..core.board import parse_cell
from ..tutorial import progress
from ..tutorial.session import TutorialSession
from ..widgets.prompt import PromptLine
from ..widgets.view import BoardView, asciify
from .game import GameScreen


def _cells(names: tuple[str, ...]) -> frozenset[int]:
    return frozenset(parse_cell(name) for name in names)


class TutorialServices(Protocol):
    """What the tutorial screen asks of the app when a chapter ends."""

    def start_tutorial(self, name: str, restart: bool = False) -> None: ...

    def start_practice(self, variant: str) -> None: ...


class TutorialScreen(GameScreen):
    """One chapter of the tutorial (``session``), played step by step."""

    CSS_PATH = ["game.tcss", "tutorial.tcss"]
    turn_in_prompt = False
    BINDINGS = [Binding("f", "firefly", "Firefly chapter", show=False),
                Binding("u", "undo_unavailable", "Undo", show=False),
                Binding("t", "hint", "Hint", show=False)]

    def __init__(self, session: TutorialSession, pace: float = 0.5,
                 resumed: bool = False) -> None:
        super().__init__(session, pace=pace)
        self.tutorial = session
        self.resumed = resumed

    def on_mount(self) -> None:
        self.query_one("#left").mount(Static(id="lesson", markup=False), after="#scoreline")
        super().on_mount()
        if self.resumed:
            name = self.tutorial.chapter.name
            self.notify(f"Resumed the tutorial at step {self.tutorial.step + 1}. "
                        f"'solstis learn {name} --restart' starts it over.", markup=False,
                        timeout=4)

    # ------------------------------------------------------------------ the steps
    def held(self) -> bool:
        """Whether the step on screen is read and waits for Enter (the Tutor waits too)."""
        step = self.tutorial.current
        if step.move is not None:
            return False
        return not (step.after_tutor and self.tutor_to_play())

    def tutor_to_play(self) -> bool:
        """The Tutor has a decision to make (the game is not over)."""
        obs = self.obs
        return not obs.is_over and obs.to_play != self.viewer()

    def advance(self) -> None:
        if not self.is_mounted:
            return
        if self.held() or self.obs.is_over:
            self.thinking_since = None
            self.refresh_board()
            return
        super().advance()

    def action_confirm(self) -> None:
        s = self.tutorial
        if not self.held():
            if self.obs.is_over or self.tutor_to_play():
                self._not_now()
                return
            super().action_confirm()
            return
        if s.last_step:
            self.finish()
            return
        s.acknowledge()
        self.error = ""
        self.keep()
        self.advance()

    def _click_pick(self, what: tuple[str, int]) -> None:
        """Clicks pick for a step's move; they never pass a step that is read."""
        if self.held():
            self.error = "this step is to read: press Enter to go on"
            self.update_prompt()
            return
        super()._click_pick(what)

    def finish(self) -> None:
        """The last step's Enter: a real game against the Random bot."""
        self.keep()
        cast(TutorialServices, self.app).start_practice(self.tutorial.chapter.variant)

    def action_firefly(self) -> None:
        if not (self.tutorial.last_step and self.tutorial.chapter.name == "base"):
            self._not_now()
            return
        self.keep()
        cast(TutorialServices, self.app).start_tutorial("firefly", restart=True)

    def keep(self) -> None:
        """The tutorial keeps its place in ``tutorial.json`` (never the saved game)."""
        with contextlib.suppress(OSError):  # a read-only data directory: it plays, unkept
            if self.tutorial.last_step:
                progress.forget()
            else:
                progress.save(self.tutorial)

    # ------------------------------------------------------------------ refusals
    def action_undo(self) -> None:
        self.error = "no undo in the tutorial: each step waits for its own move"
        self.update_prompt()

    def action_hint(self) -> None:
        self.error = "no hints in the tutorial: the lesson above says what to do"
        self.update_prompt()

    def action_review(self) -> None:
        self.error = "the review is for real games: finish the tutorial and play one"
        self.update_prompt()

    # ------------------------------------------------------------------ drawing
    def game_label(self) -> str:
        s = self.tutorial
        return f"tutorial step {s.step + 1} of {len(s.chapter.steps)}"

    def build_view(self) -> BoardView:
        view = super().build_view()
        if self.tutor_to_play() and not self.held():
            return view  # the panel says the Tutor is playing: nothing of the step is marked
        step = self.tutorial.current
        return dataclasses.replace(view, marks=_cells(step.tiles),
                                   mark_cells=(_cells(step.cells), _cells(step.theirs)))

    def refresh_board(self) -> None:
        super().refresh_board()
        if self.is_mounted:
            self.query_one("#lesson", Static).update(self.lesson_text())

    def update_prompt(self) -> None:
        if not self.is_mounted or self.view is None:
            return
        if not self.held():
            super().update_prompt()
            return
        if self.tutorial.last_step:
            headline = "The end of this chapter: choose what comes next (see above)."
            detail = self.notice or "q leaves · ? help · v log"
        else:
            headline = "Read the lesson above, then press Enter to go on."
            detail = self.notice or "q leaves (solstis learn resumes here) · ? help · v log"
        self.notice = ""
        self.query_one(PromptLine).say(headline, detail, self.error, -1, self.sapp.ascii_mode)

    def lesson_text(self) -> str:
        s = self.tutorial
        if not self.held() and self.tutor_to_play():
            text = f"{s.name(self.obs.to_play)} is playing its turn: watch the display."
        else:
            text = s.current.say
        return asciify(text) if self.sapp.ascii_mode else text

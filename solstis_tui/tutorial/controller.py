"""The tutorial's controller: the play controller with a chapter's steps on top.

A step either asks for a move (any other is refused with the step's reason, and changes
nothing) or is read, and waits for Enter (the Tutor waits too). Undo, hints and the review
are for real games.
"""

from __future__ import annotations

import dataclasses
from typing import Protocol

from ..core.board import parse_cell
from ..play.clicks import Choice
from ..play.controller import PlayController, Prompt, ScreenPort
from ..play.view import BoardView
from .session import TutorialSession


def _cells(names: tuple[str, ...]) -> frozenset[int]:
    return frozenset(parse_cell(name) for name in names)


class TutorialPort(ScreenPort, Protocol):
    """What the tutorial asks of its screen besides a game's needs."""

    def start_practice(self, variant: str) -> None:
        """The chapter is over: a real game against the Random bot."""

    def start_chapter(self, name: str) -> None:
        """Another chapter, from its start."""


class TutorialController(PlayController):
    """One chapter of the tutorial (``tutorial``), played step by step."""

    turn_in_prompt = False

    def __init__(self, tutorial: TutorialSession, port: TutorialPort,
                 pace: float = 0.5) -> None:
        super().__init__(tutorial, port, pace)
        self.tutorial = tutorial
        self.tutorial_port = port

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
        if self.held() or self.obs.is_over:
            self.turns.pacing.thinking_since = None
            self.port.redraw()
            return
        super().advance()

    def confirm(self) -> None:
        s = self.tutorial
        if not self.held():
            if self.obs.is_over or self.tutor_to_play():
                self.not_now()
                return
            super().confirm()
            return
        if s.last_step:
            self.port.save()
            self.tutorial_port.start_practice(s.chapter.variant)
            return
        s.acknowledge()
        self.error = ""
        self.port.save()
        self.advance()

    def click_pick(self, what: Choice) -> None:
        """Clicks pick for a step's move; they never pass a step that is read."""
        if self.held():
            self.say_error("this step is to read: press Enter to go on")
            return
        super().click_pick(what)

    def firefly(self) -> None:
        """f at the end of the base chapter: the Firefly chapter."""
        if not (self.tutorial.last_step and self.tutorial.chapter.name == "base"):
            self.not_now()
            return
        self.port.save()
        self.tutorial_port.start_chapter("firefly")

    # ------------------------------------------------------------------ refusals
    def undo(self) -> None:
        self.say_error("no undo in the tutorial: each step waits for its own move")

    def undo_offered(self) -> bool:
        return False

    def hint(self) -> None:
        self.say_error("no hints in the tutorial: the lesson above says what to do")

    def review_offered(self) -> bool:
        return False

    def review(self) -> bool:
        self.say_error("the review is for real games: finish the tutorial and play one")
        return False

    # ------------------------------------------------------------------ drawing
    def game_label(self) -> str:
        s = self.tutorial
        return f"tutorial step {s.step + 1} of {len(s.chapter.steps)}"

    def board(self, ascii_mode: bool | None = None) -> BoardView:
        view = super().board(ascii_mode)
        if self.tutor_to_play() and not self.held():
            return view  # the panel says the Tutor is playing: nothing of the step is marked
        step = self.tutorial.current
        return dataclasses.replace(view, marks=_cells(step.tiles),
                                   mark_cells=(_cells(step.cells), _cells(step.theirs)))

    def prompt(self) -> Prompt:
        if not self.held():
            return super().prompt()
        if self.tutorial.last_step:
            headline = "The end of this chapter: choose what comes next (see above)."
            detail = self.notice or "q leaves · ? help · v log"
        else:
            headline = "Read the lesson above, then press Enter to go on."
            detail = self.notice or "q leaves (solstis learn resumes here) · ? help · v log"
        self.notice = ""
        return Prompt(headline, detail, self.error)

    def lesson_text(self) -> str:
        s = self.tutorial
        if not self.held() and self.tutor_to_play():
            return f"{s.name(self.obs.to_play)} is playing its turn: watch the display."
        return s.current.say

"""The tutorial screen: the game screen with a lesson panel in place of the log.

The panel says what the current step asks (``TutorialController``); the board highlights
the tiles and cells the step names. Every step is kept in ``tutorial.json``, so
``solstis learn`` resumes where the player left.
"""

from __future__ import annotations

import contextlib
from typing import ClassVar, Protocol, cast

from textual.binding import Binding, BindingType
from textual.widgets import Static

from ..play.session_view import SessionView
from ..tutorial import progress
from ..tutorial.controller import TutorialController
from ..tutorial.session import TutorialSession
from ..widgets.view import asciify
from .game import GameScreen


class TutorialServices(Protocol):
    """What the tutorial screen asks of the app when a chapter ends."""

    def start_tutorial(self, name: str, restart: bool = False) -> None: ...

    def start_practice(self, variant: str) -> None: ...


class TutorialScreen(GameScreen):
    """One chapter of the tutorial (``session``), played step by step."""

    CSS_PATH = ["game.tcss", "tutorial.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "firefly", "Firefly chapter", show=False),
        # Esc only clears a refusal here (no tile is taken back): not a footer key.
        Binding("escape", "back", "Back", show=False),
        Binding("u", "undo_unavailable", "Undo", show=False),
        Binding("t", "hint", "Hint", show=False)]
    play: TutorialController

    def __init__(self, session: TutorialSession, pace: float = 0.5,
                 resumed: bool = False) -> None:
        self.tutorial = session
        super().__init__(session, pace=pace)
        self.resumed = resumed

    def make_controller(self, session: SessionView, pace: float) -> TutorialController:
        return TutorialController(self.tutorial, self, pace)

    def on_mount(self) -> None:
        self.query_one("#left").mount(Static(id="lesson", markup=False), after="#scoreline")
        super().on_mount()
        if self.resumed:
            name = self.tutorial.chapter.name
            self.notify(f"Resumed the tutorial at step {self.tutorial.step + 1}. "
                        f"'solstis learn {name} --restart' starts it over.", markup=False,
                        timeout=4)

    def redraw(self) -> None:
        super().redraw()
        if self.is_mounted:
            text = self.play.lesson_text()
            self.query_one("#lesson", Static).update(
                asciify(text) if self.sapp.ascii_mode else text)

    def action_firefly(self) -> None:
        self.play.firefly()

    # ------------------------------------------------------------------ the port
    def save(self) -> None:
        """The tutorial keeps its place in ``tutorial.json`` (never the saved game)."""
        with contextlib.suppress(OSError):  # a read-only data directory: it plays, unkept
            if self.tutorial.last_step:
                progress.forget()
            else:
                progress.save(self.tutorial)

    def start_practice(self, variant: str) -> None:
        cast(TutorialServices, self.app).start_practice(variant)

    def start_chapter(self, name: str) -> None:
        cast(TutorialServices, self.app).start_tutorial(name, restart=True)

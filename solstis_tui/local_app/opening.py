"""How a local game begins when it is not simply a new one: the saved game resumed, or the
continue-or-new question about it; the first run's welcome; a tutorial chapter, and the real
game the tutorial ends with. ``SolstisApp`` asks; each game starts through its
``start_session``."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from textual.screen import Screen

from ..local import saves
from ..local.session import Session, Setup, random_setup
from ..play.session_view import SessionView

if TYPE_CHECKING:
    from ..screens.game import GameScreen


class OpeningApp(Protocol):
    """What the opening asks of the app (``SolstisApp``)."""

    pace: float

    def push_screen(self, screen: Screen[Any],
                    callback: Callable[[Any], None] | None = None) -> Any: ...

    def start_session(self, session: Session, screen: GameScreen | None = None,
                      above: Screen[Any] | None = None) -> None: ...

    def show_message(self, title: str, text: str) -> None: ...

    def autosave(self, session: SessionView) -> None: ...


def first_run() -> bool:
    """The tutorial was never offered here (the caller checks there is no saved game)."""
    from ..tutorial import progress

    return not progress.offered()


class Opening:
    """Starts a local game on ``app``: the saved one, a tutorial chapter, or a setup."""

    def __init__(self, app: OpeningApp) -> None:
        self.app = app

    def offer_saved(self, setup: Setup, options_given: bool) -> None:
        """The continue-or-new question if a game is saved (a damaged save is resumed, which
        says so), the welcome on the first run, else a new game of ``setup``.
        ``options_given`` (``setup`` came from command-line options): the question names
        the new game, and the welcome is not offered."""
        data = saves.peek()
        if data is None and not options_given and first_run():
            from ..screens.welcome import WelcomeScreen

            self.app.push_screen(WelcomeScreen(), partial(self._welcome_chosen, setup))
        elif data is not None and data.get("corrupt"):
            self.resume_saved(fallback=setup)
        elif data is not None:
            new = saves.describe_setup(setup) if options_given else ""
            self.ask(saves.describe(data), new, setup)
        else:
            self.app.start_session(Session(setup))

    def ask(self, summary: str, new: str, setup: Setup) -> None:
        """Continue the saved game (``summary``) or start ``setup`` (``new`` names it)."""
        from ..screens.resume import ContinueScreen

        self.app.push_screen(ContinueScreen(summary, new),
                             partial(self._continue_chosen, setup=setup))

    def _continue_chosen(self, choice: str | None, setup: Setup) -> None:
        """'continue' resumes the saved game; anything else starts ``setup``."""
        if choice == "continue":
            self.resume_saved(fallback=setup)
        else:
            self.app.start_session(Session(setup))

    def _welcome_chosen(self, setup: Setup, choice: str | None) -> None:
        from ..tutorial import progress

        with contextlib.suppress(OSError):  # read-only data directory: asked again next time
            progress.mark_offered()
        if choice == "learn":
            self.start_tutorial("base")
        else:
            self.app.start_session(Session(setup))

    def resume_saved(self, fallback: Setup) -> None:
        """The saved game, or a new game of ``fallback`` with a message saying why."""
        result = saves.load()
        if result.session is not None:
            self.app.start_session(result.session)
            if result.message:  # rebuilt, but the file disagreed with itself: kept aside
                result.session.changed()  # saved afresh, as it is now
                self.app.autosave(result.session)
                self.app.show_message("The saved game did not load cleanly", result.message)
            return
        self.app.start_session(Session(fallback))
        self.app.show_message("No game to continue" if result.kept_as is None
                              else "The saved game is damaged", result.message)

    def start_tutorial(self, name: str = "base", restart: bool = False) -> None:
        """Tutorial chapter ``name``, resumed where it was left unless ``restart``."""
        from ..screens.tutorial import TutorialScreen
        from ..tutorial import progress
        from ..tutorial.chapters import CHAPTERS
        from ..tutorial.session import TutorialSession

        chapter = CHAPTERS[name]
        if restart:
            with contextlib.suppress(OSError):
                progress.forget()
        session = None if restart else progress.resume(chapter)
        resumed = session is not None
        session = session or TutorialSession.start(chapter)
        self.app.start_session(session, TutorialScreen(session, pace=self.app.pace,
                                                       resumed=resumed))

    def start_practice(self, variant: str) -> None:
        """After the tutorial: a real game against the Random bot, random seats; first the
        continue-or-new question if an unfinished game is saved (a new game replaces it)."""
        setup = random_setup("random", variant)
        data = saves.peek()
        if data is not None and not data.get("corrupt") and not data.get("finished"):
            self.ask(saves.describe(data), "", setup)
            return
        self.app.start_session(Session(setup))

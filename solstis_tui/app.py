"""``SolstisApp``: Solstis played here, on the shared shell (``shell.ShellApp``): sessions,
saves, the tutorial, the end of a game, hints and reviews. ``solstis online``'s app
(``client.app``) is the other app on the shell."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.screen import Screen

from .core import Observation
from .local import saves
from .local.bot_process import BotProcess
from .local.session import STRONGEST, Session, Setup, random_setup
from .play.session_view import SessionView
from .screens.practice import BoardUnder
from .shell import ShellApp

if TYPE_CHECKING:
    from .coach.analysis import Effort
    from .coach.hints import Answer
    from .local.drill import DrillRun
    from .records import GameRecord
    from .screens.game import GameScreen
    from .screens.play_from_here import PlayFromHere
    from .screens.review import ReviewScreen
    from .screens.services import AppServices

class SolstisApp(ShellApp):
    """Play Solstis. ``setup`` None starts a person against minimax, random seed and seats.

    With ``offer_continue``, an unfinished saved game is offered first; ``options_given``
    (the setup came from command-line options) names the new game in that question and
    skips the first run's tutorial offer. ``theme_name`` None: the theme last chosen in the
    command palette (``settings``), else the default.
    """

    def __init__(
        self,
        setup: Setup | None = None,
        *,
        resume: bool = False,
        offer_continue: bool = False,
        options_given: bool = False,
        tutorial: str | None = None,
        restart_tutorial: bool = False,
        theme_name: str | None = None,
        ascii_mode: bool = False,
        pace: float = 0.5,
        autosave: bool = True,
        hint_spec: str = STRONGEST,
        hint_effort: Effort | None = None,
        review: GameRecord | None = None,
        review_path: Path | None = None,
        keep_records: bool | None = None,
        review_effort: Effort | None = None,
        review_workers: int | None = None,
        drill: DrillRun | None = None,
        drill_effort: Effort | None = None,
    ) -> None:
        super().__init__(theme_name=theme_name, ascii_mode=ascii_mode)
        self.setup = setup or random_setup()
        self.resume = resume
        self.offer_continue = offer_continue
        self.options_given = options_given
        self.tutorial = tutorial
        self.restart_tutorial = restart_tutorial
        self.pace = pace
        self.autosave_enabled = autosave
        self.hint_spec = hint_spec
        self._hint_bot: BotProcess | None = None
        #: How hard the judge looks for a hint (tests: a tiny effort).
        self.hint_effort = hint_effort
        #: The last finished local game: it stays reviewable after a rematch or a new game.
        self.last_finished: Session | None = None
        self.session: Session | None = None
        """The local game on the game screen (the screens hand it back as a SessionView)."""
        self.last_save_error = ""
        #: A finished game's record to open on the analysis board (``solstis review``),
        #: and its file (the analysis is kept beside it); the app closes with it.
        self.review = review
        self.review_path = review_path
        #: The judge's effort and processes on the analysis board (None: the shipped
        #: effort, every usable core); tests make them tiny.
        self.review_effort = review_effort
        self.review_workers = review_workers
        """The last game kept as a record, the record, and its file (None: not written)."""
        #: Keep a record of every finished game (default: when autosave is on).
        self.keep_records = autosave if keep_records is None else keep_records
        #: The analysis board a practice game was started from, waiting under it.
        self.board_under = BoardUnder()
        self.last_record_error = ""
        #: A drill to run (``solstis drill``); the app closes after it.
        self.drill = drill
        #: The judge's effort for a drill's answers (None: ``drill.ANSWER_EFFORT``).
        self.drill_effort = drill_effort

    # ------------------------------------------------------------------ start
    def open_first_screen(self) -> None:
        """The saved game (``resume``), a tutorial chapter, the continue-or-new question or
        the first run's welcome (``offer_continue``), else a new game of ``setup``; with
        ``review``, that game's review."""
        if self.drill is not None:
            self.start_drill(self.drill)
            return
        if self.review is not None:
            # Closing the board ends the program, unless it started a practice game (f).
            self.push_screen(self.review_screen(self.review, path=self.review_path),
                             lambda _closed: self.exit() if self.session is None else None)
            return
        if self.resume:
            self.resume_saved(fallback=self.setup)
            return
        if self.tutorial is not None:
            self.start_tutorial(self.tutorial, restart=self.restart_tutorial)
            return
        if self.offer_continue:
            data = saves.peek()
            if data is None and not self.options_given and self._first_run():
                from .screens.welcome import WelcomeScreen

                self.push_screen(WelcomeScreen(), self._welcome_chosen)
                return
            if data is not None:
                if data.get("corrupt"):
                    self.resume_saved(fallback=self.setup)
                    return
                summary = self._save_summary(data)
                new = saves.describe_setup(self.setup) if self.options_given else ""
                self.push_screen(self._continue_screen(summary, new), self._continue_chosen)
                return
        self.start_session(Session(self.setup))

    def _continue_screen(self, summary: str, new: str = "") -> Screen[Any]:
        from .screens.resume import ContinueScreen

        return ContinueScreen(summary, new)

    def _continue_chosen(self, choice: str | None, new: Setup | None = None) -> None:
        """'continue' resumes the saved game; anything else starts ``new`` (default: the
        setup the app was started with)."""
        if choice == "continue":
            self.resume_saved(fallback=self.setup)
        else:
            self.start_session(Session(new or self.setup))

    @staticmethod
    def _first_run() -> bool:
        """The tutorial was never offered here (the caller checks there is no saved game)."""
        from .tutorial import progress

        return not progress.offered()

    def _welcome_chosen(self, choice: str | None) -> None:
        from .tutorial import progress

        with contextlib.suppress(OSError):  # read-only data directory: asked again next time
            progress.mark_offered()
        if choice == "learn":
            self.start_tutorial("base")
        else:
            self.start_session(Session(self.setup))

    def start_tutorial(self, name: str = "base", restart: bool = False) -> None:
        """Tutorial chapter ``name``, resumed where it was left unless ``restart``."""
        from .screens.tutorial import TutorialScreen
        from .tutorial import progress
        from .tutorial.chapters import CHAPTERS
        from .tutorial.session import TutorialSession

        chapter = CHAPTERS[name]
        if restart:
            with contextlib.suppress(OSError):
                progress.forget()
        session = None if restart else progress.resume(chapter)
        resumed = session is not None
        session = session or TutorialSession.start(chapter)
        self.start_session(session, TutorialScreen(session, pace=self.pace, resumed=resumed))

    def start_practice(self, variant: str) -> None:
        """After the tutorial: a real game against the Random bot, random seats; first the
        continue-or-new question if an unfinished game is saved (a new game replaces it)."""
        setup = random_setup("random", variant)
        data = saves.peek()
        if data is not None and not data.get("corrupt") and not data.get("finished"):
            self.push_screen(self._continue_screen(self._save_summary(data)),
                             partial(self._continue_chosen, new=setup))
            return
        self.start_session(Session(setup))

    @staticmethod
    def _save_summary(data: dict[str, Any]) -> str:
        return saves.describe(data)

    def resume_saved(self, fallback: Setup) -> None:
        result = saves.load()
        if result.session is not None:
            self.start_session(result.session)
            if result.message:  # rebuilt, but the file disagreed with itself: kept aside
                result.session.changed()  # saved afresh, as it is now
                self.autosave(result.session)
                self.show_message("The saved game did not load cleanly", result.message)
            return
        self.start_session(Session(fallback))
        self.show_message("No game to continue" if result.kept_as is None
                          else "The saved game is damaged", result.message)

    def start_session(self, session: Session, screen: GameScreen | None = None,
                      above: Screen[Any] | None = None) -> None:
        """Play ``session`` on ``screen`` (a new game screen by default), in place of every
        screen above the first, or only of those above ``above`` (an analysis board a
        practice game goes back to)."""
        from .screens.game import GameScreen

        if self.game_screen is not None:
            self.game_screen.play.stop_bot()
        if self.session is not None:  # the expert's worker processes go with its game
            self.session.close_bots()
        self.session = session
        if self.keep_records:  # the session keeps its record when the game ends
            from . import record_files

            session.keep_to = record_files.keep
        if self.autosave_enabled:  # and saves itself after each change
            session.save_to = saves.save
        while len(self.screen_stack) > 1 and self.screen is not above:
            self.pop_screen()
        if above is None:  # a board under a practice went with the rest
            self.board_under.keep(self, None)
        self.game_screen = screen or GameScreen(session, pace=self.pace)
        self.push_screen(self.game_screen)

    def play_from_here(self, record: GameRecord, decision_index: int, seat: int,
                       board: Screen[Any] | None = None) -> None:
        """A practice game from decision ``decision_index`` of ``record`` as ``seat``,
        against the same opponent, the hidden parts dealt anew (``practice.start``). It is
        not kept as a record and not autosaved: the saved game stays the player's. A
        decision or seat that is not there is said, and nothing changes. Started from the
        analysis board ``board`` (or again from a practice started from one), it is played
        above that board, which it goes back to (``back_to_board``)."""
        from .local import practice
        from .screens.practice import PracticeScreen

        try:
            session = practice.start(record, decision_index, seat)
        except ValueError as exc:
            self.show_message("No practice game", f"Cannot play from there: {exc}.")
            return
        if board is None:  # the same decision again: on the board of the first try
            board = self.board_under.waiting(self)
        self.board_under.keep(self, board)
        self.start_session(session, PracticeScreen(
            session, pace=self.pace, back=None if board is None else self.back_to_board),
            above=board)
        back = " Esc goes back to the analysis board." if board is not None else ""
        said = (f"Practice from {session.started_at()} against {session.name(1 - seat)}: "
                "what you could not see is dealt anew. A practice game is not kept and "
                f"does not replace your saved game.{back}")
        if session.note:  # the record's bot is not one of ours: said before play starts
            self.show_message(f"Practice against the {session.name(1 - seat)}",
                              f"{session.note}\n\n{said}")
        else:
            self.notify(said, markup=False, timeout=8)

    def on_play_from_here(self, message: PlayFromHere) -> None:
        """A review board's "play from here" (key f): played above that board."""
        from .screens.review import ReviewScreen

        board = self.screen if isinstance(self.screen, ReviewScreen) else None
        self.play_from_here(message.record, message.decision_index, message.seat, board)

    def back_to_board(self) -> None:
        """Leave the practice game for the analysis board it was started from."""
        self.board_under.back(self)

    def start_drill(self, run: DrillRun | None = None) -> None:
        """Drill: the player's last mistakes across kept games, asked one after another
        (``drill``); with none to ask, a sentence saying why. The summary closes it (and
        the app, for ``solstis drill``)."""
        from .local import drill
        from .screens.drill import DrillScreen

        if run is None:
            found = drill.collect()
            if not found.exercises:
                self.show_message("Nothing to drill", found.empty_message())
                return
            run = drill.DrillRun(found, self.drill_effort or drill.ANSWER_EFFORT)
        if self.game_screen is not None:  # the game underneath waits for the drill
            self.game_screen.play.stop_bot()
        self.push_screen(DrillScreen(run, pace=self.pace), lambda _: self._drill_done(run))

    def _drill_done(self, run: DrillRun) -> None:
        from .screens.message import MessageScreen

        summary = run.summary("*" if self.ascii_mode else "★")
        if self.drill is run:  # `solstis drill`: the summary closes the app
            self.push_screen(MessageScreen("The drill is over", summary),
                             lambda _: self.exit())
            return
        self.push_screen(MessageScreen("The drill is over", summary),
                         lambda _: self._back_to_game())

    def _back_to_game(self) -> None:
        """The game under a drill goes on (a bot's turn starts again)."""
        if self.game_screen is not None and self.screen is self.game_screen:
            self.game_screen.play.advance()

    # ------------------------------------------------------------------ saves
    def local(self, session: SessionView) -> Session | None:
        """The local game a screen hands back as ``session``: the one playing, or the one
        just finished (None for anything else)."""
        for known in (self.session, self.last_finished):
            if known is not None and known is session:
                return known
        return None

    def autosave(self, session: SessionView) -> None:
        """The session saved itself after the change (``Session.save_to``): a failure is
        said once, not after every decision, and the game goes on."""
        local = self.local(session)
        if local is None or local.save_to is None:
            return
        if local.save_error is None:
            self.last_save_error = ""
            return
        warned, self.last_save_error = (self.last_save_error,
                                        saves.failure_message(local.save_error))
        if not warned:
            self.notify(self.last_save_error, severity="warning", markup=False, timeout=15)

    def said_record_problem(self, session: Session) -> None:
        """A finished game whose record could not be written: said once (until a record
        is written again), and the game goes on."""
        from . import record_files

        kept = session.kept
        if kept is None or not kept.problem:
            if kept is not None:
                self.last_record_error = ""
            return
        warned = self.last_record_error
        self.last_record_error = (
            f"This game could not be kept as a record: {record_files.records_dir()} "
            f"cannot be written ({kept.problem}).")
        if not warned:
            self.notify(self.last_record_error, severity="warning", markup=False,
                        timeout=15)

    # ------------------------------------------------------------------ screens
    def show_end(self, session: SessionView, obs: Observation) -> None:
        """The finished game ``obs``: scores, the winner, what next."""
        from .screens.end import CHOICES, EndScreen

        local = self.local(session)
        choices = None
        if local is not None and local.keeps_record:
            self.last_finished = local
            self.said_record_problem(local)
        elif local is not None and self.board_under.waiting(self) is None:  # a practice
            choices = CHOICES - {"review"}  # has no record (from a board, r goes back there)
        self.push_screen(EndScreen(session, obs, self.ascii_mode, choices),
                         lambda choice: self._end_chosen(session, choice))

    def _end_chosen(self, session: SessionView, choice: str | None) -> None:
        if choice == "new":
            self.open_new_game()
        elif choice == "same-deal" and (source := getattr(self.local(session), "source",
                                                          None)) is not None:
            self.play_from_here(*source)  # a practice: the same decision, re-dealt again
        elif choice in ("rematch", "same-deal") and (local := self.local(session)):
            same = choice == "same-deal"
            self.start_session(Session(local.setup.swapped() if same
                                       else local.setup.rematch()))
            said = ("The same deal, seats swapped: you know the other seat's opening hand."
                    if same else "Rematch on a new secret deal, seats swapped.")
            if self.last_finished is session:
                said += " The last game stays reviewable: Ctrl+P, Review last game."
            self.notify(said, markup=False)
        elif choice == "review":
            self.show_review(session)
        elif choice == "undo" and self.game_screen is not None:
            self.game_screen.action_undo()
        elif choice == "quit":
            self.exit()

    def show_review(self, session: SessionView) -> None:
        """The analysis board of a finished local game: its record (the one kept, whose
        file keeps the analysis too), the people's decisions (both seats' if bots played)."""
        local = self.local(session)
        if local is None:
            return
        if not local.keeps_record and self.board_under.waiting(self) is not None:
            self.back_to_board()  # a practice: the board it came from
            return
        if not local.keeps_record:
            self.notify("A practice game is dealt anew from a position, so it has no record "
                        "to review: review the game it came from (Ctrl+P, Review last game).",
                        severity="warning", markup=False)
            return
        if local.kept is not None:  # kept by the session when the game ended
            record, path = local.kept.record, local.kept.path
        else:
            try:
                record, path = local.record(), None
            except ValueError:
                self.notify("This game cannot be reviewed: its moves do not replay from its "
                            "deal (it was rebuilt from a damaged save).", severity="warning",
                            markup=False)
                return
        self.push_screen(self.review_screen(record, path=path))

    def review_screen(self, record: GameRecord, seats: tuple[int, ...] | None = None,
                      path: Path | None = None) -> ReviewScreen:
        """The analysis board of ``record`` (``screens.review``), judged with this app's
        review effort."""
        from .screens.review import ReviewScreen

        return ReviewScreen(record, seats, path=path, effort=self.review_effort,
                            workers=self.review_workers)

    def new_game_facts(self) -> tuple[bool, str]:
        """What the new-game form opens with: whether a saved game can be continued, and
        the opponent of the game on screen."""
        opponent = "minimax"
        if self.session is not None:
            bots = [s.bot for s in self.session.setup.seats if s.bot is not None]
            opponent = bots[0] if bots else opponent
        return saves.peek() is not None, opponent

    def new_game_form(self) -> Screen[Any]:
        from .screens.newgame import NewGameScreen

        can_continue, opponent = self.new_game_facts()
        return NewGameScreen(can_continue, opponent, ascii_mode=self.ascii_mode)

    def more_screens(self) -> list[tuple[str, Callable[[], Screen[Any]]]]:
        """The new-game form is prepared in idle time too."""
        return [("new-game", self.new_game_form)]

    def open_new_game(self) -> None:
        from .screens.newgame import NewGameScreen

        can_continue, opponent = self.new_game_facts()
        if not self.is_screen_installed("new-game"):
            self.install_screen(self.new_game_form(), "new-game")
        form = self.get_screen("new-game")
        assert isinstance(form, NewGameScreen)
        form.reopen(can_continue, opponent)
        self.push_screen("new-game", self._new_game_chosen)

    def _new_game_chosen(self, result: object) -> None:
        if result == "continue":
            self.resume_saved(fallback=self.setup)
        elif isinstance(result, Setup):
            self.start_session(Session(result))

    # ------------------------------------------------------------------ bots
    def judge_hint(self, obs: Observation, names: tuple[str, str],
                   cancel: threading.Event | None = None) -> Answer:
        """A hint for ``obs`` (``play.hints.answer``), found in the hint process; Cancelled
        once ``cancel`` is set, BotFailed if the process failed."""
        return self.hint_bot().judge(obs, names, self.hint_effort, cancel)

    def hint_bot(self) -> BotProcess:
        """The strongest bot, searching for hints in a worker process of its own
        (on one core: no pool per hint); a fresh bot, seeded alike, for every position."""
        if self._hint_bot is None:
            self._hint_bot = BotProcess(self.hint_spec, 12345, solo=True)
        return self._hint_bot

    # ------------------------------------------------------------------ palette
    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        gs = self.game_screen
        if gs is not None:
            yield SystemCommand("New game", "Choose a mode, opponent and variant",
                                gs.action_new_game)
        if gs is not None and screen is gs:  # not on a drill or a board above the game
            if gs.play.undo_offered():  # only what would act now is offered
                yield SystemCommand("Undo", "Back to your previous decision", gs.action_undo)
            if gs.play.hint_now():
                yield SystemCommand("Hint", "The judge's best move here, and why",
                                    gs.action_hint)
            if self.board_under.waiting(self) is not None:
                yield SystemCommand("Review game", "Back to the analysis board this practice "
                                    "game was started from", self.back_to_board)
            elif gs.play.obs.is_over and gs.play.review_offered():
                yield SystemCommand("Review game", "The finished game on the analysis board",
                                    gs.action_review)
        yield SystemCommand("Drill your mistakes", "Your last mistakes across kept games, "
                            "asked again one by one", self.start_drill)
        last = self.last_finished
        if last is not None and last.game.is_over and (gs is None or last is not gs.session):
            yield SystemCommand("Review last game", "The finished game before this one",
                                lambda: self.show_review(last))


if TYPE_CHECKING:
    def _provides_app_services(app: SolstisApp) -> AppServices:
        return app  # mypy checks that the game screen finds what it asks for here

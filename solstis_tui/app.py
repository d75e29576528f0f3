"""``SolstisApp``: Solstis played here, on the shared shell (``shell.ShellApp``): the game on
screen and its session, the end of a game, reviews, the new-game form and hints. How a game
begins (``opening``), practice above the analysis board (``board_practice``), drills
(``drill_flow``), what could not be written (``keep_warnings``) and the palette's commands
(``local_commands``) have modules of their own. ``solstis online``'s app (``client.app``) is
the other app on the shell."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.screen import Screen

from .core import Observation
from .local import saves
from .local.bot_process import BotProcess
from .local.session import STRONGEST, Session, Setup, random_setup
from .local_app.board_practice import BoardPractice
from .local_app.drill_flow import DrillFlow
from .local_app.keep_warnings import KeepWarnings
from .local_app.local_commands import local_commands
from .local_app.opening import Opening
from .play.session_view import SessionView
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
        #: A finished game's record to open on the analysis board (``solstis review``),
        #: and its file (the analysis is kept beside it); the app closes with it.
        self.review = review
        self.review_path = review_path
        #: The judge's effort and processes on the analysis board (None: the shipped
        #: effort, every usable core); tests make them tiny.
        self.review_effort = review_effort
        self.review_workers = review_workers
        #: Keep a record of every finished game (default: when autosave is on).
        self.keep_records = autosave if keep_records is None else keep_records
        #: A drill to run (``solstis drill``); the app closes after it.
        self.drill = drill
        self.drills = DrillFlow(self, drill_effort)
        """Drills over the game on screen, their answers judged at ``drill_effort``."""
        self.opening = Opening(self)
        """The saved game, the welcome and the tutorial: how a game begins."""
        self.practice = BoardPractice(self)
        """Practice games started from the analysis board, which waits under them."""
        self.warnings = KeepWarnings()
        """A save or a record that could not be written, said once."""

    # ------------------------------------------------------------------ start
    def open_first_screen(self) -> None:
        """A drill (``drill``), a finished game's review (``review``), the saved game
        (``resume``), a tutorial chapter, the continue-or-new question or the first run's
        welcome (``offer_continue``), else a new game of ``setup``."""
        if self.drill is not None:
            self.start_drill(self.drill)
        elif self.review is not None:
            # Closing the board ends the program, unless it started a practice game (f).
            self.push_screen(self.review_screen(self.review, path=self.review_path),
                             lambda _closed: self.exit() if self.session is None else None)
        elif self.resume:
            self.opening.resume_saved(fallback=self.setup)
        elif self.tutorial is not None:
            self.opening.start_tutorial(self.tutorial, restart=self.restart_tutorial)
        elif self.offer_continue:
            self.opening.offer_saved(self.setup, self.options_given)
        else:
            self.start_session(Session(self.setup))

    def start_tutorial(self, name: str = "base", restart: bool = False) -> None:
        """Tutorial chapter ``name``, resumed where it was left unless ``restart``."""
        self.opening.start_tutorial(name, restart)

    def start_practice(self, variant: str) -> None:
        """After the tutorial: a real game against the Random bot (``Opening``)."""
        self.opening.start_practice(variant)

    def start_session(self, session: Session, screen: GameScreen | None = None,
                      above: Screen[Any] | None = None) -> None:
        """Play ``session`` on ``screen`` (a new game screen by default), in place of every
        screen above the first, or only of those above ``above`` (an analysis board a
        practice game goes back to)."""
        from .screens.game import GameScreen

        if self.game_screen is not None:
            self.game_screen.play.turns.stop()
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
            self.practice.forget()
        self.game_screen = screen or GameScreen(session, pace=self.pace)
        self.push_screen(self.game_screen)

    def play_from_here(self, record: GameRecord, decision_index: int, seat: int,
                       board: Screen[Any] | None = None) -> None:
        """A practice game from decision ``decision_index`` of ``record`` as ``seat``,
        above the analysis board ``board`` if it came from one (``BoardPractice.start``)."""
        self.practice.start(record, decision_index, seat, board)

    def on_play_from_here(self, message: PlayFromHere) -> None:
        """A review board's "play from here" (key f): played above that board."""
        from .screens.review import ReviewScreen

        board = self.screen if isinstance(self.screen, ReviewScreen) else None
        self.play_from_here(message.record, message.decision_index, message.seat, board)

    def start_drill(self, run: DrillRun | None = None) -> None:
        """Drill: the player's last mistakes across kept games, asked one after another
        (``DrillFlow``); the summary of the drill the app was started for closes it."""
        self.drills.start(run, closes_app=run is not None and run is self.drill)

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
        if local is not None:
            self._warn(self.warnings.after_save(local))

    def _warn(self, said: str | None) -> None:
        """Say what could not be written (None: nothing to say)."""
        if said:
            self.notify(said, severity="warning", markup=False, timeout=15)

    # ------------------------------------------------------------------ screens
    def show_end(self, session: SessionView, obs: Observation) -> None:
        """The finished game ``obs``: scores, the winner, what next. A record that could
        not be written is said once (until one is written again)."""
        from .screens.end import CHOICES, EndScreen

        local = self.local(session)
        choices = None
        if local is not None and local.keeps_record:
            self.last_finished = local
            self._warn(self.warnings.after_end(local))
        elif local is not None and self.practice.waiting() is None:  # a practice has no
            choices = CHOICES - {"review"}  # record (from a board, r goes back there)
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
        if not local.keeps_record and self.practice.waiting() is not None:
            self.practice.back()  # a practice: the board it came from
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
            self.opening.resume_saved(fallback=self.setup)
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
        """The shell's commands, then the local game's (``local_commands``)."""
        yield from super().get_system_commands(screen)
        yield from local_commands(self, screen)


if TYPE_CHECKING:
    def _provides_app_services(app: SolstisApp) -> AppServices:
        return app  # mypy checks that the game screen finds what it asks for here

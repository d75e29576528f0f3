"""The board of a practice game (play from here): a game like any other, but nothing of it
is kept, so ``q`` asks before quitting; and started from an analysis board, which waits
under it, it goes back there: Esc (once there is nothing half-made to back out of), and
``r`` or the palette's Review once it is over (``BoardUnder``, kept by
``local_app.board_practice.BoardPractice``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Protocol

from textual.binding import Binding, BindingType
from textual.screen import Screen

from ..local.session import Session
from ..play.session_view import SessionView
from .confirm import ConfirmScreen
from .game import GameScreen


class PracticeApp(Protocol):
    """What ``BoardUnder`` changes in the app (``SolstisApp``)."""

    session: Session | None
    game_screen: GameScreen | None

    @property
    def screen_stack(self) -> list[Screen[Any]]: ...

    @property
    def screen(self) -> Screen[Any]: ...

    def pop_screen(self) -> Any: ...


class BoardUnder:
    """The analysis board a practice game was started from (``board``, None: none), which
    waits under it, and the app's game and game screen before the practice (``before``),
    given back with the board."""

    def __init__(self) -> None:
        self.board: Screen[Any] | None = None
        self.before: tuple[Session | None, GameScreen | None] = (None, None)

    def waiting(self, app: PracticeApp) -> Screen[Any] | None:
        """The board, if it still waits under the practice."""
        return self.board if self.board in app.screen_stack else None

    def keep(self, app: PracticeApp, board: Screen[Any] | None) -> None:
        """A practice is started above ``board`` (None: above nothing: forget any)."""
        if board is None:
            self.board, self.before = None, (None, None)
            return
        if self.board is None:
            self.before = (app.session, app.game_screen)
        self.board = board

    def back(self, app: PracticeApp) -> None:
        """Leave the practice for the board, as it was left; the game that was the app's
        before the practice is the app's again (its bot goes on, as it did under the
        board before)."""
        board = self.waiting(app)
        if board is None:
            return
        if app.game_screen is not None:
            app.game_screen.play.turns.stop()
        if app.session is not None:
            app.session.close_bots()
        while app.screen is not board:
            app.pop_screen()
        app.session, app.game_screen = self.before
        self.keep(app, None)
        if app.game_screen is not None and not app.game_screen.play.obs.is_over:
            app.game_screen.play.advance()


class PracticeScreen(GameScreen):
    """A practice game's board; ``back`` returns to the analysis board it came from (None:
    it came from none)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Esc backs out of a half-made choice, else goes back to the board (where there is one)
        Binding("escape", "to_board", "Board"),
    ]

    def __init__(self, session: SessionView, pace: float = 0.5,
                 back: Callable[[], None] | None = None) -> None:
        super().__init__(session, pace=pace)
        self.back = back

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc is "Board" in the footer where a board waits, else the game's "Back"."""
        if action in ("back", "to_board") and not self.too_small:
            return (self.back is not None) == (action == "to_board")
        return super().check_action(action, parameters)

    def backs_out(self) -> bool:
        """Esc has something to back out of here (as ``PlayController.back`` does): an
        error or a hint to drop, or a tile played to capture to take back."""
        play = self.play
        takeback = self.session.takeback
        return bool(play.error or play.hint_text) or (
            takeback is not None and takeback.can_take_back_play())

    def action_to_board(self) -> None:
        """Esc: back out of a half-made choice; with none, back to the analysis board."""
        if self.back is None or self.backs_out():
            self.action_back()
        else:
            self.play.turns.stop()
            self.back()

    def action_quit_game(self) -> None:
        """q: quit the program once the person says yes (this game is not kept)."""
        board = " (Esc on the board goes back to the analysis board)" if self.back else ""
        self.app.push_screen(ConfirmScreen(
            "Quit Solstis? This practice game is not kept, and your saved game stays as "
            "it was.", f"y quits · any other key plays on{board}"), self._quit_answered)

    def _quit_answered(self, yes: bool | None) -> None:
        if yes:
            self.play.turns.stop()
            self.app.exit()

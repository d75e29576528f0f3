"""The local app's own commands in the palette (Ctrl+P), after the shell's: a new game; on
the game screen, only what would act now (undo, a hint, the review or the board a practice
goes back to); the drill; the review of the last finished game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import SystemCommand
from textual.screen import Screen

from ..local.session import Session
from ..play.session_view import SessionView
from .board_practice import BoardPractice

if TYPE_CHECKING:
    from ..local.drill import DrillRun
    from ..screens.game import GameScreen


class CommandsApp(Protocol):
    """What the commands act on (``SolstisApp``)."""

    game_screen: GameScreen | None
    last_finished: Session | None
    practice: BoardPractice

    def start_drill(self, run: DrillRun | None = None) -> None: ...

    def show_review(self, session: SessionView) -> None: ...


def local_commands(app: CommandsApp, screen: Screen[Any]) -> Iterator[SystemCommand]:
    """The commands to list with ``screen`` on top."""
    gs = app.game_screen
    if gs is not None:
        yield SystemCommand("New game", "Choose a mode, opponent and variant",
                            gs.action_new_game)
    if gs is not None and screen is gs:  # not on a drill or a board above the game
        if gs.play.undo_offered():  # only what would act now is offered
            yield SystemCommand("Undo", "Back to your previous decision", gs.action_undo)
        if gs.play.hint_now():
            yield SystemCommand("Hint", "The judge's best move here, and why",
                                gs.action_hint)
        if app.practice.waiting() is not None:
            yield SystemCommand("Review game", "Back to the analysis board this practice "
                                "game was started from", app.practice.back)
        elif gs.play.obs.is_over and gs.play.review_offered():
            yield SystemCommand("Review game", "The finished game on the analysis board",
                                gs.action_review)
    yield SystemCommand("Drill your mistakes", "Your last mistakes across kept games, "
                        "asked again one by one", app.start_drill)
    last = app.last_finished
    if last is not None and last.game.is_over and (gs is None or last is not gs.session):
        yield SystemCommand("Review last game", "The finished game before this one",
                            lambda: app.show_review(last))

"""Practice above the analysis board: a practice game played on from one of a finished
game's decisions ("play from here", ``local.practice``), above the board it was started
from, which waits under it and which it goes back to (``screens.practice.BoardUnder``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual.notifications import SeverityLevel
from textual.screen import Screen

from ..local.session import Session
from ..records import GameRecord
from ..screens.practice import BoardUnder, PracticeApp

if TYPE_CHECKING:
    from ..screens.game import GameScreen


class BoardPracticeApp(PracticeApp, Protocol):
    """What practice above the board asks of the app (``SolstisApp``)."""

    pace: float

    def start_session(self, session: Session, screen: GameScreen | None = None,
                      above: Screen[Any] | None = None) -> None: ...

    def show_message(self, title: str, text: str) -> None: ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...


class BoardPractice:
    """Practice games on ``app``, and the analysis board waiting under one (``under``)."""

    def __init__(self, app: BoardPracticeApp) -> None:
        self.app = app
        self.under = BoardUnder()

    def waiting(self) -> Screen[Any] | None:
        """The board the practice on screen goes back to (None: none waits)."""
        return self.under.waiting(self.app)

    def start(self, record: GameRecord, decision_index: int, seat: int,
              board: Screen[Any] | None = None) -> None:
        """A practice game from decision ``decision_index`` of ``record`` as ``seat``,
        against the same opponent, the hidden parts dealt anew (``practice.start``). It is
        not kept as a record and not autosaved: the saved game stays the player's. A
        decision or seat that is not there is said, and nothing changes. Started from the
        analysis board ``board`` (or again from a practice started from one), it is played
        above that board, which it goes back to (``back``)."""
        from ..local import practice
        from ..screens.practice import PracticeScreen

        try:
            session = practice.start(record, decision_index, seat)
        except ValueError as exc:
            self.app.show_message("No practice game", f"Cannot play from there: {exc}.")
            return
        if board is None:  # the same decision again: on the board of the first try
            board = self.waiting()
        self.under.keep(self.app, board)
        self.app.start_session(session, PracticeScreen(
            session, pace=self.app.pace, back=None if board is None else self.back),
            above=board)
        back = " Esc goes back to the analysis board." if board is not None else ""
        said = (f"Practice from {session.started_at()} against {session.name(1 - seat)}: "
                "what you could not see is dealt anew. A practice game is not kept and "
                f"does not replace your saved game.{back}")
        if session.note:  # the record's bot is not one of ours: said before play starts
            self.app.show_message(f"Practice against the {session.name(1 - seat)}",
                                  f"{session.note}\n\n{said}")
        else:
            self.app.notify(said, markup=False, timeout=8)

    def back(self) -> None:
        """Leave the practice game for the analysis board it was started from."""
        self.under.back(self.app)

    def forget(self) -> None:
        """A game not started from a board: no board waits any more."""
        self.under.keep(self.app, None)

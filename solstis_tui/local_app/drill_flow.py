"""A drill run over the local app: the player's last mistakes across kept games
(``local.drill``), asked one after another on the drill screen, above the game that was on
screen, which goes on after the drill's summary."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from textual.screen import Screen

if TYPE_CHECKING:
    from ..coach.analysis import Effort
    from ..local.drill import DrillRun
    from ..screens.game import GameScreen


class DrillApp(Protocol):
    """What a drill asks of the app (``SolstisApp``)."""

    pace: float
    ascii_mode: bool
    game_screen: GameScreen | None

    @property
    def screen(self) -> Screen[Any]: ...

    def push_screen(self, screen: Screen[Any],
                    callback: Callable[[Any], None] | None = None) -> Any: ...

    def show_message(self, title: str, text: str) -> None: ...

    def exit(self) -> None: ...


class DrillFlow:
    """Drills on ``app``, their answers judged at ``effort`` (None:
    ``drill.ANSWER_EFFORT``)."""

    def __init__(self, app: DrillApp, effort: Effort | None) -> None:
        self.app = app
        self.effort = effort

    def start(self, run: DrillRun | None = None, closes_app: bool = False) -> None:
        """Drill ``run`` (None: the mistakes found now; with none to ask, a sentence saying
        why). The game underneath waits; the summary closes the drill, and the app too if
        ``closes_app`` (``solstis drill``)."""
        from ..local import drill
        from ..screens.drill import DrillScreen

        if run is None:
            found = drill.collect()
            if not found.exercises:
                self.app.show_message("Nothing to drill", found.empty_message())
                return
            run = drill.DrillRun(found, self.effort or drill.ANSWER_EFFORT)
        if self.app.game_screen is not None:  # the game underneath waits for the drill
            self.app.game_screen.play.turns.stop()
        self.app.push_screen(DrillScreen(run, pace=self.app.pace),
                             lambda _: self._done(run, closes_app))

    def _done(self, run: DrillRun, closes_app: bool) -> None:
        from ..screens.message import MessageScreen

        summary = MessageScreen("The drill is over",
                                run.summary("*" if self.app.ascii_mode else "★"))
        self.app.push_screen(summary, lambda _: self.app.exit() if closes_app
                             else self._back_to_game())

    def _back_to_game(self) -> None:
        """The game under a drill goes on (a bot's turn starts again)."""
        game_screen = self.app.game_screen
        if game_screen is not None and self.app.screen is game_screen:
            game_screen.play.advance()

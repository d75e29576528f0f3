"""The bots' turns on one game screen: a search started away from the screen, its move
shown once the pace has passed, held while paused, one decision at a time by steps, and a
failed bot's dialog.

``BotTurns`` drives the pacing (``BotPacing``) with the screen (``ScreenPort.think``,
``later``, ``bot_error``) and the session's bots. What follows a bot's move (the log, the
autosave, the next decision) and what comes next when no move waits are the controller's:
``BotTurns`` calls ``moved`` and ``go_on`` for them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core import IllegalMove, Move
from ..words.moves import describe_move
from .pacing import BotPacing
from .screen_port import ScreenPort
from .session_view import LocalBots, SessionView


class BotTurns:
    """The bots' turns of ``session`` on the screen behind ``port``."""

    def __init__(self, session: SessionView, port: ScreenPort, pace: float,
                 clock: Callable[[], float], to_play: Callable[[], int],
                 moved: Callable[[], None], go_on: Callable[[], None]) -> None:
        self.session = session
        self.port = port
        self.pacing = BotPacing(pace)
        self.clock = clock
        self.to_play = to_play
        """Whose decision is pending."""
        self.moved = moved
        """Called after a bot's move (or the fallback move) is played."""
        self.go_on = go_on
        """Called to go on with the game when no bot move waits (a pause ends, a step)."""

    def begin_turn(self) -> bool:
        """A bot is to decide: whether its search starts now (not while paused, unless a
        step was asked: that search is then the step's)."""
        pacing = self.pacing
        if pacing.paused and not pacing.step_once:
            return False
        pacing.stepping, pacing.step_once = pacing.step_once, False
        return True

    def start(self, player: int) -> None:
        """Start ``player``'s bot on its observation, away from the screen (where the
        bots decide elsewhere, at a host, nothing thinks here: its next state says the
        move)."""
        bots = self.session.local_bots
        if bots is None:
            self.pacing.thinking_since = None
            return
        token = self.pacing.begin(self.clock())
        try:
            bot = bots.bot(player)
        except Exception as exc:  # a bot that cannot even be made: the dialog says why
            self.failed(token, exc)
            return
        self.port.think(token, bot, self.session.observation(player), self.pacing.cancel)

    def stop(self) -> None:
        """Cancel any search and any bot move waiting to be shown."""
        self.pacing.stop()

    def done(self, token: int, move: Move) -> None:
        """A bot answered: show its move after the rest of the pace (Space skips)."""
        if token != self.pacing.token:
            return
        delay = self.pacing.delay(self.clock())

        def apply() -> None:
            self.apply(token, move)

        if delay > 0:
            self.pacing.pending = (self.port.later(delay, apply), apply)
        else:
            apply()

    def apply(self, token: int, move: Move) -> None:
        """Play a bot's move now (held instead while paused, unless it is a step's)."""
        pacing = self.pacing
        pacing.pending = None
        if token != pacing.token:
            return
        pacing.thinking_since = None
        if pacing.should_hold():  # held until resumed (or a step)
            pacing.held_move = (token, move)
            self.port.redraw()
            return
        pacing.stepping = False
        try:
            self.session.apply(move)
        except IllegalMove as exc:
            self.failed(token, exc)
            return
        self.moved()

    def failed(self, token: int, exc: Exception) -> None:
        """The bot of search ``token`` failed: the dialog offers a retry or a fallback."""
        if token != self.pacing.token:
            return
        self.pacing.thinking_since = None
        name = self.session.name(self.to_play())
        fallback = self._bots().fallback_move()
        self.port.bot_error(f"{name} failed: {type(exc).__name__}: {exc}",
                            describe_move(fallback))

    def after_error(self, choice: str | None) -> None:
        """The person's answer to a failed bot: retry it, or go on with the fallback move."""
        if choice == "retry":
            self._bots().forget_bot(self.to_play())
            self.go_on()
            return
        self.session.apply(self._bots().fallback_move())
        self.moved()

    def _bots(self) -> LocalBots:
        """The session's own bots (a bot failed here, so it has them)."""
        bots = self.session.local_bots
        if bots is None:
            raise LookupError("the bots of this game decide elsewhere")
        return bots

    def skip(self) -> None:
        """Space: show a bot's move without waiting out the pace."""
        pacing = self.pacing
        pacing.skip_turn = True
        if pacing.pending is not None:
            timer, apply = pacing.pending
            timer.stop()
            apply()

    def pause(self) -> None:
        """Hold the bots (a move found while paused waits), or go on."""
        pacing = self.pacing
        pacing.paused = not pacing.paused
        if pacing.paused:
            self.port.redraw()
        elif pacing.held_move is not None:
            self.show_held()
        elif pacing.busy:
            self.port.redraw()  # the search (or the pace) goes on; its move lands then
        else:
            self.go_on()

    def can_step(self) -> bool:
        """A step would act: the bots are paused and one of them decides."""
        return self.pacing.paused and not self.session.human_to_play

    def step(self) -> None:
        """One bot decision while paused (``can_step``): the move held, the search under
        way, or a new search."""
        pacing = self.pacing
        if pacing.held_move is not None:
            self.show_held()
        elif pacing.busy:
            pacing.stepping = True  # the search under way is the step
        else:
            pacing.step_once = True
            self.go_on()

    def show_held(self) -> None:
        """Play the move held while paused, as a step."""
        held = self.pacing.take_held()
        if held is not None:
            self.apply(*held)

"""The bots' pacing: who is thinking since when, a move waiting out the pace, pause and step.

A search runs away from the screen and answers later; by then the person may have undone,
paused or started a new game. Every search gets a ``token``: an answer with an older token
is ignored. ``BotTurns`` (``play/bot_turns.py``) drives this state machine; it holds
nothing about the board. The controller reads it (is a bot thinking, paused) and lends its
token to the hint, so that an undo or a new game drops a late hint too.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ..core import Move


class Cancellable(Protocol):
    def stop(self) -> None: ...


@dataclass
class BotPacing:
    """The state of the bots' turn on one screen."""

    pace: float = 0.5
    """Seconds a bot's move takes at the least, so that a person can follow it."""
    token: int = 0
    """Moves on at every bot start and stop: a late answer from an older one is ignored."""
    cancel: threading.Event = field(default_factory=threading.Event)
    thinking_since: float | None = None
    paused: bool = False
    step_once: bool = False
    """The next bot decision is to be made although paused (a step, ``.``)."""
    stepping: bool = False
    """The search running was started by a step: its move is shown though paused."""
    held_move: tuple[int, Move] | None = None
    """A bot's move that came while paused: shown on resuming (or a step)."""
    skip_turn: bool = False
    """Space was pressed: show the bots' moves without waiting out the pace."""
    pending: tuple[Cancellable, Callable[[], None]] | None = None
    """A bot's move waiting to be shown (the pace timer, and what applies it)."""

    @property
    def busy(self) -> bool:
        """A search runs, or its move waits out the pace."""
        return self.thinking_since is not None or self.pending is not None

    def begin(self, now: float) -> int:
        """A new search starts ``now`` (any older one is stopped); its token."""
        self.stop()
        self.token += 1
        self.cancel = threading.Event()
        self.thinking_since = now
        return self.token

    def stop(self) -> None:
        """Cancel any search and any bot move waiting to be shown."""
        self.cancel.set()
        self.token += 1
        self.thinking_since = None
        self.held_move = None
        if self.pending is not None:
            self.pending[0].stop()
            self.pending = None

    def delay(self, now: float) -> float:
        """How long a move found ``now`` waits before it is shown (none after Space)."""
        elapsed = now - (self.thinking_since if self.thinking_since is not None else now)
        return 0.0 if self.skip_turn else max(0.0, self.pace - elapsed)

    def take_held(self) -> tuple[int, Move] | None:
        """The move held while paused, if any, now to be shown (as a step)."""
        held, self.held_move = self.held_move, None
        if held is not None:
            self.stepping = True
        return held

    def should_hold(self) -> bool:
        """A move found now waits for the person: paused, and not a step."""
        return self.paused and not self.stepping

"""The tutorial's game: a ``Session`` on a chapter's position whose player must make each
step's move, against a Tutor that plays the chapter's script."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from solstis_tui.ai.base import Chooser
from solstis_tui.ai.clock import Budget

from ..core import Game, IllegalMove, Move, Observation
from ..local.seats import PERSON, Seat
from ..local.session import Session, Setup
from .chapters import CHAPTERS, Chapter, Step

TUTOR = "Tutor"


class ScriptedBot:
    """The Tutor: its n-th decision is the chapter's n-th scripted move. A script that has
    run out or does not fit the position raises (the tests play every chapter through)."""

    name = TUTOR

    def __init__(self, moves: tuple[str, ...]) -> None:
        self.moves = [Move.parse(text) for text in moves]

    def choose(self, obs: Observation, budget: Budget | None = None,
               cancel: threading.Event | None = None) -> Move:
        made = sum(1 for player, _, auto in obs.history if player == obs.player and not auto)
        if made < len(self.moves) and self.moves[made] in obs.legal_moves:
            return self.moves[made]
        raise RuntimeError(f"the Tutor's script has no move {made + 1} for this position")


@dataclass
class TutorialSession(Session):
    """A chapter in progress: ``step`` is the index of the step on screen."""

    chapter: Chapter = field(default=CHAPTERS["base"])
    step: int = 0
    keeps_record = False  # a tutorial's game is not a game to keep
    autosaves = False  # nor the player's saved game: that stays as it was

    @classmethod
    def start(cls, chapter: Chapter, moves: list[Move] | None = None,
              step: int = 0) -> TutorialSession:
        """The chapter from its start, or replayed to ``moves`` at ``step`` (IllegalMove
        if they do not replay)."""
        setup = Setup(variant=chapter.variant, seed=0, seats=(PERSON, Seat("tutor")),
                      names=("", TUTOR))
        session = cls(setup, chapter=chapter)
        if moves:
            session.game = session.replay(moves)
        session.step = max(0, min(step, len(chapter.steps) - 1))
        return session

    @property
    def current(self) -> Step:
        return self.chapter.steps[self.step]

    @property
    def last_step(self) -> bool:
        return self.step == len(self.chapter.steps) - 1

    def new_game(self) -> Game:
        """The chapter's hand-made position (undo and resume replay from it)."""
        return self.chapter.new_game()

    def bot(self, player: int) -> Chooser:
        if player not in self.bots:
            self.bots[player] = ScriptedBot(self.chapter.tutor)
        return self.bots[player]

    def apply(self, move: Move) -> None:
        """The Tutor's moves as they come; the player's only if the step asks for it (an
        IllegalMove saying why otherwise, and nothing changes)."""
        if not self.human_to_play:
            super().apply(move)
            return
        step = self.current
        if move not in self.game.legal_moves():
            self.game.play(move)  # raises IllegalMove with the engine's reason
            raise IllegalMove(f"{move} is not a legal move now")
        if step.move is None:
            raise IllegalMove("read the lesson first, then press Enter to go on")
        if move != Move.parse(step.move):
            raise IllegalMove(step.why or f"this step asks for {step.move}")
        super().apply(move)
        self.step += 1

    def on_track(self) -> bool:
        """Whether the player's moves so far are exactly those of the steps before this one
        (a resumed place must be)."""
        mine = [mv for p, mv, auto in self.game.history if p == 0 and not auto]
        asked = [Move.parse(s.move) for s in self.chapter.steps[:self.step] if s.move]
        return mine == asked

    def acknowledge(self) -> bool:
        """Enter on a step that is read: go on (False if the step waits for a move)."""
        if self.current.move is not None or self.last_step:
            return False
        self.step += 1
        return True

    @property
    def assists(self) -> bool:
        """No undo and no hints: each step says what to do and waits for it."""
        return False

    @property
    def takeback(self) -> None:
        """No undo and no taking back: each step waits for its own move."""
        return None

    def progress(self) -> dict[str, Any]:
        """What ``progress.save`` keeps to resume this chapter."""
        return {"chapter": self.chapter.name, "step": self.step,
                "moves": [str(mv) for mv in self.moves()]}

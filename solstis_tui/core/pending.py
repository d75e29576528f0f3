"""What is still to happen this turn, in the rules' terms: the public ``Pending`` facts.

A turn can queue several things behind the decision a player is asked now: tiles on
their way into a panorama, a spirit's effect, the Evil Spirit moving on, the display's
refill... The engine keeps them as a stack of internal steps; an ``Observation`` carries
them as ``Pending``: a list of named ``Step``s, in the order they will happen, with the
cells filled this turn and the squares still waiting for a spirit or a firefly. That is
what a client receives and what a search rebuilds a full game from (``determinize``):
all of it public, none of it the engine's numbering.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .board import bits
from .errors import InvalidPosition
from .spirits import Spirit
from .state import Task
from .steps import (
    BY_EFFECT,
    BY_SQUIRREL,
    BY_TURN,
    COVER,
    EFFECT,
    ENCOUNTER,
    END_TURN,
    EVIL,
    FINISH,
    PLACE_FIREFLIES,
    PUT,
    REFILL,
    SQUIRREL,
)

#: The steps by name; each is one of the turn's rules (rules.md sections in brackets).
ENTER: Final = "tile_enters"
"""A land tile (``tile``) goes into ``player``'s panorama, played or captured this turn
(``by`` 'turn'), put there by a spirit (``'effect'``) or by the Squirrel (``'squirrel'``)."""
MEET_SPIRITS: Final = "encounter"
"""The squares formed this turn meet their spirits (§8)."""
SPIRIT_EFFECT: Final = "spirit_effect"
"""``spirit``'s effect for ``player`` (§9)."""
EVIL_SPIRIT: Final = "evil_spirit"
"""The Evil Spirit goes on from ``player``: just drawn (``drawn``) it is placed, else it
moves to the opponent (§9)."""
FIREFLIES: Final = "fireflies"
"""Firefly: ``player``'s other squares formed this turn get their fireflies (§10)."""
REFILL_DISPLAY: Final = "refill_display"
"""The display is refilled (§5)."""
END_OF_TURN: Final = "end_turn"
"""The turn passes (hands are refilled; the end phase may begin)."""
EVIL_COVERS: Final = "evil_covers"
"""At the end of a Firefly game the Evil Spirit covers a spirit (§10)."""
SQUIRREL_PLACES: Final = "squirrel"
"""At the end, ``player``'s Squirrel puts their hand into the panorama (§9)."""
FINAL_SCORE: Final = "final_score"
"""The game is scored."""

_STEP_OF_OP: Final[dict[int, str]] = {
    PUT: ENTER, ENCOUNTER: MEET_SPIRITS, EFFECT: SPIRIT_EFFECT, EVIL: EVIL_SPIRIT,
    REFILL: REFILL_DISPLAY, END_TURN: END_OF_TURN, COVER: EVIL_COVERS,
    SQUIRREL: SQUIRREL_PLACES, FINISH: FINAL_SCORE, PLACE_FIREFLIES: FIREFLIES,
}
_OP_OF_STEP: Final[dict[str, int]] = {name: op for op, name in _STEP_OF_OP.items()}
#: Every step's name.
STEP_NAMES: Final[frozenset[str]] = frozenset(_OP_OF_STEP)
_BY_OF_MODE: Final[dict[int, str]] = {BY_TURN: "turn", BY_EFFECT: "effect",
                                      BY_SQUIRREL: "squirrel"}
_MODE_OF_BY: Final[dict[str, int]] = {name: mode for mode, name in _BY_OF_MODE.items()}
_WITH_PLAYER: Final = frozenset({SPIRIT_EFFECT, EVIL_SPIRIT, FIREFLIES, SQUIRREL_PLACES})


@dataclass(frozen=True)
class Step:
    """One thing still to happen this turn (``what``: a name above). Fields a step does
    not use are None (``drawn`` False)."""

    what: str
    player: int | None = None
    tile: int | None = None
    spirit: Spirit | None = None
    by: str | None = None
    drawn: bool = False

    def __reduce__(self) -> tuple[type[Step], tuple[Any, ...]]:
        return Step, (self.what, self.player, self.tile, self.spirit, self.by, self.drawn)


@dataclass(frozen=True)
class Pending:
    """The turn's public course after the pending decision."""

    steps: tuple[Step, ...] = ()
    """What will happen, first first."""
    filled: tuple[int, ...] = ()
    """Cells of the player to move that were filled this turn (a square formed among them
    meets a spirit)."""
    waiting: tuple[int, ...] = ()
    """Squares (lower-left cells) formed this turn still waiting for a spirit or, in the
    Firefly variant, a firefly."""
    evil_drawn: bool = False
    """The Evil Spirit was among the spirits just drawn and is yet to be placed."""

    def __reduce__(self) -> tuple[type[Pending], tuple[Any, ...]]:
        return Pending, (self.steps, self.filled, self.waiting, self.evil_drawn)


def step_of(task: Task) -> Step:
    """The engine's internal step ``task`` in the rules' terms."""
    op = task[0]
    name = _STEP_OF_OP[op]
    if op == PUT:
        return Step(ENTER, player=task[1], tile=task[2], by=_BY_OF_MODE[task[3]])
    if op == EFFECT:
        return Step(name, player=task[1], spirit=Spirit(task[2]))
    if op == EVIL:
        return Step(name, player=task[1], drawn=bool(task[2]))
    if op in (PLACE_FIREFLIES, SQUIRREL):
        return Step(name, player=task[1])
    return Step(name)


def task_of(step: Step) -> Task:
    """The engine's internal step for ``step``; InvalidPosition if it is not one."""
    what = step.what
    if what not in _OP_OF_STEP:
        raise InvalidPosition(f"unknown pending step {what!r}")
    op = _OP_OF_STEP[what]
    player = step.player
    if what in _WITH_PLAYER or what == ENTER:
        if player not in (0, 1):
            raise InvalidPosition(f"the pending step {what!r} needs a player (0 or 1)")
        assert player is not None
        if what == ENTER:
            if step.tile is None or step.by not in _MODE_OF_BY:
                raise InvalidPosition("a tile entering a panorama needs its tile and 'by'")
            return (op, player, step.tile, _MODE_OF_BY[step.by])
        if what == SPIRIT_EFFECT:
            if step.spirit is None:
                raise InvalidPosition("a spirit's effect needs its spirit")
            return (op, player, int(step.spirit))
        if what == EVIL_SPIRIT:
            return (op, player, step.drawn)
        return (op, player)
    return (op,)


def pending_of(tasks: list[Task], filled: int, waiting: int, evil_drawn: bool) -> Pending:
    """The public ``Pending`` of a turn machine's stack (``tasks``, run last first) and
    masks of the cells filled and squares waiting."""
    return Pending(tuple([step_of(t) for t in reversed(tasks)]), tuple(bits(filled)),
                   tuple(bits(waiting)), evil_drawn)


def tasks_of(pending: Pending) -> list[Task]:
    """The turn machine's stack for ``pending`` (what ``pending_of`` read it from)."""
    return [task_of(step) for step in reversed(pending.steps)]


"""What the board widgets draw at one moment: the ``BoardView`` a controller builds."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Observation, Score
from .zones import Item, Zone


@dataclass(frozen=True)
class MoveMarks:
    """Where one move shows on the board (the review's played and best moves): tiles in
    the hands and the display, cells and squares of each panorama (mine, theirs, relative
    to the view), spirits in the line or just drawn, and the spirit pile."""

    tiles: frozenset[int] = frozenset()
    cells: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    squares: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    spirits: frozenset[int] = frozenset()
    pile: bool = False
    """The spirit pile: two spirits drawn from it (the Encounter's other choice)."""


NO_MARKS = MoveMarks()


@dataclass
class BoardView:
    """Everything the board widgets show at one moment, from one player's side."""

    obs: Observation
    me: int
    names: tuple[str, str]
    scores: tuple[Score, Score]
    my_hand: tuple[int, ...]
    their_hand: tuple[int, ...] | None
    """The opponent's tiles a player may see (Renard reveal, watch mode) or None."""
    their_count: int
    zone: Zone | None = None
    """Where the pending decision is answered here (None: nothing is asked here now)."""
    items: list[Item] = field(default_factory=list)
    selected: int = -1
    cursor: int | None = None
    targets: frozenset[int] = frozenset()
    capturable: frozenset[int] = frozenset()
    square_mode: bool = False
    ascii: bool = False
    to_play: int = 0
    deciding_is_human: bool = True
    last_cells: frozenset[int] = frozenset()
    marks: frozenset[int] = frozenset()
    """Tiles a lesson points at in the hand and the display."""
    mark_cells: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    """Cells a lesson points at in my panorama and in the opponent's."""
    played: MoveMarks = NO_MARKS
    """The review: where the move played shows."""
    best: MoveMarks = NO_MARKS
    """The review: where the judge's best move shows."""

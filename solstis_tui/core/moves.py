"""Moves, their notation, and the kinds of decision a game can be waiting for.

Notation (one move per decision; case does not matter when parsing):

=================  ==========================================================
``play 3-5``       play the hand tile 3-5 (decision: play)
``pass``           pass an end-phase turn in which no tile may be played
``capture 4-5``    capture the display tile 4-5 (decision: capture)
``rainbow 2-4``    put a new rainbow on cell 2-4 (second chance, Fish)
``shift 2-6``      move the displaced free rainbow to cell 2-6
``draw``           draw two spirits from the spirit pile
``take bee``       take the Bee from the spirit line
``keep bee``       keep the drawn Bee (the other one goes to the line)
``square 2-3``     put the spirit on the square whose lower-left cell is 2-3
``deer 3-5``       Deer: put hand tile 3-5 into your panorama
``beetle 4-5``     Beetle: put display tile 4-5 into your panorama
``viper 1-2``      Viper: take the opponent's isolated tile 1-2
``renard 3-5``     Renard: the opponent must play 3-5 on their next turn
``evil 4-4``       Firefly: put the Evil Spirit on the opponent's cell 4-4
``cover bee``      base game end: the Evil Spirit covers the holder's Bee
=================  ==========================================================
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Final, NamedTuple

from .board import GRID, NAMES, parse_cell
from .spirits import Spirit, parse_spirit


class MoveKind(IntEnum):
    """What a move does; its ``name.lower()`` is the notation's first word."""

    PLAY = 0
    PASS = 1
    CAPTURE = 2
    RAINBOW = 3
    SHIFT = 4
    DRAW = 5
    TAKE = 6
    KEEP = 7
    SQUARE = 8
    DEER = 9
    BEETLE = 10
    VIPER = 11
    RENARD = 12
    EVIL = 13
    COVER = 14


_SPIRIT_ARG: Final = frozenset({MoveKind.TAKE, MoveKind.KEEP, MoveKind.COVER})
_NO_ARG: Final = frozenset({MoveKind.PASS, MoveKind.DRAW})

# The kinds as plain ints, for the engine's and the bots' hot paths: compiled code
# compares ints at once, but an enum member only through a lookup.
PLAY_KIND: Final[int] = MoveKind.PLAY
PASS_KIND: Final[int] = MoveKind.PASS
CAPTURE_KIND: Final[int] = MoveKind.CAPTURE
RAINBOW_KIND: Final[int] = MoveKind.RAINBOW
SHIFT_KIND: Final[int] = MoveKind.SHIFT
DRAW_KIND: Final[int] = MoveKind.DRAW
TAKE_KIND: Final[int] = MoveKind.TAKE
KEEP_KIND: Final[int] = MoveKind.KEEP
SQUARE_KIND: Final[int] = MoveKind.SQUARE
DEER_KIND: Final[int] = MoveKind.DEER
BEETLE_KIND: Final[int] = MoveKind.BEETLE
VIPER_KIND: Final[int] = MoveKind.VIPER
RENARD_KIND: Final[int] = MoveKind.RENARD
EVIL_KIND: Final[int] = MoveKind.EVIL
COVER_KIND: Final[int] = MoveKind.COVER


class Move(NamedTuple):
    """One decision: a kind and its argument (a cell/tile index, a spirit id, or -1)."""

    kind: MoveKind
    arg: int = -1

    def __str__(self) -> str:
        word = self.kind.name.lower()
        if self.kind in _NO_ARG:
            return word
        if self.kind in _SPIRIT_ARG:
            return f"{word} {Spirit(self.arg).name.lower()}"
        return f"{word} {NAMES[self.arg]}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move written ``text`` in the notation above; ValueError if it is not one."""
        words = text.strip().lower().split(None, 1)
        if not words:
            raise ValueError("an empty move: write e.g. 'play 3-5' or 'draw'")
        try:
            kind = MoveKind[words[0].upper()]
        except KeyError:
            known = ", ".join(k.name.lower() for k in MoveKind)
            raise ValueError(f"unknown move {words[0]!r}: moves are {known}") from None
        rest = words[1] if len(words) > 1 else ""
        if kind in _NO_ARG:
            if rest:
                raise ValueError(f"'{kind.name.lower()}' takes nothing after it")
            return move(kind)
        if not rest:
            raise ValueError(f"'{kind.name.lower()}' needs a {_arg_word(kind)} after it")
        if kind in _SPIRIT_ARG:
            return move(kind, parse_spirit(rest))
        return move(kind, parse_cell(rest))


def _arg_word(kind: MoveKind) -> str:
    return "spirit" if kind in _SPIRIT_ARG else "tile or cell (row-column)"


#: Every move, interned: ``MOVES[kind][arg]`` (``[0]`` for the kinds without an argument).
MOVES: Final[list[list[Move]]] = [
    [Move(k, a) for a in range(GRID)] if k not in _NO_ARG else [Move(k)] for k in MoveKind
]


def move(kind: int, arg: int = -1) -> Move:
    """The shared Move object for ``kind`` and ``arg`` (moves are interned for speed)."""
    return MOVES[kind][0 if arg < 0 else arg]


class Decision(Enum):
    """The kind of decision a game is waiting for (the value is its name in saves and on
    the wire; the screens' words for each are in ``solstis_tui.words.moves``)."""

    PLAY = "play"
    """Play a tile from the hand."""
    CAPTURE = "capture"
    """Choose the display tile the played tile captures (``context[0]`` is that tile)."""
    PLACE_RAINBOW = "place_rainbow"
    """Place the rainbow a second chance gained."""
    MOVE_RAINBOW = "move_rainbow"
    """Move a free rainbow that a land tile displaced."""
    ENCOUNTER = "encounter"
    """A square formed: draw two spirits, or take one from the spirit line."""
    KEEP = "keep"
    """Keep one of the two drawn spirits (the other goes to the line)."""
    SQUARE = "square"
    """Choose which square formed this turn the spirit sits on."""
    DEER = "deer"
    """The Deer: a hand tile goes into the panorama."""
    BEETLE = "beetle"
    """The Beetle: a display tile goes into the panorama."""
    VIPER = "viper"
    """The Viper: take an isolated land tile of the opponent's."""
    RENARD = "renard"
    """The Renard: choose the tile the opponent must play next turn."""
    EVIL = "evil"
    """Choose the opponent's cell the Evil Spirit forbids."""
    COVER = "cover"
    """Choose which of the holder's spirits the Evil Spirit covers (Firefly)."""


# The decisions as module constants, for the hot paths: compiled code reads these at once,
# a member of the class only through a lookup.
PLAY_DECISION: Final = Decision.PLAY
CAPTURE_DECISION: Final = Decision.CAPTURE
PLACE_RAINBOW_DECISION: Final = Decision.PLACE_RAINBOW
MOVE_RAINBOW_DECISION: Final = Decision.MOVE_RAINBOW
ENCOUNTER_DECISION: Final = Decision.ENCOUNTER
KEEP_DECISION: Final = Decision.KEEP
SQUARE_DECISION: Final = Decision.SQUARE
DEER_DECISION: Final = Decision.DEER
BEETLE_DECISION: Final = Decision.BEETLE
VIPER_DECISION: Final = Decision.VIPER
RENARD_DECISION: Final = Decision.RENARD
EVIL_DECISION: Final = Decision.EVIL
COVER_DECISION: Final = Decision.COVER


def cell_moves(kind: int, mask: int) -> list[Move]:
    """One move of ``kind`` per cell or tile in ``mask``."""
    ms = MOVES[kind]
    out = []
    while mask:  # board.bits, without the list in between (the search's hot path)
        low = mask & -mask
        out.append(ms[low.bit_length() - 1])
        mask ^= low
    return out


def listed_moves(kind: int, args: list[int]) -> list[Move]:
    """One move of ``kind`` per tile or spirit in ``args``, in that order."""
    ms = MOVES[kind]
    return [ms[a] for a in args]

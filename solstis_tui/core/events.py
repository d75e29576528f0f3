"""The game log: what happened, as typed events appended to ``Game.log``.

Each event is a small immutable object; ``kind`` is its short name (the first word of its
JSON form, ``[kind, field, ...]``, in saves and on the wire) and ``__match_args__`` names
its fields in order. Events compare, hash, print and pickle as frozen dataclasses do, but
are plain classes: the compiled engine builds a dataclass only slowly (its ``__init__`` is
generated Python), and ``Game.play`` builds several events a move. ``Observation.log`` is the
same list with private details hidden (a ``Drew`` event's tile is None for the other
player). ``player`` is 0 or 1; tiles and cells are board indices (``board.NAMES``); squares
are named by their lower-left cell; spirits are ``Spirit`` values.

How a game ended is an ``EndReason``, as python-chess has ``Termination``: the rules end a
game (``NORMAL``, ``FIREFLIES``), or the people do (``RESIGNED``, ``TIME``, ``ABANDONED``;
see ``Game.end``).
"""

from __future__ import annotations

from enum import Enum
from typing import ClassVar, Final, final

from .mypyc_hints import mypyc_attr
from .spirits import Spirit


class EndReason(Enum):
    """Why a game is over (the value is its name in saves, records and on the wire)."""

    NORMAL = "normal"
    """The land pile ran out and the last turns were played: the scores decide."""
    FIREFLIES = "fireflies"
    """Firefly: a player placed a 4th firefly and wins at once."""
    RESIGNED = "resigned"
    """The loser gave up the game."""
    TIME = "time"
    """The loser ran out of time and the other player claimed the game."""
    ABANDONED = "abandoned"
    """Nobody really played it: it ends with no winner and counts for nobody."""

    @property
    def by_rules(self) -> bool:
        """True when the rules ended the game (its last move), not a person."""
        return self in (EndReason.NORMAL, EndReason.FIREFLIES)


@mypyc_attr(acyclic=True)
class Event:
    """One entry of the game log (the subclasses below are every kind there is). Its fields
    are ``Final``: mypy refuses an assignment, and the compiled build refuses it at run time
    (the pure build does not check). An event holds only numbers, strings, tuples of them
    and enum members, so it is never part of a reference cycle: the compiled build keeps
    events out of the cycle collector's work (``acyclic``)."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    """The event's fields, in order (its JSON form's order, and its constructor's)."""
    kind: ClassVar[str] = ""
    """The event's short name: the first word of its JSON form."""

    def hidden(self) -> Event:
        """This event as someone who may not see its private part reads it."""
        return self

    def _values(self) -> tuple[object, ...]:
        """The event's field values, in ``__match_args__`` order."""
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.kind, self._values()))

    def __repr__(self) -> str:
        pairs = ", ".join([f"{name}={getattr(self, name)!r}" for name in self.__match_args__])
        return f"{type(self).__name__}({pairs})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Pickled as its class and fields (worker processes are sent observations).
        return type(self), self._values()


@final
@mypyc_attr(acyclic=True)
class TurnBegan(Event):
    """``player``'s turn ``number`` begins (``end_phase``: the land pile is empty)."""

    __match_args__ = ("player", "number", "end_phase")
    __slots__ = __match_args__
    kind = "turn"

    def __init__(self, player: int, number: int, end_phase: bool) -> None:
        self.player: Final = player
        self.number: Final = number
        self.end_phase: Final = end_phase


@final
@mypyc_attr(acyclic=True)
class Played(Event):
    """``player`` played ``tile`` from hand."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "play"

    def __init__(self, player: int, tile: int) -> None:
        self.player: Final = player
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class Passed(Event):
    """``player`` passed (end phase, nothing to capture)."""

    __match_args__ = ("player",)
    __slots__ = __match_args__
    kind = "pass"

    def __init__(self, player: int) -> None:
        self.player: Final = player


@final
@mypyc_attr(acyclic=True)
class Captured(Event):
    """``player``'s ``tile`` captured the display tile ``target``."""

    __match_args__ = ("player", "tile", "target")
    __slots__ = __match_args__
    kind = "capture"

    def __init__(self, player: int, tile: int, target: int) -> None:
        self.player: Final = player
        self.tile: Final = tile
        self.target: Final = target


@final
@mypyc_attr(acyclic=True)
class Discarded(Event):
    """``tile`` captured nothing and joined the display as a new pile."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "discard"

    def __init__(self, player: int, tile: int) -> None:
        self.player: Final = player
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class SecondChance(Event):
    """Second chance: ``player`` drew ``tile`` from the land pile and plays it."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "second"

    def __init__(self, player: int, tile: int) -> None:
        self.player: Final = player
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class Flipped(Event):
    """A face-down display tile was turned face up."""

    __match_args__ = ("tile",)
    __slots__ = __match_args__
    kind = "flip"

    def __init__(self, tile: int) -> None:
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class Placed(Event):
    """A land tile went into ``player``'s panorama."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "place"

    def __init__(self, player: int, tile: int) -> None:
        self.player: Final = player
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class RainbowPlaced(Event):
    """``player`` placed a new rainbow on ``cell``."""

    __match_args__ = ("player", "cell")
    __slots__ = __match_args__
    kind = "rainbow"

    def __init__(self, player: int, cell: int) -> None:
        self.player: Final = player
        self.cell: Final = cell


@final
@mypyc_attr(acyclic=True)
class RainbowLost(Event):
    """A rainbow ``player`` would get was lost (none left, or no cell for it)."""

    __match_args__ = ("player",)
    __slots__ = __match_args__
    kind = "no_rainbow"

    def __init__(self, player: int) -> None:
        self.player: Final = player


@final
@mypyc_attr(acyclic=True)
class RainbowShifted(Event):
    """``player``'s free rainbow moved from ``tile``'s cell to ``cell``."""

    __match_args__ = ("player", "tile", "cell")
    __slots__ = __match_args__
    kind = "shift"

    def __init__(self, player: int, tile: int, cell: int) -> None:
        self.player: Final = player
        self.tile: Final = tile
        self.cell: Final = cell


@final
@mypyc_attr(acyclic=True)
class RainbowOut(Event):
    """The rainbow displaced from ``tile``'s cell had nowhere to go: back to the box."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "rainbow_out"

    def __init__(self, player: int, tile: int) -> None:
        self.player: Final = player
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class Removed(Event):
    """A land tile left the game (``why``: "blocked" by a rainbow, "forbidden" by the
    Evil Spirit)."""

    __match_args__ = ("player", "tile", "why")
    __slots__ = __match_args__
    kind = "removed"

    def __init__(self, player: int, tile: int, why: str) -> None:
        self.player: Final = player
        self.tile: Final = tile
        self.why: Final = why


@final
@mypyc_attr(acyclic=True)
class Drew(Event):
    """``player`` drew a land tile into hand (``tile`` is None for anyone else)."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "draw"

    def __init__(self, player: int, tile: int | None) -> None:
        self.player: Final = player
        self.tile: Final = tile

    def hidden(self) -> Drew:
        return Drew(self.player, None)


@final
@mypyc_attr(acyclic=True)
class SpiritsDrawn(Event):
    """``player`` drew these (one or two) spirits from the pile."""

    __match_args__ = ("player", "spirits")
    __slots__ = __match_args__
    kind = "spirits_drawn"

    def __init__(self, player: int, spirits: tuple[Spirit, ...]) -> None:
        self.player: Final = player
        self.spirits: Final = spirits


@final
@mypyc_attr(acyclic=True)
class Kept(Event):
    """``player`` kept ``spirit`` of the two drawn."""

    __match_args__ = ("player", "spirit")
    __slots__ = __match_args__
    kind = "keep"

    def __init__(self, player: int, spirit: Spirit) -> None:
        self.player: Final = player
        self.spirit: Final = spirit


@final
@mypyc_attr(acyclic=True)
class ToLine(Event):
    """The other drawn spirit went to the spirit line."""

    __match_args__ = ("spirit",)
    __slots__ = __match_args__
    kind = "to_line"

    def __init__(self, spirit: Spirit) -> None:
        self.spirit: Final = spirit


@final
@mypyc_attr(acyclic=True)
class Took(Event):
    """``player`` took ``spirit`` from the spirit line."""

    __match_args__ = ("player", "spirit")
    __slots__ = __match_args__
    kind = "take"

    def __init__(self, player: int, spirit: Spirit) -> None:
        self.player: Final = player
        self.spirit: Final = spirit


@final
@mypyc_attr(acyclic=True)
class SpiritPlaced(Event):
    """``spirit`` sits on ``player``'s ``square``."""

    __match_args__ = ("player", "spirit", "square")
    __slots__ = __match_args__
    kind = "spirit"

    def __init__(self, player: int, spirit: Spirit, square: int) -> None:
        self.player: Final = player
        self.spirit: Final = spirit
        self.square: Final = square


@final
@mypyc_attr(acyclic=True)
class NoSpirit(Event):
    """A square formed in ``player``'s panorama, but no spirit was left anywhere."""

    __match_args__ = ("player",)
    __slots__ = __match_args__
    kind = "no_spirit"

    def __init__(self, player: int) -> None:
        self.player: Final = player


@final
@mypyc_attr(acyclic=True)
class FireflyPlaced(Event):
    """Firefly: a firefly went on ``player``'s ``square``."""

    __match_args__ = ("player", "square")
    __slots__ = __match_args__
    kind = "firefly"

    def __init__(self, player: int, square: int) -> None:
        self.player: Final = player
        self.square: Final = square


@final
@mypyc_attr(acyclic=True)
class EffectLost(Event):
    """``spirit``'s effect could not happen."""

    __match_args__ = ("player", "spirit")
    __slots__ = __match_args__
    kind = "lost"

    def __init__(self, player: int, spirit: Spirit) -> None:
        self.player: Final = player
        self.spirit: Final = spirit


@final
@mypyc_attr(acyclic=True)
class EagleDrew(Event):
    """Eagle: ``tile`` came from the land pile into ``player``'s panorama."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "eagle"

    def __init__(self, player: int, tile: int) -> None:
        self.player: Final = player
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class FlyTook(Event):
    """Fly: ``player`` took ``tile`` from the opponent's hand."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "fly"

    def __init__(self, player: int, tile: int) -> None:
        self.player: Final = player
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class DeerPlaced(Event):
    """Deer: ``player`` put hand tile ``tile`` into the panorama."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "deer"

    def __init__(self, player: int, tile: int) -> None:
        self.player: Final = player
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class BeetleTook(Event):
    """Beetle: ``player`` took the display tile ``tile``."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "beetle"

    def __init__(self, player: int, tile: int) -> None:
        self.player: Final = player
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class ViperTook(Event):
    """Viper: ``player`` took the opponent's isolated tile ``tile``."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "viper"

    def __init__(self, player: int, tile: int) -> None:
        self.player: Final = player
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class Revealed(Event):
    """Renard: ``player`` saw the opponent's hand, ``tiles`` (None for a watcher)."""

    __match_args__ = ("player", "tiles")
    __slots__ = __match_args__
    kind = "reveal"

    def __init__(self, player: int, tiles: tuple[int, ...] | None) -> None:
        self.player: Final = player
        self.tiles: Final = tiles

    def hidden(self) -> Revealed:
        return Revealed(self.player, None)


@final
@mypyc_attr(acyclic=True)
class RenardChose(Event):
    """Renard: the opponent of ``player`` must play ``tile`` on their next turn."""

    __match_args__ = ("player", "tile")
    __slots__ = __match_args__
    kind = "renard"

    def __init__(self, player: int, tile: int) -> None:
        self.player: Final = player
        self.tile: Final = tile


@final
@mypyc_attr(acyclic=True)
class MarmotTurn(Event):
    """Marmot: ``player`` plays another turn."""

    __match_args__ = ("player",)
    __slots__ = __match_args__
    kind = "marmot"

    def __init__(self, player: int) -> None:
        self.player: Final = player


@final
@mypyc_attr(acyclic=True)
class EvilKept(Event):
    """Base game: ``player`` drew the Evil Spirit and holds it."""

    __match_args__ = ("player",)
    __slots__ = __match_args__
    kind = "evil_kept"

    def __init__(self, player: int) -> None:
        self.player: Final = player


@final
@mypyc_attr(acyclic=True)
class EvilGiven(Event):
    """Base game: ``player`` passed the Evil Spirit to the opponent."""

    __match_args__ = ("player",)
    __slots__ = __match_args__
    kind = "evil_given"

    def __init__(self, player: int) -> None:
        self.player: Final = player


@final
@mypyc_attr(acyclic=True)
class EvilPlaced(Event):
    """Firefly: ``player`` put the Evil Spirit on the opponent's ``cell``."""

    __match_args__ = ("player", "cell")
    __slots__ = __match_args__
    kind = "evil_placed"

    def __init__(self, player: int, cell: int) -> None:
        self.player: Final = player
        self.cell: Final = cell


@final
@mypyc_attr(acyclic=True)
class EvilOut(Event):
    """Firefly: there was no cell for the Evil Spirit; it left play."""

    __match_args__ = ("player",)
    __slots__ = __match_args__
    kind = "evil_out"

    def __init__(self, player: int) -> None:
        self.player: Final = player


@final
@mypyc_attr(acyclic=True)
class Covered(Event):
    """The Evil Spirit covers ``holder``'s ``spirit``, chosen by ``chooser``."""

    __match_args__ = ("chooser", "holder", "spirit")
    __slots__ = __match_args__
    kind = "cover"

    def __init__(self, chooser: int, holder: int, spirit: Spirit) -> None:
        self.chooser: Final = chooser
        self.holder: Final = holder
        self.spirit: Final = spirit


@final
@mypyc_attr(acyclic=True)
class SquirrelPlaced(Event):
    """Squirrel: ``player``'s hand tiles went into the panorama."""

    __match_args__ = ("player", "tiles")
    __slots__ = __match_args__
    kind = "squirrel"

    def __init__(self, player: int, tiles: tuple[int, ...]) -> None:
        self.player: Final = player
        self.tiles: Final = tiles


@final
@mypyc_attr(acyclic=True)
class GameEnded(Event):
    """The game is over, for ``reason``; ``winner`` is a player, or None for a shared win
    (or an abandoned game)."""

    __match_args__ = ("reason", "winner")
    __slots__ = __match_args__
    kind = "end"

    def __init__(self, reason: EndReason, winner: int | None) -> None:
        self.reason: Final = reason
        self.winner: Final = winner


#: Every kind of event, by its short name (how JSON names it).
EVENT_TYPES: dict[str, type[Event]] = {cls.kind: cls for cls in (
    TurnBegan, Played, Passed, Captured, Discarded, SecondChance, Flipped, Placed,
    RainbowPlaced, RainbowLost, RainbowShifted, RainbowOut, Removed, Drew, SpiritsDrawn, Kept,
    ToLine, Took, SpiritPlaced, NoSpirit, FireflyPlaced, EffectLost, EagleDrew, FlyTook,
    DeerPlaced, BeetleTook, ViperTook, Revealed, RenardChose, MarmotTurn, EvilKept, EvilGiven,
    EvilPlaced, EvilOut, Covered, SquirrelPlaced, GameEnded)}
EVENT_KINDS = frozenset(EVENT_TYPES)

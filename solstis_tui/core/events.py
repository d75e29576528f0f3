"""The game log: what happened, as typed events appended to ``Game.log``.

Each event is a small frozen dataclass; ``kind`` is its short name (the first word of its
JSON form, ``[kind, field, ...]``, in saves and on the wire). ``Observation.log`` is the
same list with private details hidden (a ``Drew`` event's tile is None for the other
player). ``player`` is 0 or 1; tiles and cells are board indices (``board.NAMES``); squares
are named by their lower-left cell; spirits are ``Spirit`` values.

How a game ended is an ``EndReason``, as python-chess has ``Termination``: the rules end a
game (``NORMAL``, ``FIREFLIES``), or the people do (``RESIGNED``, ``TIME``, ``ABANDONED``;
see ``Game.end``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum

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


@dataclass(frozen=True)
class Event:
    """One entry of the game log (the subclasses below are every kind there is)."""

    @property
    def kind(self) -> str:
        """The event's short name: the first word of its JSON form."""
        raise NotImplementedError

    def hidden(self) -> Event:
        """This event as someone who may not see its private part reads it."""
        return self

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Pickled as its class and fields (worker processes are sent observations): the
        # default way sets the fields one by one, which a frozen class refuses.
        return type(self), tuple(getattr(self, f.name) for f in fields(self))


@dataclass(frozen=True)
class TurnBegan(Event):
    """``player``'s turn ``number`` begins (``end_phase``: the land pile is empty)."""

    player: int
    number: int
    end_phase: bool

    @property
    def kind(self) -> str:
        return "turn"


@dataclass(frozen=True)
class Played(Event):
    """``player`` played ``tile`` from hand."""

    player: int
    tile: int

    @property
    def kind(self) -> str:
        return "play"


@dataclass(frozen=True)
class Passed(Event):
    """``player`` passed (end phase, nothing to capture)."""

    player: int

    @property
    def kind(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Captured(Event):
    """``player``'s ``tile`` captured the display tile ``target``."""

    player: int
    tile: int
    target: int

    @property
    def kind(self) -> str:
        return "capture"


@dataclass(frozen=True)
class Discarded(Event):
    """``tile`` captured nothing and joined the display as a new pile."""

    player: int
    tile: int

    @property
    def kind(self) -> str:
        return "discard"


@dataclass(frozen=True)
class SecondChance(Event):
    """Second chance: ``player`` drew ``tile`` from the land pile and plays it."""

    player: int
    tile: int

    @property
    def kind(self) -> str:
        return "second"


@dataclass(frozen=True)
class Flipped(Event):
    """A face-down display tile was turned face up."""

    tile: int

    @property
    def kind(self) -> str:
        return "flip"


@dataclass(frozen=True)
class Placed(Event):
    """A land tile went into ``player``'s panorama."""

    player: int
    tile: int

    @property
    def kind(self) -> str:
        return "place"


@dataclass(frozen=True)
class RainbowPlaced(Event):
    """``player`` placed a new rainbow on ``cell``."""

    player: int
    cell: int

    @property
    def kind(self) -> str:
        return "rainbow"


@dataclass(frozen=True)
class RainbowLost(Event):
    """A rainbow ``player`` would get was lost (none left, or no cell for it)."""

    player: int

    @property
    def kind(self) -> str:
        return "no_rainbow"


@dataclass(frozen=True)
class RainbowShifted(Event):
    """``player``'s free rainbow moved from ``tile``'s cell to ``cell``."""

    player: int
    tile: int
    cell: int

    @property
    def kind(self) -> str:
        return "shift"


@dataclass(frozen=True)
class RainbowOut(Event):
    """The rainbow displaced from ``tile``'s cell had nowhere to go: back to the box."""

    player: int
    tile: int

    @property
    def kind(self) -> str:
        return "rainbow_out"


@dataclass(frozen=True)
class Removed(Event):
    """A land tile left the game (``why``: "blocked" by a rainbow, "forbidden" by the
    Evil Spirit)."""

    player: int
    tile: int
    why: str

    @property
    def kind(self) -> str:
        return "removed"


@dataclass(frozen=True)
class Drew(Event):
    """``player`` drew a land tile into hand (``tile`` is None for anyone else)."""

    player: int
    tile: int | None

    @property
    def kind(self) -> str:
        return "draw"

    def hidden(self) -> Drew:
        return Drew(self.player, None)


@dataclass(frozen=True)
class SpiritsDrawn(Event):
    """``player`` drew these (one or two) spirits from the pile."""

    player: int
    spirits: tuple[Spirit, ...]

    @property
    def kind(self) -> str:
        return "spirits_drawn"


@dataclass(frozen=True)
class Kept(Event):
    """``player`` kept ``spirit`` of the two drawn."""

    player: int
    spirit: Spirit

    @property
    def kind(self) -> str:
        return "keep"


@dataclass(frozen=True)
class ToLine(Event):
    """The other drawn spirit went to the spirit line."""

    spirit: Spirit

    @property
    def kind(self) -> str:
        return "to_line"


@dataclass(frozen=True)
class Took(Event):
    """``player`` took ``spirit`` from the spirit line."""

    player: int
    spirit: Spirit

    @property
    def kind(self) -> str:
        return "take"


@dataclass(frozen=True)
class SpiritPlaced(Event):
    """``spirit`` sits on ``player``'s ``square``."""

    player: int
    spirit: Spirit
    square: int

    @property
    def kind(self) -> str:
        return "spirit"


@dataclass(frozen=True)
class NoSpirit(Event):
    """A square formed in ``player``'s panorama, but no spirit was left anywhere."""

    player: int

    @property
    def kind(self) -> str:
        return "no_spirit"


@dataclass(frozen=True)
class FireflyPlaced(Event):
    """Firefly: a firefly went on ``player``'s ``square``."""

    player: int
    square: int

    @property
    def kind(self) -> str:
        return "firefly"


@dataclass(frozen=True)
class EffectLost(Event):
    """``spirit``'s effect could not happen."""

    player: int
    spirit: Spirit

    @property
    def kind(self) -> str:
        return "lost"


@dataclass(frozen=True)
class EagleDrew(Event):
    """Eagle: ``tile`` came from the land pile into ``player``'s panorama."""

    player: int
    tile: int

    @property
    def kind(self) -> str:
        return "eagle"


@dataclass(frozen=True)
class FlyTook(Event):
    """Fly: ``player`` took ``tile`` from the opponent's hand."""

    player: int
    tile: int

    @property
    def kind(self) -> str:
        return "fly"


@dataclass(frozen=True)
class DeerPlaced(Event):
    """Deer: ``player`` put hand tile ``tile`` into the panorama."""

    player: int
    tile: int

    @property
    def kind(self) -> str:
        return "deer"


@dataclass(frozen=True)
class BeetleTook(Event):
    """Beetle: ``player`` took the display tile ``tile``."""

    player: int
    tile: int

    @property
    def kind(self) -> str:
        return "beetle"


@dataclass(frozen=True)
class ViperTook(Event):
    """Viper: ``player`` took the opponent's isolated tile ``tile``."""

    player: int
    tile: int

    @property
    def kind(self) -> str:
        return "viper"


@dataclass(frozen=True)
class Revealed(Event):
    """Renard: ``player`` saw the opponent's hand, ``tiles`` (None for a watcher)."""

    player: int
    tiles: tuple[int, ...] | None

    @property
    def kind(self) -> str:
        return "reveal"

    def hidden(self) -> Revealed:
        return Revealed(self.player, None)


@dataclass(frozen=True)
class RenardChose(Event):
    """Renard: the opponent of ``player`` must play ``tile`` on their next turn."""

    player: int
    tile: int

    @property
    def kind(self) -> str:
        return "renard"


@dataclass(frozen=True)
class MarmotTurn(Event):
    """Marmot: ``player`` plays another turn."""

    player: int

    @property
    def kind(self) -> str:
        return "marmot"


@dataclass(frozen=True)
class EvilKept(Event):
    """Base game: ``player`` drew the Evil Spirit and holds it."""

    player: int

    @property
    def kind(self) -> str:
        return "evil_kept"


@dataclass(frozen=True)
class EvilGiven(Event):
    """Base game: ``player`` passed the Evil Spirit to the opponent."""

    player: int

    @property
    def kind(self) -> str:
        return "evil_given"


@dataclass(frozen=True)
class EvilPlaced(Event):
    """Firefly: ``player`` put the Evil Spirit on the opponent's ``cell``."""

    player: int
    cell: int

    @property
    def kind(self) -> str:
        return "evil_placed"


@dataclass(frozen=True)
class EvilOut(Event):
    """Firefly: there was no cell for the Evil Spirit; it left play."""

    player: int

    @property
    def kind(self) -> str:
        return "evil_out"


@dataclass(frozen=True)
class Covered(Event):
    """The Evil Spirit covers ``holder``'s ``spirit``, chosen by ``chooser``."""

    chooser: int
    holder: int
    spirit: Spirit

    @property
    def kind(self) -> str:
        return "cover"


@dataclass(frozen=True)
class SquirrelPlaced(Event):
    """Squirrel: ``player``'s hand tiles went into the panorama."""

    player: int
    tiles: tuple[int, ...]

    @property
    def kind(self) -> str:
        return "squirrel"


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over, for ``reason``; ``winner`` is a player, or None for a shared win
    (or an abandoned game)."""

    reason: EndReason
    winner: int | None

    @property
    def kind(self) -> str:
        return "end"


#: Every kind of event, by its short name (how JSON names it).
EVENT_TYPES: dict[str, type[Event]] = {
    "turn": TurnBegan, "play": Played, "pass": Passed, "capture": Captured,
    "discard": Discarded, "second": SecondChance, "flip": Flipped, "place": Placed,
    "rainbow": RainbowPlaced, "no_rainbow": RainbowLost, "shift": RainbowShifted,
    "rainbow_out": RainbowOut, "removed": Removed, "draw": Drew,
    "spirits_drawn": SpiritsDrawn, "keep": Kept, "to_line": ToLine, "take": Took,
    "spirit": SpiritPlaced, "no_spirit": NoSpirit, "firefly": FireflyPlaced,
    "lost": EffectLost, "eagle": EagleDrew, "fly": FlyTook, "deer": DeerPlaced,
    "beetle": BeetleTook, "viper": ViperTook, "reveal": Revealed, "renard": RenardChose,
    "marmot": MarmotTurn, "evil_kept": EvilKept, "evil_given": EvilGiven,
    "evil_placed": EvilPlaced, "evil_out": EvilOut, "cover": Covered,
    "squirrel": SquirrelPlaced, "end": GameEnded,
}
EVENT_KINDS = frozenset(EVENT_TYPES)

"""The spirits (rules.md §9): ids, names, kinds and what each one does."""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Spirit(IntEnum):
    """A spirit tile; its ``name.lower()`` is its notation."""

    FISH = 0
    DEER = 1
    EAGLE = 2
    BEAR = 3
    FLY = 4
    BEETLE = 5
    MARMOT = 6
    BEE = 7
    LADYBUG = 8
    WOLF = 9
    SQUIRREL = 10
    BIRD = 11
    FROG = 12
    BUTTERFLY = 13
    EVIL = 14
    COW = 15
    PHOENIX = 16
    VIPER = 17
    RENARD = 18

    @property
    def title(self) -> str:
        """The name a player reads: 'Evil Spirit', 'Bee', ..."""
        return "Evil Spirit" if self is Spirit.EVIL else self.name.capitalize()

    @property
    def is_plain(self) -> bool:
        """Plain spirits act when placed; blue ones score at the end."""
        return self in PLAIN

    @property
    def effect(self) -> str:
        """One line on what the spirit does."""
        return EFFECTS[self]


PLAIN: Final = frozenset(
    {
        Spirit.FISH, Spirit.DEER, Spirit.EAGLE, Spirit.BEAR, Spirit.FLY, Spirit.BEETLE,
        Spirit.MARMOT, Spirit.VIPER, Spirit.RENARD,
    }
)
BLUE: Final = frozenset(
    {
        Spirit.BEE, Spirit.LADYBUG, Spirit.WOLF, Spirit.SQUIRREL, Spirit.BIRD, Spirit.FROG,
        Spirit.BUTTERFLY, Spirit.COW, Spirit.PHOENIX,
    }
)
#: The 14 spirits of the base game besides the Evil Spirit.
BASE_SPIRITS: Final[tuple[Spirit, ...]] = tuple(Spirit(i) for i in range(14))
FIREFLY_SPIRITS: Final[tuple[Spirit, ...]] = (
    Spirit.COW, Spirit.PHOENIX, Spirit.VIPER, Spirit.RENARD)
#: Every spirit by id: ``SPIRITS[i]`` is ``Spirit(i)`` without the enum's slow lookup.
SPIRITS: Final[tuple[Spirit, ...]] = tuple(Spirit)
#: The plain and the blue spirits' ids, and every spirit's, as plain ints: compiled code
#: compares and looks these up at once, an enum member only through a lookup.
PLAIN_IDS: Final[frozenset[int]] = frozenset(int(s) for s in PLAIN)
BLUE_IDS: Final[frozenset[int]] = frozenset(int(s) for s in BLUE)
FISH_ID: Final[int] = Spirit.FISH
DEER_ID: Final[int] = Spirit.DEER
EAGLE_ID: Final[int] = Spirit.EAGLE
BEAR_ID: Final[int] = Spirit.BEAR
FLY_ID: Final[int] = Spirit.FLY
BEETLE_ID: Final[int] = Spirit.BEETLE
MARMOT_ID: Final[int] = Spirit.MARMOT
BEE_ID: Final[int] = Spirit.BEE
LADYBUG_ID: Final[int] = Spirit.LADYBUG
WOLF_ID: Final[int] = Spirit.WOLF
SQUIRREL_ID: Final[int] = Spirit.SQUIRREL
BIRD_ID: Final[int] = Spirit.BIRD
FROG_ID: Final[int] = Spirit.FROG
BUTTERFLY_ID: Final[int] = Spirit.BUTTERFLY
EVIL_ID: Final[int] = Spirit.EVIL
COW_ID: Final[int] = Spirit.COW
PHOENIX_ID: Final[int] = Spirit.PHOENIX
VIPER_ID: Final[int] = Spirit.VIPER
RENARD_ID: Final[int] = Spirit.RENARD
#: Each spirit's title by id (``TITLES[i]`` is ``Spirit(i).title``).
TITLES: Final[tuple[str, ...]] = tuple(s.title for s in Spirit)

EFFECTS: Final[dict[Spirit, str]] = {
    Spirit.FISH: "take a rainbow and place it in your panorama",
    Spirit.DEER: "put a tile from your hand into your panorama; you then draw two",
    Spirit.EAGLE: "put a random tile from the land pile into your panorama",
    Spirit.BEAR: "draw a land tile now; your hand holds 4 for the rest of the game",
    Spirit.FLY: "put a random tile from the opponent's hand into your panorama",
    Spirit.BEETLE: "put any face-up display tile into your panorama",
    Spirit.MARMOT: "play another whole turn after this one",
    Spirit.BEE: "+1 star per uncovered plain spirit you have",
    Spirit.LADYBUG: "+1 star per unlit fire on your land tiles",
    Spirit.WOLF: "+1 star per separate section of your panorama",
    Spirit.SQUIRREL: "at game end, put every tile left in your hand into your panorama",
    Spirit.BIRD: "+1 star per other uncovered blue spirit you have",
    Spirit.FROG: "+1 star per rainbow in your panorama",
    Spirit.BUTTERFLY: "+1 star per lit fire",
    Spirit.EVIL: "base game: whoever draws it keeps it and passes it on at their next "
    "encounter; at the end it covers one of its holder's spirits, chosen by the opponent. "
    "Firefly: whoever draws it puts it on the opponent's panorama, where it forbids a "
    "cell; that player moves it on at their next encounter",
    Spirit.COW: "+1 star per land tile in your second-biggest section",
    Spirit.PHOENIX: "+1 star per firefly you own",
    Spirit.VIPER: "take an isolated land tile from the opponent's panorama",
    Spirit.RENARD: "see the opponent's hand and choose the tile they must play next",
}

_ALIASES: Final = {"fox": Spirit.SQUIRREL, "evil spirit": Spirit.EVIL, "evilspirit": Spirit.EVIL}


def parse_spirit(text: str) -> Spirit:
    """A spirit from its name (any case; 'fox' means the Squirrel); ValueError otherwise."""
    key = text.strip().lower()
    if key in _ALIASES:
        return _ALIASES[key]
    try:
        return Spirit[key.upper()]
    except KeyError:
        raise ValueError(f"{text!r} is not a spirit") from None


def spirit_set(firefly: bool, beginner: bool) -> tuple[Spirit, ...]:
    """The spirits that make up the spirit pile of a variant."""
    spirits = BASE_SPIRITS + (FIREFLY_SPIRITS if firefly else ())
    return spirits if beginner else (*spirits, Spirit.EVIL)


#: ``spirit_set``'s spirits as ids, by (firefly, beginner).
_SET_IDS: Final[dict[tuple[bool, bool], tuple[int, ...]]] = {
    (firefly, beginner): tuple(int(s) for s in spirit_set(firefly, beginner))
    for firefly in (False, True) for beginner in (False, True)}


def spirit_ids(firefly: bool, beginner: bool) -> list[int]:
    """``spirit_set``'s spirits as ids, in a new list (a deal's spirit pile)."""
    return list(_SET_IDS[firefly, beginner])

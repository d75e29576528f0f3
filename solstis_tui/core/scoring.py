"""Scoring a panorama (rules.md §9, §10, §12)."""

from __future__ import annotations

from functools import lru_cache

from .board import FIRE_CELLS, ROW1, SHARED_FIRE, SQUARE_CELLS, bits, grow
from .observation import PanoramaView
from .spirits import (
    BEE_ID,
    BIRD_ID,
    BLUE_IDS,
    BUTTERFLY_ID,
    COW_ID,
    FROG_ID,
    LADYBUG_ID,
    PHOENIX_ID,
    PLAIN_IDS,
    TITLES,
    WOLF_ID,
)
from .state import HeldSpirits, State


class Score:
    """One player's stars, line by line, as the end-of-game sheet shows them. (A plain
    class rather than a dataclass: the compiled engine makes one per finished game of every
    search, and builds a dataclass only slowly.)"""

    __slots__ = ("biggest_section", "bonuses", "covered", "fireflies", "lit_fires",
                 "second_section", "sections", "spirits", "unlit_fires")

    def __init__(self, biggest_section: int, lit_fires: int, spirits: int,
                 bonuses: dict[str, int] | None = None, fireflies: int = 0,
                 sections: int = 0, second_section: int = 0, unlit_fires: int = 0,
                 covered: str | None = None) -> None:
        self.biggest_section = biggest_section
        """Stars for the biggest section: its land tiles (rainbows add size, not stars)."""
        self.lit_fires = lit_fires
        """Stars for fires on land tiles whose section touches row 1."""
        self.spirits = spirits
        """One star per uncovered spirit."""
        self.bonuses: dict[str, int] = bonuses if bonuses is not None else {}
        """Each uncovered blue spirit's bonus, by the spirit's title ('Bee': 2)."""
        self.fireflies = fireflies
        """Stars for fireflies whose square is connected to row 1 (Firefly)."""
        self.sections = sections
        self.second_section = second_section
        """Land tiles of the second-biggest section (what the Cow counts)."""
        self.unlit_fires = unlit_fires
        self.covered = covered
        """The spirit the Evil Spirit covers, if any (base game end)."""

    def _fields(self) -> tuple[int, int, int, dict[str, int], int, int, int, int, str | None]:
        return (self.biggest_section, self.lit_fires, self.spirits, self.bonuses,
                self.fireflies, self.sections, self.second_section, self.unlit_fires,
                self.covered)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Score) and self._fields() == other._fields()

    def __repr__(self) -> str:
        names = ("biggest_section", "lit_fires", "spirits", "bonuses", "fireflies",
                 "sections", "second_section", "unlit_fires", "covered")
        pairs = ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields(), strict=True))
        return f"Score({pairs})"

    @property
    def bonus_total(self) -> int:
        """Stars from the blue spirits' bonuses together."""
        total = 0
        for stars in self.bonuses.values():
            total += stars
        return total

    @property
    def total(self) -> int:
        return (self.biggest_section + self.lit_fires + self.spirits + self.bonus_total
                + self.fireflies)


def score(game: State, player: int) -> Score:
    """The breakdown ``player`` would score if the game ended now."""
    spirits, fireflies, covered = game.spirits, game.fireflies, game.covered
    if player:  # pairs read by constant index (see state.py)
        return score_panorama(game.land[1], game.rainbow_cells[1], spirits[1], fireflies[1],
                              covered[1])
    return score_panorama(game.land[0], game.rainbow_cells[0], spirits[0], fireflies[0],
                          covered[0])


def score_view(view: PanoramaView) -> Score:
    """The breakdown of a panorama as an observation shows it (everything scored is
    public)."""
    return score_panorama(
        sum(1 << t for t in view.land), sum(1 << t for t in view.rainbows), view.spirits,
        sum(1 << sq for sq in view.fireflies),
        int(view.covered) if view.covered is not None else -1)


@lru_cache(maxsize=1 << 15)
def score_panorama(land: int, rain: int, spirits: HeldSpirits, fireflies: int,
                   covered: int) -> Score:
    """The breakdown of one panorama: masks of its land and rainbow cells and of its
    firefly squares, its (spirit, square) pairs and the covered spirit (-1: none).

    Remembered for the last 32,768 panoramas (a search scores the same ones again and
    again: about half its calls): a returned ``Score`` is shared, so never change its
    ``bonuses``."""
    count = 0
    big_size = big_land = second_size = second_land = -1
    grounded = 0
    rest = land | rain
    while rest:  # the sections, keeping the two biggest (by size, then land tiles)
        group = grow(rest & -rest, rest)
        rest &= ~group
        count += 1
        if group & ROW1:
            grounded |= group
        size, on_land = group.bit_count(), (group & land).bit_count()
        if size > big_size or (size == big_size and on_land > big_land):
            second_size, second_land = big_size, big_land
            big_size, big_land = size, on_land
        elif size > second_size or (size == second_size and on_land > second_land):
            second_size, second_land = size, on_land
    biggest = big_land if count else 0
    second = second_land if count > 1 else 0
    owned = (FIRE_CELLS & land).bit_count()
    lit = (FIRE_CELLS & land & grounded).bit_count()
    if land & SHARED_FIRE == SHARED_FIRE:
        owned += 1
        lit += bool(SHARED_FIRE & grounded)
    held = plain = blue = 0
    for spirit, _ in spirits:
        s: int = spirit
        if s != covered:
            held += 1
            if s in PLAIN_IDS:
                plain += 1
            elif s in BLUE_IDS:
                blue += 1
    bonuses: dict[str, int] = {}
    for spirit, _ in spirits:
        spirit_id: int = spirit  # as an int: the compiled engine compares it at once
        if spirit_id != covered and spirit_id in BLUE_IDS:
            bonuses[TITLES[spirit_id]] = _bonus(spirit_id, plain, blue, owned - lit, count,
                                                rain, lit, second, fireflies)
    firefly_stars = 0
    for sq in bits(fireflies):
        if SQUARE_CELLS[sq] & grounded:
            firefly_stars += 1
    return Score(
        biggest_section=biggest,
        lit_fires=lit,
        spirits=held,
        bonuses=bonuses,
        fireflies=firefly_stars,
        sections=count,
        second_section=second,
        unlit_fires=owned - lit,
        covered=TITLES[covered] if covered >= 0 else None,
    )


def _bonus(spirit: int, plain: int, blue: int, unlit: int, sections: int, rain: int,
           lit: int, second: int, fireflies: int) -> int:
    """The stars a blue spirit's bonus gives (rules.md §9, §10)."""
    if spirit == BEE_ID:
        return plain
    if spirit == LADYBUG_ID:
        return unlit
    if spirit == WOLF_ID:
        return sections
    if spirit == BIRD_ID:
        return blue - 1
    if spirit == FROG_ID:
        return rain.bit_count()
    if spirit == BUTTERFLY_ID:
        return lit
    if spirit == COW_ID:
        return second
    if spirit == PHOENIX_ID:
        return fireflies.bit_count()
    return 0  # the Squirrel acts at the end instead

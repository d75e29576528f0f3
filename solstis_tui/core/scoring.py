"""Scoring a panorama (rules.md §9, §10, §12)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from .board import FIRE_CELLS, ROW1, SHARED_FIRE, SQUARE_CELLS, bits, sections
from .observation import PanoramaView
from .spirits import Spirit
from .state import HeldSpirits, State


@dataclass(frozen=True)
class Score:
    """One player's stars, line by line, as the end-of-game sheet shows them."""

    biggest_section: int
    """Stars for the biggest section: its land tiles (rainbows add size, not stars)."""
    lit_fires: int
    """Stars for fires on land tiles whose section touches row 1."""
    spirits: int
    """One star per uncovered spirit."""
    bonuses: dict[str, int] = field(default_factory=dict)
    """Each uncovered blue spirit's bonus, by the spirit's title ('Bee': 2)."""
    fireflies: int = 0
    """Stars for fireflies whose square is connected to row 1 (Firefly)."""
    sections: int = 0
    second_section: int = 0
    """Land tiles of the second-biggest section (what the Cow counts)."""
    unlit_fires: int = 0
    covered: str | None = None
    """The spirit the Evil Spirit covers, if any (base game end)."""

    @property
    def total(self) -> int:
        return self.biggest_section + self.lit_fires + self.spirits + sum(
            self.bonuses.values()) + self.fireflies


def _size_key(land: int) -> Callable[[int], tuple[int, int]]:
    return lambda group: (group.bit_count(), (group & land).bit_count())


def score(game: State, player: int) -> Score:
    """The breakdown ``player`` would score if the game ended now."""
    return score_panorama(game.land[player], game.rainbow_cells[player],
                          game.spirits[player], game.fireflies[player], game.covered[player])


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
    groups = sorted(sections(land | rain), key=_size_key(land), reverse=True)
    biggest = (groups[0] & land).bit_count() if groups else 0
    second = (groups[1] & land).bit_count() if len(groups) > 1 else 0
    grounded = 0
    for group in groups:
        if group & ROW1:
            grounded |= group
    owned = (FIRE_CELLS & land).bit_count()
    lit = (FIRE_CELLS & land & grounded).bit_count()
    if land & SHARED_FIRE == SHARED_FIRE:
        owned += 1
        lit += bool(SHARED_FIRE & grounded)
    uncovered = [s for s, _ in spirits if s != covered]
    plain = sum(s.is_plain for s in uncovered)
    blue = sum(s.is_blue for s in uncovered)
    bonus_of = {
        Spirit.BEE: plain,
        Spirit.LADYBUG: owned - lit,
        Spirit.WOLF: len(groups),
        Spirit.BIRD: blue - 1,
        Spirit.FROG: rain.bit_count(),
        Spirit.BUTTERFLY: lit,
        Spirit.COW: second,
        Spirit.PHOENIX: fireflies.bit_count(),
        Spirit.SQUIRREL: 0,
    }
    bonuses = {s.title: bonus_of[s] for s in uncovered if s in bonus_of}
    firefly_stars = sum(1 for sq in bits(fireflies) if SQUARE_CELLS[sq] & grounded)
    return Score(
        biggest_section=biggest,
        lit_fires=lit,
        spirits=len(uncovered),
        bonuses=bonuses,
        fireflies=firefly_stars,
        sections=len(groups),
        second_section=second,
        unlit_fires=owned - lit,
        covered=Spirit(covered).title if covered >= 0 else None,
    )

"""A cheap move heuristic on a full game: used by greedy, for move ordering and playouts.

Every function here looks at a *full* game (a determinization, never the real one) and
returns rough star values; they are quick bit-mask sums, not searches.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from solstis_tui.core import Game, Move, Spirit
from solstis_tui.core.board import (
    CELL_SQUARES,
    FIRE_CELLS,
    GRID,
    MATCH,
    NEIGHBOURS,
    ROW1,
    SQUARE_CELLS,
    bits,
    sections,
)
from solstis_tui.core.moves import (
    BEETLE_KIND,
    CAPTURE_KIND,
    COVER_KIND,
    DEER_KIND,
    DRAW_KIND,
    EVIL_KIND,
    KEEP_KIND,
    PLAY_DECISION,
    PLAY_KIND,
    RAINBOW_KIND,
    RENARD_KIND,
    SHIFT_KIND,
    SQUARE_KIND,
    TAKE_KIND,
    VIPER_KIND,
)
from solstis_tui.core.rng import rand_below
from solstis_tui.core.spirits import (
    BEE_ID,
    BIRD_ID,
    BLUE_IDS,
    BUTTERFLY_ID,
    COW_ID,
    FROG_ID,
    LADYBUG_ID,
    PHOENIX_ID,
    PLAIN_IDS,
    SQUIRREL_ID,
    VIPER_ID,
    WOLF_ID,
)

#: Rough worth in stars of a plain spirit's effect (the spirit's own star not included).
PLAIN_WORTH: Final[dict[int, float]] = {
    Spirit.FISH: 0.8, Spirit.DEER: 1.6, Spirit.EAGLE: 1.3, Spirit.BEAR: 1.5,
    Spirit.FLY: 1.6, Spirit.BEETLE: 1.6, Spirit.MARMOT: 2.0, Spirit.VIPER: 1.4,
    Spirit.RENARD: 1.0,
}
DRAW_WORTH: Final = 2.7
SQUARE_WORTH: Final = 2.2


def filled(g: Game, p: int) -> int:
    return g.land[p] | g.rainbow_cells[p]


#: For each cell, (square bit, square cells) of the squares containing it.
_SQUARES_OF: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((1 << sq, SQUARE_CELLS[sq]) for sq in bits(CELL_SQUARES[c])) for c in range(GRID)
)


def squares_closed(g: Game, p: int, cell: int, full: int) -> int:
    """How many empty squares of ``p`` the cell completes, given ``full`` already has it."""
    occ = g.occupied_squares[p]
    n = 0
    for sq_bit, cells in _SQUARES_OF[cell]:
        if full & cells == cells and not occ & sq_bit:
            n += 1
    return n


_GROUPS: Final[dict[int, tuple[int, ...]]] = {}


def _size(group: int) -> int:
    return group.bit_count()


def groups(have: int) -> tuple[int, ...]:
    """Sections of ``have``, biggest first (cached: playouts ask again and again)."""
    found = _GROUPS.get(have)
    if found is None:
        if len(_GROUPS) > 50_000:
            _GROUPS.clear()
        found = tuple(sorted(sections(have), key=_size, reverse=True))
        _GROUPS[have] = found
    return found


def link_value(have: int, cell: int, extra: int = 0) -> float:
    """Worth of filling ``cell`` for the shape of the panorama: joining the biggest
    section, merging sections, or starting a lone tile. ``extra`` is one more tile (as a
    bit) going in at the same time, e.g. the other half of a capture."""
    touch = NEIGHBOURS[cell]
    near = touch & have
    merged = 0
    if touch & extra:
        merged = 1
        near |= NEIGHBOURS[extra.bit_length() - 1] & have
    if not near:
        if merged:
            return 0.8
        return 0.0 if have | extra else 0.6
    parts = groups(have)
    joins_big = False
    for i, part in enumerate(parts):
        if part & near:
            merged += part.bit_count()
            joins_big = joins_big or i == 0
    grow = max(0, merged + 1 - parts[0].bit_count())
    return (0.5 + (0.6 if joins_big else 0.2) + 0.25 * grow
            + 0.1 * (touch & (have | extra)).bit_count())


def land_gain(g: Game, p: int, cell: int, extra: int = 0) -> float:
    """Rough worth of a land tile going to ``cell`` of ``p``'s panorama."""
    bit = 1 << cell
    if g.evil_player == p and g.evil_cell == cell:
        return -0.5
    have = filled(g, p)
    if g.rainbow_cells[p] & bit:
        return 0.0 if g.blocked[p] & bit else 1.2
    value = (0.4 + link_value(have, cell, extra)
             + SQUARE_WORTH * squares_closed(g, p, cell, have | extra | bit))
    if FIRE_CELLS & bit:
        value += 0.6
    if ROW1 & bit:
        value += 0.2
    return value


def deny_value(g: Game, p: int, tile: int) -> float:
    """Worth of keeping ``tile`` from ``p``'s opponent."""
    o = 1 - p
    have = g.land[o] | g.rainbow_cells[o]
    bit = 1 << tile
    if have & bit:
        return 0.5
    return 0.5 * (link_value(have, tile) + SQUARE_WORTH * squares_closed(g, o, tile, have | bit))


def rainbow_gain(g: Game, p: int, cell: int) -> float:
    """Rough worth of a rainbow placed on ``cell``."""
    have = filled(g, p)
    bit = 1 << cell
    value = 0.6 * link_value(have, cell) + SQUARE_WORTH * squares_closed(g, p, cell, have | bit)
    if FIRE_CELLS & bit:
        value -= 0.4  # the fire's land tile could still come here
    return value


def spirit_worth(g: Game, p: int, s: int) -> float:
    """Rough stars that spirit ``s`` brings to ``p`` (its own star included)."""
    if s in PLAIN_WORTH:
        worth = PLAIN_WORTH[s]
        if s == VIPER_ID and not g.isolated_land(1 - p):
            worth = 0.0
        return 1.0 + worth
    land = g.land[p]
    if s in (BEE_ID, BIRD_ID):
        kinds = PLAIN_IDS if s == BEE_ID else BLUE_IDS
        held = 0
        for x, _ in g.spirits[p]:
            if x in kinds:
                held += 1
        return 1.5 + held
    if s == LADYBUG_ID:
        return 1.2 + 0.5 * (FIRE_CELLS & land).bit_count()
    if s == BUTTERFLY_ID:
        return 1.8 + 0.6 * (FIRE_CELLS & land).bit_count()
    if s == FROG_ID:
        return 1.5 + g.rainbow_cells[p].bit_count()
    if s in (WOLF_ID, COW_ID):
        return 2.0
    if s == SQUIRREL_ID:
        return 2.2
    if s == PHOENIX_ID:
        return 1.5 + g.fireflies[p].bit_count()
    return 1.0


def capture_value(g: Game, p: int, source: int, target: int) -> float:
    """Worth of source and target both going into ``p``'s panorama."""
    return (land_gain(g, p, source) + land_gain(g, p, target, 1 << source)
            + deny_value(g, p, target))


def play_value(g: Game, p: int, tile: int) -> float:
    """Worth of playing ``tile``: its best capture, or a modest second chance."""
    targets = MATCH[tile] & g.face_up_mask
    if targets:
        best = -1e9
        for t in g.face_up:
            if targets >> t & 1:
                best = max(best, capture_value(g, p, tile, t))
        return 1.5 + best
    return 1.0 - deny_value(g, p, tile) if g.pile else -1.0


def move_value(g: Game, mv: Move) -> float:
    """Rough stars ``mv`` is worth to the player who must decide in ``g``."""
    p = g.to_play
    kind: int = mv.kind
    arg = mv.arg
    if kind == PLAY_KIND:
        return play_value(g, p, arg)
    if kind == CAPTURE_KIND:
        return capture_value(g, p, g.context[0], arg)
    if kind in (RAINBOW_KIND, SHIFT_KIND):
        return rainbow_gain(g, p, arg)
    if kind == DRAW_KIND:
        return DRAW_WORTH
    if kind in (TAKE_KIND, KEEP_KIND):
        return spirit_worth(g, p, arg)
    if kind == SQUARE_KIND:
        return -0.5 * (SQUARE_CELLS[arg] & g.rainbow_cells[p]).bit_count()
    if kind == DEER_KIND:
        return land_gain(g, p, arg)
    if kind == BEETLE_KIND:
        return land_gain(g, p, arg) + deny_value(g, p, arg)
    if kind == VIPER_KIND:
        return land_gain(g, p, arg) + 1.0
    if kind == RENARD_KIND:
        o = 1 - p
        return -(3.0 if MATCH[arg] & g.face_up_mask else 0.0) - land_gain(g, o, arg)
    if kind == EVIL_KIND:
        o = 1 - p
        return land_gain(g, o, arg)
    if kind == COVER_KIND:
        return spirit_worth(g, g.context[0], arg)
    return 0.0


def best_move(g: Game, rand: random.Random, epsilon: float = 0.0) -> Move:
    """The heuristic's favourite legal move (ties broken at random); with probability
    ``epsilon`` a uniformly random one instead."""
    legal = g.legal
    if len(legal) == 1:
        return legal[0]
    uniform: Callable[[], float] = rand.random  # looked up once, not once a move
    if epsilon and uniform() < epsilon:
        return legal[rand_below(rand, len(legal))]
    best, best_v = legal[0], -1e9
    for mv in legal:
        v = move_value(g, mv) + uniform() * 0.01
        if v > best_v:
            best, best_v = mv, v
    return best


def ordered_moves(g: Game) -> list[Move]:
    """Legal moves, the heuristic's favourites first (stable, no randomness)."""
    valued = [(-move_value(g, mv), i) for i, mv in enumerate(g.legal)]
    valued.sort()
    legal = g.legal
    return [legal[i] for _, i in valued]


def finish_turn(g: Game, rand: random.Random, limit: int = 16) -> None:
    """Let the player to move finish their own chain of decisions with the heuristic."""
    p = g.to_play
    for _ in range(limit):
        if g.is_over or g.to_play != p or g.decision is PLAY_DECISION:
            return
        g.play(best_move(g, rand))


def playout(g: Game, rand: random.Random, epsilon: float = 0.1) -> None:
    """Play ``g`` to its end with the epsilon-greedy heuristic."""
    while not g.is_over:
        g.play(best_move(g, rand, epsilon))

"""Numbers that describe one player's position, the inputs of the learned value (value.py).

``features(g, p)`` reads a game with every hand known (the bots pass a determinization,
never the real game) and returns one float per name in ``FEATURES``, in that order. They
are the live score's parts plus what is about to come: squares one or two tiles short,
hand tiles that can capture now, a Firefly player one firefly from winning, and how much
room the biggest section has left to grow (cells whose land tile can still come).
"""

from __future__ import annotations

from typing import Final

from solstis_tui.core import Game
from solstis_tui.core.board import (
    ALL,
    ALL_SQUARES,
    MATCH,
    NEIGHBOURS,
    bits,
    grow,
    spread,
    squares_at,
)
from solstis_tui.core.scoring import score
from solstis_tui.core.spirits import BLUE_IDS, PLAIN_IDS

from .policy import groups, play_value

FEATURES: Final[tuple[str, ...]] = (
    "biggest_section",      # stars for the biggest section (its land tiles)
    "lit_fires",
    "bonuses",              # the blue spirits' bonuses
    "unlit_fires",          # fires on own land not yet joined to row 1
    "sections",
    "rainbows",
    "land_tiles",           # every land tile in the panorama, in any section
    "second_section",       # land tiles of the second-biggest section
    "near_squares",         # empty squares one tile short, that tile still to be had
    "blocked_near_squares", # one tile short, but that tile is gone: only a rainbow fills it
    "half_squares",         # empty squares with two of four cells filled
    "plain_spirits",        # with blue_spirits: the spirits, a star each (none is covered
    "blue_spirits",         # before the game ends)
    "evil_spirit",          # holds the base game's Evil Spirit
    "fireflies",
    "firefly_stars",        # fireflies whose square is joined to row 1
    "three_fireflies",      # 1 with three fireflies: one more square wins (Firefly §10)
    "hand_size",            # 3, or 4 with the Bear
    "hand_tiles",
    "capturing_hand_tiles", # hand tiles that could capture from the display right now
    "best_play",            # the heuristic's worth of the best tile in hand (policy.py)
    "frontier",             # open cells next to the biggest section: its room to grow
    "bridges",              # open cells that would join the biggest section to another
    "reach",                # cells the biggest section could still grow to, through open cells
)


def room_to_grow(have: int, open_cells: int) -> tuple[int, int, int]:
    """(open cells next to the biggest section of ``have``, open cells among those that
    touch another section too, cells of ``have`` and ``open_cells`` it could still reach)."""
    parts = groups(have)
    if not parts:
        return 0, 0, 0
    big = parts[0]
    edge = spread(big) & open_cells
    rest = have & ~big
    bridges = 0
    for c in bits(edge):
        if NEIGHBOURS[c] & rest:
            bridges += 1
    return edge.bit_count(), bridges, grow(big, have | open_cells).bit_count()


def square_counts(have: int, squares: int) -> tuple[int, int]:
    """(squares among ``squares`` with exactly three cells of ``have``, with exactly
    two), as masks of lower-left cells: the four corners are added bit by bit, every
    square at once."""
    a, b, c, d = have, have >> 1, have >> 10, have >> 11
    ones_ab, carry_ab = a ^ b, a & b
    ones_cd, carry_cd = c ^ d, c & d
    ones, carry = ones_ab ^ ones_cd, ones_ab & ones_cd
    twos = carry_ab ^ carry_cd ^ carry
    fours = (carry_ab & carry_cd) | ((carry_ab | carry_cd) & carry)
    return squares & ones & twos & ~fours, squares & ~ones & twos & ~fours


def features(g: Game, p: int) -> list[float]:
    """``p``'s features in ``FEATURES`` order."""
    s = score(g, p)
    land = g.land[p]
    have = land | g.rainbow_cells[p]
    gone = g.land[1 - p] | g.removed
    # The Firefly Evil Spirit's cell takes neither land nor rainbow: its squares are dead.
    forbidden = 1 << g.evil_cell if g.evil_player == p and g.evil_cell >= 0 else 0
    live = ALL_SQUARES & ~g.occupied_squares[p] & ~squares_at(forbidden)
    three, two = square_counts(have, live)
    # A square three cells full whose last cell's land tile is gone: only a rainbow fills it.
    blocked_three = three & squares_at(gone & ~have)
    # Open cells: empty, and their land tile can still come (not the opponent's, not gone).
    frontier, bridges, reach = room_to_grow(have, ALL & ~have & ~gone & ~forbidden)
    plain = blue = 0
    for spirit, _ in g.spirits[p]:
        if spirit in PLAIN_IDS:
            plain += 1
        elif spirit in BLUE_IDS:
            blue += 1
    hand = g.hands[p]
    up = g.face_up_mask
    capturing = 0
    best_play = 0.0
    for i, t in enumerate(hand):
        if MATCH[t] & up:
            capturing += 1
        value = play_value(g, p, t)
        best_play = value if i == 0 else max(best_play, value)
    fireflies = g.fireflies[p].bit_count()
    return [
        s.biggest_section,
        s.lit_fires,
        s.bonus_total,
        s.unlit_fires,
        s.sections,
        g.rainbow_cells[p].bit_count(),
        land.bit_count(),
        s.second_section,
        (three & ~blocked_three).bit_count(),
        blocked_three.bit_count(),
        two.bit_count(),
        plain,
        blue,
        1.0 if g.evil_player == p and not g.options.firefly else 0.0,
        fireflies,
        s.fireflies,
        1.0 if fireflies == 3 else 0.0,
        g.hand_size[p],
        len(hand),
        capturing,
        best_play,
        frontier,
        bridges,
        reach,
    ]

"""The panorama's geometry: cells, neighbours, 2x2 squares and fires, as bit masks.

Cells are indexed on a padded 6x10 grid: ``index = (row - 1) * 10 + (column - 1)``, so row 1
(the bottom, red) holds indices 0-9 and row 6 (the top, purple) holds 54-57. Only the 48 cells
of the pyramid are valid; a land tile's id is the index of its own cell. Sets of cells are
Python ints used as bit masks, which keeps game states small and cheap to copy.
"""

from __future__ import annotations

from typing import Final

#: Columns of each row (rules.md §1).
ROW_COLUMNS: Final[dict[int, range]] = {
    1: range(1, 11),
    2: range(1, 11),
    3: range(1, 11),
    4: range(2, 10),
    5: range(3, 9),
    6: range(4, 8),
}

#: Landscape letter of each row, a second cue beside the colour.
ROW_LETTERS: Final[dict[int, str]] = {1: "V", 2: "M", 3: "F", 4: "H", 5: "P", 6: "S"}
ROW_NAMES: Final[dict[int, str]] = {
    1: "red valley",
    2: "orange boulder meadow",
    3: "green conifer forest",
    4: "light-blue wooded hills",
    5: "pink high pastures",
    6: "purple rocky summits",
}

GRID: Final = 60


def cell_index(row: int, column: int) -> int:
    """The index of the cell at ``row``, ``column`` (1-based), valid or not."""
    return (row - 1) * 10 + (column - 1)


CELLS: Final[tuple[int, ...]] = tuple(
    cell_index(r, c) for r in range(1, 7) for c in ROW_COLUMNS[r]
)
ALL: Final[int] = sum(1 << i for i in CELLS)
ROW_OF: Final[tuple[int, ...]] = tuple(i // 10 + 1 for i in range(GRID))
COL_OF: Final[tuple[int, ...]] = tuple(i % 10 + 1 for i in range(GRID))
NAMES: Final[dict[int, str]] = {i: f"{ROW_OF[i]}-{COL_OF[i]}" for i in CELLS}
_BY_NAME: Final[dict[str, int]] = {name: i for i, name in NAMES.items()}

_COL1: Final[int] = sum(1 << cell_index(r, 1) for r in range(1, 7))
_COL10: Final[int] = sum(1 << cell_index(r, 10) for r in range(1, 7))
#: Rows 1 to 5: the cells with a row above them.
_BELOW_TOP: Final[int] = (1 << cell_index(6, 1)) - 1
ROW1: Final[int] = sum(1 << cell_index(1, c) for c in ROW_COLUMNS[1])


def spread(mask: int) -> int:
    """Every valid cell sharing a side with a cell of ``mask`` (``mask`` itself not added).
    (The top row is left out before shifting up: every value then stays within 62 bits,
    which the compiled engine keeps unboxed.)"""
    return (
        ((mask << 1) & ~_COL1) | ((mask >> 1) & ~_COL10) | ((mask & _BELOW_TOP) << 10)
        | (mask >> 10)
    ) & ALL


NEIGHBOURS: Final[tuple[int, ...]] = tuple(
    spread(1 << i) if i in NAMES else 0 for i in range(GRID)
)

#: A square is named by its lower-left cell; these are the 33 of them.
SQUARES: Final[tuple[int, ...]] = tuple(
    i
    for i in CELLS
    if all(j in NAMES for j in (i + 1, i + 10, i + 11)) and COL_OF[i] < 10
)
SQUARE_CELLS: Final[tuple[int, ...]] = tuple(
    ((1 << i) | (1 << (i + 1)) | (1 << (i + 10)) | (1 << (i + 11))) if i in SQUARES else 0
    for i in range(GRID)
)
#: For each cell, the set (as a mask of lower-left cells) of squares containing it.
CELL_SQUARES: Final[tuple[int, ...]] = tuple(
    sum(1 << s for s in SQUARES if SQUARE_CELLS[s] >> i & 1) for i in range(GRID)
)
ALL_SQUARES: Final[int] = sum(1 << s for s in SQUARES)

#: Cells with one fire icon each (rules.md §1).
FIRE_CELLS: Final[int] = sum(
    1 << cell_index(r, c)
    for r, c in ((4, 2), (5, 3), (6, 4), (6, 5), (6, 6), (6, 7), (5, 8), (4, 9))
)
#: The shared summit fire counts only when both of these land tiles are yours.
SHARED_FIRE: Final[int] = (1 << cell_index(6, 5)) | (1 << cell_index(6, 6))

_ROW_MASK: Final[dict[int, int]] = {
    r: sum(1 << cell_index(r, c) for c in ROW_COLUMNS[r]) for r in ROW_COLUMNS}
_COL_MASK: Final[dict[int, int]] = {
    c: sum(1 << i for i in CELLS if COL_OF[i] == c) for c in range(1, 11)}
#: For each tile, the tiles sharing its row or its column: the ones it can capture.
MATCH: Final[tuple[int, ...]] = tuple(
    ((_ROW_MASK[ROW_OF[i]] | _COL_MASK[COL_OF[i]]) & ~(1 << i)) if i in NAMES else 0
    for i in range(GRID)
)

assert len(CELLS) == 48 and len(SQUARES) == 33


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def full_squares(filled: int) -> int:
    """The squares (a mask of lower-left cells) whose four cells are all in ``filled``."""
    return filled & (filled >> 1) & (filled >> 10) & (filled >> 11) & ALL_SQUARES


def squares_at(cells: int) -> int:
    """The squares (a mask of lower-left cells) holding at least one of ``cells``."""
    return (cells | cells >> 1 | cells >> 10 | cells >> 11) & ALL_SQUARES


def squares_cells(squares: int) -> int:
    """The cells covered by a set of squares (squares overlap, so this ORs their masks)."""
    cells = 0
    for sq in bits(squares):
        cells |= SQUARE_CELLS[sq]
    return cells


def cell_name(index: int) -> str:
    """``'row-column'`` for a valid cell index."""
    return NAMES[index]


def parse_cell(text: str) -> int:
    """The index of a cell written ``'row-column'`` (e.g. ``'3-7'``); ValueError otherwise."""
    cell = _BY_NAME.get(text.strip())
    if cell is None:
        raise ValueError(f"{text!r} is not a land tile: write row-column, e.g. 3-7")
    return cell


def grow(group: int, filled: int) -> int:
    """The cells of ``filled`` joined (side to side, through ``filled``) to ``group``, a
    part of ``filled``."""
    while True:
        grown = (group | spread(group)) & filled
        if grown == group:
            return group
        group = grown


def sections(filled: int) -> list[int]:
    """The connected groups (side to side) of the cells in ``filled``."""
    groups = []
    while filled:
        group = grow(filled & -filled, filled)
        groups.append(group)
        filled &= ~group
    return groups

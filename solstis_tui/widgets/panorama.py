"""A panorama grid: the 48-cell pyramid, row 6 at the top, with spirits at square centres.

Each cell is two characters: the row letter (a cue besides the colour) and a fire mark, or
a rainbow, or a dot when empty. Between the rows, a line carries each spirit's three-letter
code at the centre of its square and the fireflies.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from ..core import PanoramaView, Spirit
from ..core.board import (
    FIRE_CELLS,
    NAMES,
    ROW1,
    ROW_COLUMNS,
    ROW_LETTERS,
    SHARED_FIRE,
    SQUARES,
    cell_index,
    sections,
)
from .board_widget import BoardWidget
from .clicks import tag
from .view import SHORT_CODES, SPIRIT_CODES, BoardView, Glyphs, Palette, glyphs_of, palette_of

LEFT = 2


class Geometry(NamedTuple):
    """How big a grid draws its cells: ``width`` characters and ``height`` lines each,
    ``pitch`` characters from one column to the next; one line between rows."""

    width: int
    height: int
    pitch: int

    @property
    def line_width(self) -> int:
        return LEFT + 10 * self.pitch

    @property
    def lines(self) -> int:
        """Lines of the whole grid: title, six rows with lines between, column numbers."""
        return 1 + 6 * self.height + 5 + 1


SMALL = Geometry(width=2, height=1, pitch=3)
"""Fits two panoramas side by side in 80 columns."""
LARGE = Geometry(width=4, height=2, pitch=5)
"""Tiles twice the size, for big terminals."""


def cell_x(column: int, geo: Geometry = SMALL) -> int:
    """The first character of a column's cells on a grid line."""
    return LEFT + (column - 1) * geo.pitch


def cell_offset(cell: int, geo: Geometry = SMALL) -> tuple[int, int]:
    """Where ``cell`` is drawn in a grid's content: (x, y) of its first character."""
    row, column = cell // 10 + 1, cell % 10 + 1
    return cell_x(column, geo), 1 + (geo.height + 1) * (6 - row)


def square_offset(square: int, geo: Geometry = SMALL) -> tuple[int, int]:
    """Where the centre mark of the square with lower-left cell ``square`` is drawn."""
    x, y = cell_offset(square, geo)
    return x + geo.width, y - 1


class Sight(NamedTuple):
    """What one drawing of a grid shows: the panorama's tiles as bit masks (``lit``: cells
    whose fires are lit) and the pending decision's highlights on this grid."""

    pano: PanoramaView
    land: int
    rain: int
    lit: int
    targets: frozenset[int]
    marks: frozenset[int]
    cursor: int | None
    square_mode: bool
    """The decision picks squares here (its targets are squares, not cells)."""
    square_cells: frozenset[int]
    """The four cells of the square under the cursor."""
    played: frozenset[int] = frozenset()
    """The review: cells the move played picks on this grid."""
    best: frozenset[int] = frozenset()
    """The review: cells the judge's best move picks on this grid."""
    played_squares: frozenset[int] = frozenset()
    best_squares: frozenset[int] = frozenset()


def grounded_cells(land: int, rain: int) -> int:
    """Cells whose section touches row 1 (their fires are lit)."""
    grounded = 0
    for group in sections(land | rain):
        if group & ROW1:
            grounded |= group
    return grounded


class PanoramaGrid(BoardWidget):
    """One player's panorama (``side`` 'mine' or 'theirs' relative to the view).

    Cells and square centres answer clicks (``BoardClick`` with ``cell`` or ``square``).
    """

    DEFAULT_CSS = """
    PanoramaGrid { width: 1fr; min-width: 33; max-width: 40; height: 14; padding: 0 1; }
    """

    def __init__(self, side: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.side = side
        self.geo = SMALL

    def set_geometry(self, geo: Geometry) -> None:
        """Draw with bigger or smaller tiles from now on (the screen sizes the widget)."""
        if geo != self.geo:
            self.geo = geo
            self.redraw()

    def draw(self, view: BoardView) -> Text:
        return self.render_grid(view)

    # ------------------------------------------------------------------ drawing
    def player(self, view: BoardView) -> int:
        return view.me if self.side == "mine" else 1 - view.me

    def render_grid(self, view: BoardView) -> Text:
        """The title, the six rows of cells with the square lines between them, and the
        column numbers."""
        pal, g = palette_of(self), glyphs_of(view)
        p = self.player(view)
        sight = self._sight(view, view.obs.panoramas[p])
        squares = self._spirit_codes(sight.pano, pal)
        out = Text(no_wrap=True, overflow="crop")
        out.append_text(self._title(view, p, sight.pano, pal, g))
        out.append("\n")
        for row in range(6, 0, -1):
            for line in self._row_lines(row, sight, g, pal):
                out.append_text(line)
                out.append("\n")
            if row > 1:
                between = self._between(row - 1, squares, set(sight.pano.fireflies),
                                        sight.targets, sight.cursor, sight.square_mode, g,
                                        pal, self.geo)
                between = self._mark_squares(between, row - 1, sight, pal)
                self._tag_squares(between, row - 1)
                out.append_text(between)
                out.append("\n")
        out.append(self._column_numbers(), style=pal.dim)
        return out

    def _sight(self, view: BoardView, pano: PanoramaView) -> Sight:
        """What this grid shows of ``view``: the decision's targets, marks and cursor only
        when the decision is answered on this grid."""
        land = sum(1 << t for t in pano.land)
        rain = sum(1 << t for t in pano.rainbows)
        active = view.zone == self.side
        cursor = view.cursor if active else None
        square_mode = active and view.square_mode
        side = 0 if self.side == "mine" else 1
        return Sight(
            pano=pano, land=land, rain=rain, lit=grounded_cells(land, rain),
            targets=view.targets if active else frozenset(),
            marks=view.mark_cells[side], cursor=cursor,
            square_mode=square_mode,
            square_cells=frozenset({cursor, cursor + 1, cursor + 10, cursor + 11})
            if square_mode and cursor is not None else frozenset(),
            played=view.played.cells[side], best=view.best.cells[side],
            played_squares=view.played.squares[side], best_squares=view.best.squares[side])

    def _spirit_codes(self, pano: PanoramaView, pal: Palette) -> dict[int, tuple[str, Style]]:
        """Each occupied square's spirit code and style: short codes where side-by-side
        squares would touch on a small grid, lower case for a covered spirit (not only
        dimmed, for a screen without colour)."""
        squares: dict[int, tuple[str, Style]] = {}
        for spirit, sq in pano.spirits:
            covered = pano.covered is not None and pano.covered == spirit
            style = pal.dim if covered else (pal.spirit if spirit.is_plain else pal.blue_spirit)
            if spirit == Spirit.EVIL:
                style = pal.evil
            squares[sq] = (SPIRIT_CODES[Spirit(spirit)], style)
        if self.geo.pitch <= 3:  # three-letter tags of side-by-side squares would touch
            crowded = {sq for sq in squares if sq + 1 in squares or sq - 1 in squares}
            for sq in crowded:
                code, style = squares[sq]
                squares[sq] = (SHORT_CODES[code], style)
        for spirit, sq in pano.spirits:
            if pano.covered is not None and pano.covered == spirit:
                squares[sq] = (squares[sq][0].lower(), squares[sq][1])
        return squares

    def _row_lines(self, row: int, sight: Sight, g: Glyphs, pal: Palette) -> list[Text]:
        """The lines of one row of cells (one on a small grid), each cell clickable."""
        geo = self.geo
        lines = [Text(f"{row} ", style=pal.row_fg[row])]
        lines += [Text("  ") for _ in range(geo.height - 1)]
        for column in range(1, 11):
            if column not in ROW_COLUMNS[row]:
                for line in lines:
                    line.append(" " * geo.pitch)
                continue
            cell = cell_index(row, column)
            text, style = self._cell_look(cell, sight, g, pal)
            for k, (line, part) in enumerate(zip(lines, self._cell_lines(text, geo),
                                                 strict=True)):
                start = len(line)
                line.append(part, style=style)
                tag(line, start, ("cell", self.side, cell))
                gap = self._gap(row, column, sight.land, sight.lit, g, pal) if k == 0 \
                    else Text(" ")
                line.append_text(gap)
                if geo.pitch > geo.width + 1:
                    line.append(" " * (geo.pitch - geo.width - 1))
        return lines

    def _cell_look(self, cell: int, sight: Sight, g: Glyphs, pal: Palette) -> tuple[str, Style]:
        """A cell's mark and style: what is on it, then the decision's highlights (a
        target cell, unless the decision picks squares; a lesson's mark; the cursor)."""
        text, style = self._cell(cell, sight.land, sight.rain, sight.lit, sight.pano, g, pal)
        filled = (sight.land | sight.rain) >> cell & 1
        if cell in sight.targets and not sight.square_mode:
            if filled:
                style = pal.target_bg
            else:
                text, style = g.target * 2, pal.target
        if cell in sight.marks:
            if not filled:
                text = g.target * 2
            style = style + pal.mark
        if cell == sight.cursor or cell in sight.square_cells:
            style = style + pal.cursor
        if cell in sight.best:
            if not filled:
                text = g.target * 2
            style = style + pal.best
        if cell in sight.played:
            if not filled:
                text = g.played * 2
            style = style + pal.played
        return text, style

    def _column_numbers(self) -> str:
        """The column numbers under the grid, each centred under its cells."""
        geo = self.geo
        header = [" "] * geo.line_width
        for column in range(1, 11):
            x = cell_x(column, geo) + (geo.width - 2) // 2
            header[x:x + 2] = list(f"{column:>2}")
        return "".join(header).rstrip()

    @staticmethod
    def _cell_lines(text: str, geo: Geometry) -> list[str]:
        """A cell's two-character mark spread over a cell of ``geo``'s size: on a large
        cell the mark's halves sit at the left and right of the first line."""
        if geo.width == 2:
            return [text]
        first = text[0] + " " * (geo.width - 2) + text[1]
        if text[0] == text[1]:  # rainbows, forbidden cells, targets: fill the whole tile
            first = text[0] * geo.width
            return [first] * geo.height
        return [first] + [" " * geo.width] * (geo.height - 1)

    def _title(self, view: BoardView, p: int, pano: PanoramaView, pal: Palette,
               g: Glyphs) -> Text:
        """``Minimax bot ★22 Evil hand size 4 ◀``: name, stars, then the marks; a name too
        long for the grid's width is cut (with an ellipsis), never the marks."""
        stars = f" {g.star}{view.scores[p].total}"
        extras: list[tuple[str, Style]] = []
        obs = view.obs
        if obs.evil_player == p and (not obs.options.firefly or pano.forbidden is not None):
            # Base game: its holder; Firefly: the panorama it forbids a cell of (whose
            # owner moves it on at their next encounter).
            extras.append(("Evil", pal.evil))
        if pano.fireflies:
            extras.append((f"{g.firefly}{len(pano.fireflies)}", pal.firefly))
        if pano.hand_size == 4:  # the Bear: a size, not the tiles held (the hand line)
            extras.append(("hand size 4", pal.dim))
        if view.to_play == p and not obs.is_over:
            extras.append(("◀" if not view.ascii else "<", pal.target))
        width = self.size.width or self.geo.line_width
        room = width - len(stars) - sum(1 + cell_len(text) for text, _ in extras)
        name = Text(view.names[p])  # a person's name: text, never markup
        if name.cell_len > room:
            name.truncate(max(room, 4), overflow="ellipsis")
        title = Text()
        title.append(name.plain, style=pal.bold)
        title.append(stars, style=pal.fire_lit)
        for text, style in extras:
            title.append(" ")
            title.append(text, style=style)
        return title

    @staticmethod
    def _cell(cell: int, land: int, rain: int, lit: int, pano: PanoramaView, g: Glyphs,
              pal: Palette) -> tuple[str, Style]:
        row = cell // 10 + 1
        fire = FIRE_CELLS >> cell & 1
        if land >> cell & 1:
            mark = " "
            if fire:
                mark = g.fire_lit if lit >> cell & 1 else g.fire_unlit
            return ROW_LETTERS[row] + mark, pal.rows[row]
        if rain >> cell & 1:
            return g.rainbow, pal.rainbow
        if pano.forbidden == cell:
            return g.forbidden, pal.evil
        if fire:
            return g.empty + g.fire_unlit, pal.empty
        return g.empty + " ", pal.empty

    @staticmethod
    def _gap(row: int, column: int, land: int, lit: int, g: Glyphs, pal: Palette) -> Text:
        if row == 6 and column == 5:
            if land & SHARED_FIRE == SHARED_FIRE:
                mark = g.fire_lit if lit & SHARED_FIRE else g.fire_unlit
                return Text(mark, style=pal.fire_lit if lit & SHARED_FIRE else pal.fire_unlit)
            return Text(g.fire_unlit, style=pal.empty)
        return Text(" ")

    def _mark_squares(self, line: Text, row: int, sight: Sight, pal: Palette) -> Text:
        """The review's squares on the line between rows. An empty square gets brackets
        round its centre, ``[+]`` for the judge's best, ``<+>`` for the move played,
        ``{+}`` for both (a cue without colour); a spirit's code (the Evil Spirit's
        cover) gets their styles."""
        if not (sight.played_squares or sight.best_squares):  # a game, not a review
            return line
        for column in range(1, 10):
            sq = cell_index(row, column)
            played, best = sq in sight.played_squares, sq in sight.best_squares
            if not (played or best):
                continue
            x = cell_x(column, self.geo) + self.geo.width
            if len(line) < x + 2:
                line.append(" " * (x + 2 - len(line)))
            style = (pal.played if played else Style()) + (pal.best if best else Style())
            if line.plain[x - 1:x + 2].strip() and line.plain[x] != " ":
                line.stylize(style, x - 1, x + 2)
                continue
            left, right = "{}" if played and best else "<>" if played else "[]"
            rebuilt = line[:x - 1]
            rebuilt.append(left + "+" + right, style=style)
            rebuilt.append_text(line[x + 2:])
            line = rebuilt
        return line

    def _tag_squares(self, line: Text, row: int) -> None:
        """Let the three characters at each square's centre answer clicks."""
        for column in range(1, 10):
            sq = cell_index(row, column)
            if sq in SQUARES:
                x = cell_x(column, self.geo) + self.geo.width
                tag(line, x - 1, ("square", self.side, sq), x + 2)

    @staticmethod
    def _between(row: int, squares: dict[int, tuple[str, Style]], fireflies: set[int],
                 targets: frozenset[int], cursor: int | None, square_mode: bool, g: Glyphs,
                 pal: Palette, geo: Geometry = SMALL) -> Text:
        """The line between ``row`` and ``row + 1``: spirits and fireflies on squares."""
        chars: list[tuple[str, Style | None]] = [(" ", None)] * geo.line_width
        for column in range(1, 10):
            sq = cell_index(row, column)
            if sq not in NAMES:
                continue
            x = cell_x(column, geo) + geo.width
            if sq in squares:
                code, style = squares[sq]
                for k, ch in enumerate(code):
                    chars[x - 1 + k] = (ch, style)
            elif sq in fireflies:
                chars[x] = (g.firefly, pal.firefly)
            if square_mode and sq in targets:
                lit = pal.target + pal.cursor if sq == cursor else pal.target
                chars[x - 1], chars[x], chars[x + 1] = ("[", lit), (g.target, lit), ("]", lit)
        line = Text()
        for ch, shown in chars:
            line.append(ch, style=shown)
        line.rstrip()
        return line

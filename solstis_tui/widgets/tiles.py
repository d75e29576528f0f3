"""Drawing a land tile as a small coloured chip: its name on its row colour."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from ..core.board import NAMES, ROW_OF
from .view import BoardView, Palette


def tile_chip(tile: int, pal: Palette, extra: Style | None = None) -> Text:
    """``3-7`` on the row colour (the name itself repeats the row: a second cue)."""
    style = pal.rows[ROW_OF[tile]]
    if extra is not None:
        style = style + extra
    return Text(NAMES[tile], style=style)


def review_marks(chip: Text, tile: int, view: BoardView, pal: Palette) -> None:
    """The review's marks on a tile's chip: reversed where the move played picks it,
    underlined where the judge's best does."""
    chip.stylize(pal.review(Style(), tile in view.played.tiles, tile in view.best.tiles))

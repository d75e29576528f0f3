"""The display: every pile's face-up tile, a mark for a face-down tile beneath, pile letters."""

from __future__ import annotations

from rich.text import Text

from .board_widget import BoardWidget
from .clicks import tag
from .tiles import review_marks, tile_chip
from .view import BoardView, glyphs_of, palette_of

PILE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class DisplayPiles(BoardWidget):
    """Piles labelled A, B, C...; capturable ones highlighted, the picked one reversed."""

    DEFAULT_CSS = """
    DisplayPiles { height: auto; max-height: 3; padding: 0 1; }
    """

    def draw(self, view: BoardView) -> Text:
        pal, g = palette_of(self), glyphs_of(view)
        out = Text("Display ", style=pal.bold)
        active = view.zone == "display"
        for i, (tile, down) in enumerate(view.obs.display):
            label = PILE_LETTERS[i] if i < len(PILE_LETTERS) else "?"
            picked = active and view.selected == i
            lit = tile in view.capturable or (active and tile in view.targets)
            start = len(out)
            out.append(label + ":", style=pal.target if lit else pal.dim)
            extra = pal.cursor if picked else None
            chip = tile_chip(tile, pal, extra)
            if lit and not picked:
                chip.stylize(pal.target_bg)
            if tile in view.marks:
                chip.stylize(pal.mark)
            review_marks(chip, tile, view, pal)
            out.append_text(chip)
            out.append(g.face_down if down else " ", style=pal.dim)
            tag(out, start, ("item", "display", i))
            out.append(" ")
        if not view.obs.display:
            out.append("(empty)", style=pal.dim)
        return out

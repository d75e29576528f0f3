"""The spirit pool: the face-up spirit line, the spirit pile, rainbows and the land pile."""

from __future__ import annotations

from rich.text import Text

from .board_widget import BoardWidget
from .clicks import tag
from .view import BoardView, glyphs_of, palette_of


class SpiritPool(BoardWidget):
    """One line of supplies; while a spirit is to be chosen, the numbered choices."""

    DEFAULT_CSS = """
    SpiritPool { height: auto; max-height: 3; padding: 0 1; }
    """

    show_effects: bool = False

    def draw(self, view: BoardView) -> Text:
        pal, g = palette_of(self), glyphs_of(view)
        obs = view.obs
        out = Text()
        if view.zone == "spirits":
            out.append("Choose ", style=pal.bold)
            for i, item in enumerate(view.items):
                picked = view.selected == i
                start = len(out)
                out.append(f"{i + 1}:", style=pal.target if item.legal else pal.dim)
                style = pal.cursor if picked else (pal.bold if item.legal else pal.illegal)
                out.append(item.label, style=style)
                tag(out, start, ("item", "spirits", i))
                out.append("  ")
            out.append("\n")
        out.append("Spirits ", style=pal.bold)
        out.append(f"pile {obs.spirit_pile}", style=pal.spirit)
        out.append(" line: ", style=pal.dim)
        if obs.spirit_line:
            for spirit in obs.spirit_line:
                style = pal.spirit if spirit.is_plain else pal.blue_spirit
                if spirit in view.best.spirits:  # the review's marks, as on tiles
                    style = style + pal.best
                if spirit in view.played.spirits:
                    style = style + pal.played
                out.append(spirit.title, style=style)
                if self.show_effects:
                    out.append(f" ({spirit.effect})", style=pal.dim)
                out.append(" ")
        else:
            out.append("empty ", style=pal.dim)
        out.append(f"{g.bullet} ", style=pal.dim)
        out.append(f"rainbows {obs.rainbow_supply}", style=pal.rainbow)
        out.append(f" {g.bullet} land pile {obs.land_pile}", style=pal.bold)
        if obs.options.firefly:
            out.append(f" {g.bullet} fireflies {obs.firefly_supply}", style=pal.firefly)
        return out

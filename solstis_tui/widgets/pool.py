"""The spirit pool: the face-up spirit line, the spirit pile, rainbows and the land pile;
the spirits just drawn where one is to be kept."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from ..core import Decision, Spirit
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

        def spirit_style(spirit: Spirit) -> Style:
            """A spirit's colour, with the review's marks as on tiles."""
            return pal.review(pal.spirit if spirit.is_plain else pal.blue_spirit,
                              spirit in view.played.spirits, spirit in view.best.spirits)

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
        elif obs.decision is Decision.KEEP and obs.context:  # drawn, and public: shown
            # to the other seat while it keeps one, and on the review's board
            out.append("Drawn ", style=pal.bold)
            for spirit in map(Spirit, obs.context):
                out.append(spirit.title, style=spirit_style(spirit))
                out.append(" ")
            out.append(f"{g.bullet} ", style=pal.dim)  # one line with the rest, if it fits
        out.append("Spirits ", style=pal.bold)
        out.append(f"pile {obs.spirit_pile}",
                   style=pal.review(pal.spirit, view.played.pile, view.best.pile))
        out.append(" line: ", style=pal.dim)
        if obs.spirit_line:
            for spirit in obs.spirit_line:
                out.append(spirit.title, style=spirit_style(spirit))
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

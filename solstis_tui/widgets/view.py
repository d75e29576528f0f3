"""What the board widgets draw: one ``BoardView`` built by the game screen, plus glyphs and
colours (Unicode or plain ASCII; colours from the theme's board variables)."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from rich.style import Style
from textual.app import App
from textual.widget import Widget

from ..core import Spirit
from ..play.view import BoardView
from ..play.zones import Item

__all__ = ["ASCII", "UNICODE", "BoardView", "Glyphs", "Item", "Palette", "asciify", "palette_of"]

SPIRIT_CODES: dict[Spirit, str] = {
    Spirit.FISH: "Fsh", Spirit.DEER: "Der", Spirit.EAGLE: "Egl", Spirit.BEAR: "Bea",
    Spirit.FLY: "Fly", Spirit.BEETLE: "Btl", Spirit.MARMOT: "Mmt", Spirit.BEE: "Bee",
    Spirit.LADYBUG: "Lbg", Spirit.WOLF: "Wlf", Spirit.SQUIRREL: "Sqr", Spirit.BIRD: "Brd",
    Spirit.FROG: "Frg", Spirit.BUTTERFLY: "Bfl", Spirit.EVIL: "Evl", Spirit.COW: "Cow",
    Spirit.PHOENIX: "Phx", Spirit.VIPER: "Vpr", Spirit.RENARD: "Ren",
}
#: Two-letter tags for spirits on side-by-side squares (three letters would run together:
#: "BeeFsh"), so that a space separates them: "Be Fi".
SHORT_CODES: dict[str, str] = {
    "Fsh": "Fi", "Der": "De", "Egl": "Eg", "Bea": "Ba", "Fly": "Fl", "Btl": "Bt",
    "Mmt": "Mm", "Bee": "Be", "Lbg": "Lb", "Wlf": "Wo", "Sqr": "Sq", "Brd": "Bd",
    "Frg": "Fr", "Bfl": "Bf", "Evl": "Ev", "Cow": "Co", "Phx": "Ph", "Vpr": "Vp",
    "Ren": "Rn",
}


@dataclass(frozen=True)
class Glyphs:
    """The symbols the board uses; ``ASCII`` for terminals without Unicode."""

    empty: str
    fire_lit: str
    fire_unlit: str
    rainbow: str
    firefly: str
    forbidden: str
    face_down: str
    star: str
    target: str
    bullet: str
    arrow: str
    played: str = "◆"
    """The review: an empty cell the move played picks (the judge's best: ``target``)."""


UNICODE = Glyphs(empty="·", fire_lit="▲", fire_unlit="△", rainbow="≈≈", firefly="✦",
                 forbidden="✕✕", face_down="▪", star="★", target="◇", bullet="·", arrow="→")
ASCII = Glyphs(empty=".", fire_lit="!", fire_unlit="^", rainbow="~~", firefly="f",
               forbidden="XX", face_down="#", star="*", target="+", bullet="-", arrow="->",
               played="@")


class Palette:
    """Rich styles from the current theme's board variables."""

    def __init__(self, variables: dict[str, str]) -> None:
        from solstis_tui.themes import BOARD_DEFAULTS, ROW_LABELS

        v = {**BOARD_DEFAULTS, **{k: x for k, x in variables.items()
                                  if k in BOARD_DEFAULTS or k in ROW_LABELS}}
        self.v = v
        text = v["row-text"]
        self.rows = {r: Style(color=v[f"row-{r}-text"], bgcolor=v[f"row-{r}"], bold=True)
                     for r in range(1, 7)}
        #: The row numbers beside a grid: the row colour, or the theme's darker label colour.
        self.row_fg = {r: Style(color=v.get(f"row-{r}-label", v[f"row-{r}"]), bold=True)
                       for r in range(1, 7)}
        self.rainbow = Style(color=v["rainbow"], bold=True)
        self.fire_lit = Style(color=v["fire-lit"], bold=True)
        self.fire_unlit = Style(color=v["fire-unlit"])
        self.target = Style(color=v["target"], bold=True)
        self.target_bg = Style(bgcolor=v["target"], color=text, bold=True)
        self.spirit = Style(color=v["spirit"], bold=True)
        self.blue_spirit = Style(color=v["blue-spirit"], bold=True)
        self.firefly = Style(color=v["firefly"], bold=True)
        self.evil = Style(color=v["evil"], bold=True)
        self.empty = Style(color=v["empty"])
        self.cursor = Style(reverse=True, bold=True, underline=True)
        self.mark = Style(bgcolor=v["target"], color=text, bold=True, underline=True)
        #: The review's marks, told apart without colour too: the move played reversed,
        #: the judge's best underlined (on the target colour, as a lesson's mark).
        self.played = Style(reverse=True, bold=True)
        self.best = self.mark
        self.dim = Style(dim=True)
        self.bold = Style(bold=True)
        self.illegal = Style(dim=True, strike=True)

    def review(self, style: Style, played: bool, best: bool) -> Style:
        """``style`` with the review's marks: the move played's, the judge's best's."""
        if best:
            style = style + self.best
        return style + self.played if played else style


_PALETTES: weakref.WeakKeyDictionary[App[Any], tuple[str, Palette]] = \
    weakref.WeakKeyDictionary()


def palette_of(widget: Widget) -> Palette:
    """The palette for ``widget``'s app (cached per theme)."""
    app = widget.app
    cached = _PALETTES.get(app)
    if cached is None or cached[0] != app.theme:
        cached = _PALETTES[app] = (app.theme, Palette(app.theme_variables))
    return cached[1]


def glyphs_of(view: BoardView | None) -> Glyphs:
    return ASCII if view is not None and view.ascii else UNICODE


_ASCII_MAP = str.maketrans({
    "·": "-", "←": "<", "→": ">", "—": "--", "★": "*", "◀": "<", "…": "...", "│": "|",
    "×": "x", "✗": "x", "▲": "!", "△": "^", "≈": "~", "✦": "f", "✕": "X", "◇": "+", "▪": "#",
    "–": "-", "−": "-", "§": "S", "»": ">", "◆": "@",
})


def asciify(text: str) -> str:
    """``text`` with the app's few non-ASCII symbols replaced by plain ASCII ones."""
    return text.translate(_ASCII_MAP)

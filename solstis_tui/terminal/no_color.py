"""``NO_COLOR``: the screen in greys that keep their contrast.

Textual's own filter for ``NO_COLOR`` turns each colour into the grey of its weighted
channel sum, which loses what tells text from its ground: black letters on a red valley
tile became colour 233 on 236. ``ReadableGreys`` turns each colour into the grey of the same
*luminance* (what the WCAG contrast ratio measures) and, where text would still read below
4.5:1 against its ground, draws the text black or white, whichever stands out more. Rows
keep their letters, marks their symbols: colour was never the only cue.
"""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

#: The contrast every piece of text gets at least (WCAG 2, AA for normal text).
MIN_CONTRAST = 4.5
BLACK = RichColor.from_rgb(0, 0, 0)
WHITE = RichColor.from_rgb(255, 255, 255)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: RichColor) -> float:
    """The WCAG relative luminance of ``colour``, 0 (black) to 1 (white)."""
    rgb = colour.get_truecolor()
    return 0.2126 * _linear(rgb.red) + 0.7152 * _linear(rgb.green) + 0.0722 * _linear(rgb.blue)


def contrast(a: RichColor, b: RichColor) -> float:
    """The WCAG 2 contrast ratio of two colours, 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@lru_cache(maxsize=1024)
def grey(colour: RichColor) -> RichColor:
    """The grey with ``colour``'s luminance."""
    lum = luminance(colour)
    c = lum * 12.92 if lum <= 0.03928 / 12.92 else 1.055 * lum ** (1 / 2.4) - 0.055
    level = max(0, min(255, round(c * 255)))
    return RichColor.from_rgb(level, level, level)


@lru_cache(maxsize=4096)
def readable(style: Style, ground: RichColor) -> Style:
    """``style`` in greys, its text at least ``MIN_CONTRAST`` against its background (or
    ``ground``, the background beneath a segment that sets none)."""
    fg, bg = style.color, style.bgcolor
    if style.reverse:
        fg, bg = bg, fg
    new_bg = grey(bg) if bg is not None and not bg.is_default else None
    behind = new_bg or grey(ground)
    new_fg = grey(fg) if fg is not None and not fg.is_default else None
    # The terminal's own text colour is unknown: on a background of ours it is chosen too.
    own_text_on_ours = new_fg is None and new_bg is not None
    if own_text_on_ours or (new_fg is not None and contrast(new_fg, behind) < MIN_CONTRAST):
        new_fg = max((BLACK, WHITE), key=lambda c: contrast(c, behind))
    if style.reverse:
        new_fg, new_bg = new_bg, new_fg
    return style + Style(color=new_fg, bgcolor=new_bg, dim=False)


class ReadableGreys(LineFilter):
    """The ``NO_COLOR`` filter: greys of the same luminance, text at least 4.5:1."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        ground = background.rich_color
        return [
            Segment(text, readable(style, ground) if style is not None else None, control)
            for text, style, control in segments
        ]

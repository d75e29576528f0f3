"""A Rich renderable drawn once per width, for big tables on screens that open often.

Textual's ``Static`` renders its content again each time the layout asks for its height
and each time it paints; a Rich ``Table`` with wrapped columns costs milliseconds a
render, so a screen of one (the spirits' table) took most of the time between the key
and the frame. ``Rendered`` renders at a width once and keeps the lines until the width
(or the theme's colours) change.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget


class Rendered(Widget):
    """``renderable``, drawn as lines cached for the widget's width."""

    DEFAULT_CSS = """
    Rendered { height: auto; }
    """

    def __init__(self, renderable: RenderableType, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.renderable = renderable
        self._key: tuple[int, Style] | None = None
        self._strips: list[Strip] = []

    def strips(self, width: int) -> list[Strip]:
        """The renderable's lines at ``width`` cells (rendered on the first ask)."""
        base = self.rich_style  # the widget's colours under the renderable's own
        if (width, base) != self._key:
            options = self.app.console.options.update_width(max(1, width))
            lines = self.app.console.render_lines(self.renderable, options, pad=True)
            self._strips = [Strip(Segment.simplify(Segment.apply_style(line, base)), width)
                            for line in lines]
            self._key = (width, base)
        return self._strips

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.strips(width))

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        lines = self.strips(width)
        return lines[y] if y < len(lines) else Strip.blank(width, self.rich_style)

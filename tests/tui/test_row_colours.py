"""The six landscape rows stay apart in every theme, in true colour, in 256 colours and in
16 colours (rows also carry a letter; colour is the quicker cue)."""

from __future__ import annotations

import itertools
import math

import pytest
from rich.color import Color, ColorSystem

from solstis_tui.themes import THEMES

SYSTEMS = (ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT, ColorSystem.STANDARD)


def shown(colour: str, system: ColorSystem) -> tuple[int, int, int]:
    """The RGB a terminal with ``system`` shows for ``colour`` (the 16 basic colours as
    Rich's standard palette draws them)."""
    rgb = Color.parse(colour).downgrade(system).get_truecolor()
    return rgb.red, rgb.green, rgb.blue


@pytest.mark.parametrize("theme", list(THEMES))
@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.name)
def test_rows_are_far_apart(theme: str, system: ColorSystem) -> None:
    rows = [shown(THEMES[theme].variables[f"row-{i}"], system) for i in range(1, 7)]
    closest = min((math.dist(a, b), i + 1, j + 1)
                  for (i, a), (j, b) in itertools.combinations(enumerate(rows), 2))
    assert closest[0] >= 100, f"rows {closest[1]} and {closest[2]} look alike: {rows}"

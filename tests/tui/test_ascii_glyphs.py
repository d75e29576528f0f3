"""In --ascii every board mark has a glyph of its own: a lit fire is not a star."""

from __future__ import annotations

from dataclasses import astuple

from solstis_tui.terminal.ascii_filter import to_ascii
from solstis_tui.widgets.view import ASCII, UNICODE, asciify


def test_every_ascii_board_mark_is_told_apart_from_the_others():
    marks = [g for g in astuple(ASCII) if g not in (ASCII.bullet, ASCII.arrow)]
    assert len(set(marks)) == len(marks), marks
    assert ASCII.fire_lit != ASCII.star and ASCII.fire_lit != ASCII.fire_unlit


def test_text_made_ascii_keeps_a_lit_fire_apart_from_a_star_and_an_unlit_fire():
    for convert in (asciify, to_ascii):
        lit, unlit, star = (convert(UNICODE.fire_lit), convert(UNICODE.fire_unlit),
                            convert(UNICODE.star))
        assert len({lit, unlit, star}) == 3, (convert.__name__, lit, unlit, star)
        assert lit == ASCII.fire_lit

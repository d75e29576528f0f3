"""ASCII mode's last line of defence: every glyph on screen becomes plain ASCII.

The board, prompts and log choose their own ASCII words and symbols in ASCII mode
(``widgets.view.asciify``). What they do not draw — Textual's borders, scrollbars,
dropdown arrows, the command palette's icon, punctuation in help texts — passes through
``AsciiFilter``, a Textual line filter: each non-ASCII character becomes ASCII of the same
width on screen, so nothing moves. The ellipsis that Rich and Textual put where they cut a
line short becomes "..." (over the two cells before it, already cut text): a lone "."
would read as a full stop. So the program's own texts never show a literal "…" that
reaches this filter: they write "..." (or go through ``widgets.view.asciify`` first).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

#: Characters with an obvious ASCII stand-in.
_KNOWN = {
    "—": "-", "–": "-", "‒": "-", "−": "-", "·": ".", "•": "*", "…": ".", "§": "S",
    "×": "x", "←": "<", "→": ">", "↑": "^", "↓": "v", "◀": "<", "▶": ">", "▲": "!",
    "▼": "v", "△": "^", "▽": "v", "★": "*", "☆": "*", "▪": "#", "■": "#", "□": "o",
    "◇": "o", "◆": "#", "✓": "v", "✗": "x", "⏎": "E", "“": '"', "”": '"', "‘": "'",
    "’": "'", "«": "<", "»": ">", "\u00a0": " ", "°": "o",
}


@lru_cache(maxsize=4096)
def ascii_char(ch: str) -> str:
    """The ASCII stand-in for one character, as wide on screen as the character."""
    if ch.isascii():
        return ch
    width = cell_len(ch)
    if ch in _KNOWN:
        return _KNOWN[ch].ljust(width)
    name = unicodedata.name(ch, "")
    if name.startswith("BOX DRAWINGS"):
        horizontal, vertical = "HORIZONTAL" in name, "VERTICAL" in name
        if horizontal and not vertical:
            out = "-"
        elif vertical and not horizontal:
            out = "|"
        else:
            out = "+"
    elif "BLOCK" in name or "SHADE" in name or "QUADRANT" in name:
        if "LEFT" in name or "RIGHT" in name:
            out = "|"
        elif "UPPER ONE EIGHTH" in name or "UPPER HALF" in name:
            out = "-"
        elif "LOWER ONE EIGHTH" in name or "LOWER ONE QUARTER" in name:
            out = "_"
        else:
            out = "#"
    elif "MAGNIFYING" in name:
        out = ">"
    else:
        out = "?"
    return out.ljust(width) if width else ""


def to_ascii(text: str) -> str:
    """``text`` with every character replaced by its ASCII stand-in."""
    return text if text.isascii() else "".join(ascii_char(ch) for ch in text)


ELLIPSIS = "…"


def _dotted(segments: list[Segment]) -> list[Segment]:
    """``segments`` in ASCII, each ellipsis drawn as "..." ending where it stood."""
    texts: list[list[str]] = []
    dots: list[tuple[int, int]] = []  # (segment, character) where an ellipsis ends
    for n, seg in enumerate(segments):
        chars: list[str] = []
        for ch in seg.text:
            if ch == ELLIPSIS and not seg.control:
                dots.append((n, len(chars)))
            chars.extend(ascii_char(ch))
        texts.append(chars)
    for n, i in dots:
        left = 3
        while left and n >= 0:  # back over this segment, then the ones before it
            if not segments[n].control:
                while left and i >= 0:
                    texts[n][i] = "."
                    i -= 1
                    left -= 1
            n -= 1
            i = len(texts[n]) - 1 if n >= 0 else -1
    return [Segment("".join(chars), seg.style, seg.control)
            for seg, chars in zip(segments, texts, strict=True)]


class AsciiFilter(LineFilter):
    """Turns every glyph of a rendered line into ASCII of the same width."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if any(ELLIPSIS in seg.text for seg in segments):
            return _dotted(segments)
        return [seg if seg.text.isascii() else Segment(to_ascii(seg.text), seg.style,
                                                       seg.control)
                for seg in segments]

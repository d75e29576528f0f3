"""The analysis board's graph: each seat's expected result through the game, as text.

One strip a seat, one character a decision with a real choice (several decisions a
character when the game is longer than the strip is wide; up to ``MAX_STRETCH`` characters
a decision when it is much shorter): the character's height is the seat's
expected star margin then, on one scale for both seats, from its own observation. A line
under the strips marks where the mistakes fell (``i`` inaccuracy, ``m`` mistake, ``b``
blunder, the worst in a character) and, elsewhere, the draw's big swings for the reviewing
seat (``+`` good luck, ``-`` bad, at least ``LUCK_SHOWN`` stars). The cursor's column is a
cell of its own kind, which the widget reverses. ASCII characters with ``ascii``. No
Textual here. (Textual's ``Sparkline`` draws Unicode bars only, each strip on a scale of
its own, with no cursor and no marks: hence this.)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

from ..coach.analysis import LABEL_NAMES, Analysis, ChanceNote, DecisionNote

UNICODE_LEVELS: Final = "▁▂▃▄▅▆▇█"
ASCII_LEVELS: Final = "_.-~^"
LABEL_MARKS: Final = {"inaccuracy": "i", "mistake": "m", "blunder": "b"}
_WORST: Final = tuple(reversed(LABEL_NAMES))
MAX_STRETCH: Final = 3
LUCK_SHOWN: Final = 2.0
"""Luck (stars) a stretch of the draw must reach to be marked."""


@dataclass(frozen=True)
class GraphCell:
    """One character of the graph; ``kind``: 'strip', 'label', 'luck' or 'blank'."""

    text: str
    kind: str
    cursor: bool = False


def columns(count: int, width: int) -> list[range]:
    """Which decisions each of at most ``width`` columns stands for, in order."""
    if count <= 0 or width <= 0:
        return []
    n = min(count, width)
    return [range(i * count // n, (i + 1) * count // n) for i in range(n)]


def graph(found: Analysis, seat: int, cursor: int | None, width: int,
          ascii_mode: bool = False, marked: Collection[int] = (0, 1)
          ) -> list[list[GraphCell]]:
    """Three rows of ``width`` cells at most: seat 0's strip, seat 1's, and the marks
    (the mistakes of the seats ``marked``, and ``seat``'s luck). ``cursor`` is the index
    of a decision among ``found.decisions()`` (None: no cursor). A mark stands in the
    first character of a stretched decision."""
    notes = found.decisions()
    luck = _luck_after(found)
    spans = columns(len(notes), width)
    levels = ASCII_LEVELS if ascii_mode else UNICODE_LEVELS
    values = [v for note in notes for v in note.expected]
    low, high = min([0.0, *values]), max([0.0, *values])
    stretch = max(1, min(MAX_STRETCH, width // len(spans))) if spans else 1
    rows: list[list[GraphCell]] = [[], [], []]
    for span in spans:
        here = cursor is not None and cursor in span
        last = notes[span[-1]]
        for s in (0, 1):
            level = _level(last.expected[s], low, high, levels)
            rows[s] += [GraphCell(level, "strip", here)] * stretch
        rows[2].append(_mark([notes[k] for k in span if notes[k].seat in marked],
                             [luck[k][seat] for k in span], here))
        rows[2] += [GraphCell(" ", "blank", here)] * (stretch - 1)
    return rows


def _level(value: float, low: float, high: float, levels: str) -> str:
    if high <= low:
        return levels[len(levels) // 2]
    k = round((value - low) / (high - low) * (len(levels) - 1))
    return levels[max(0, min(len(levels) - 1, k))]


def _mark(notes: Sequence[DecisionNote], luck: Sequence[float], here: bool) -> GraphCell:
    labels = {n.label for n in notes if n.label}
    for name in _WORST:
        if name in labels:
            return GraphCell(LABEL_MARKS[name], "label", here)
    total = sum(luck)
    if total >= LUCK_SHOWN:
        return GraphCell("+", "luck", here)
    if total <= -LUCK_SHOWN:
        return GraphCell("-", "luck", here)
    return GraphCell(" ", "blank", here)


def _luck_after(found: Analysis) -> list[tuple[float, float]]:
    """Each decision's following stretch of the draw: each seat's luck (0 without)."""
    out: list[tuple[float, float]] = []
    for note in found.notes:
        if isinstance(note, DecisionNote):
            out.append((0.0, 0.0))
        elif isinstance(note, ChanceNote) and out:
            a, b = out[-1]
            out[-1] = (a + note.luck[0], b + note.luck[1])
    return out

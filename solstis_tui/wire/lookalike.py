"""Names that look alike: the confusable skeleton of Unicode's UTS #39, section 4.

``skeleton(text)`` is UTS #39's ``skeleton``: NFD, every character replaced by the
prototype Unicode's ``confusables.txt`` gives it, NFD again. Two strings with the same
skeleton are visually confusable ("Yоu" with a Cyrillic о and "You"; "rn" and "m"; "l",
"I" and "1").

The table comes from the ``confusable-homoglyphs`` package, which ships Unicode's
``confusables.txt`` as a two-way graph: a source character points to its prototype and a
prototype to its sources. A prototype has many sources or is a sequence of several
characters, a source one prototype, so the direction is read back from the graph; where a
prototype has a single source, the two form a class of their own and the smaller stands
for both (equal skeletons stay equal). Loaded on first use (about 50 ms).
"""

from __future__ import annotations

import functools
import unicodedata

#: Direction marks the package's data puts around right-to-left characters.
_MARKS = dict.fromkeys(map(ord, "\u200e\u200f"))


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> its prototype (a character or a sequence)."""
    from confusable_homoglyphs import utils  # type: ignore[import-untyped]

    raw: dict[str, list[dict[str, str]]] = utils.load("confusables.json")
    graph = {key.translate(_MARKS): [e["c"].translate(_MARKS) for e in links]
             for key, links in raw.items()}
    table: dict[str, str] = {}
    for char, links in graph.items():
        if len(char) != 1:
            continue  # a sequence is only ever a prototype
        longer = [t for t in links if len(t) > 1]
        if longer:
            table[char] = longer[0]
        elif len(links) == 1:
            (other,) = links
            if len(graph.get(other, ())) > 1:
                table[char] = other  # a source and its prototype
            elif other < char:
                table[char] = other  # a class of two: the smaller stands for both
    return table


def skeleton(text: str) -> str:
    """UTS #39's confusable skeleton of ``text`` (equal skeletons: confusable strings)."""
    table = _prototypes()
    out = unicodedata.normalize("NFD", text)
    for _ in range(3):  # a prototype sequence may hold a class's other member: map again
        mapped = "".join(table.get(ch, ch) for ch in out)
        if mapped == out:
            break
        out = unicodedata.normalize("NFD", mapped)
    return out

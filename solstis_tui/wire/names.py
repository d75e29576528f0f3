"""Player names: one normal form, a clear refusal for unprintable ones, and a uniqueness key
(plus ``without_controls`` for any text that comes over the wire).

``normalize_name`` turns what a person typed into the name everybody sees: NFC, no invisible
or format characters (zero-width joiners, direction overrides, soft hyphens...), every kind of
space as one plain space, no padding. ``name_key`` is what two names must not share: it
ignores case, invisible characters and compatibility look-alikes (full-width letters).
``lookalike_key`` is the other thing they must not share: the UTS #39 confusable skeleton
with case folded (see lookalike), with look-alikes of Latin letters outside Unicode's table
folded to them, so that "Апп" in Cyrillic cannot sit beside "Ann", nor "Boƅ" beside "Bob"
(``lookalike_core`` also leaves out spaces, punctuation and accents). A name's letters come
from one script, and a name must not pass for a name, mark or line of the program's own
(see posing); ``normalize_name`` refuses the rest with a reason. ``chat_text`` makes a
chat line one line of plain words.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from .lookalike import key, mixed_scripts, scripts
from .posing import problem
from .protocol import MAX_NAME

#: Characters that draw nothing but are not in category Cf (Unicode default-ignorables and
#: blank fillers): combining grapheme joiner, Hangul and Khmer fillers, Mongolian variation
#: selectors, the blank Braille pattern, variation selectors.
_INVISIBLE = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0,
     *range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]
)
_RUNS = re.compile(r" {2,}")
#: Control characters (line breaks aside) and the bidirectional controls, which reorder
#: the text drawn after them (a name could make the next words read backwards).
_CONTROLS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                       r"\u2066-\u2069]")
MAX_MARKS = 2  # combining marks on one letter (more is "Zalgo" text that spills over lines)
_SPACES = re.compile(r"\s+")
_CORE = frozenset({"Lu", "Ll", "Lt", "Lo", "Nd", "Nl", "No"})
_REFUSED = {
    "Cc": "control characters (line breaks, tabs, escape codes)",
    "Zl": "line or paragraph separators",
    "Zp": "line or paragraph separators",
    "Cs": "unpaired surrogate characters",
    "Co": "private-use characters",
    "Cn": "unassigned characters",
}


class BadName(ValueError):
    """A name that cannot be used; the message says why, for the person who typed it."""


def _visible(text: str) -> str:
    """``text`` without invisible and format characters, every space (Zs) as one plain
    space, no padding, in NFC. Controls stay, for ``normalize_name`` to refuse by name."""
    kept = []
    for ch in text:
        category = unicodedata.category(ch)
        if category == "Cf" or ord(ch) in _INVISIBLE:
            continue
        kept.append(" " if category == "Zs" else ch)
    text = unicodedata.normalize("NFC", "".join(kept))
    return _RUNS.sub(" ", text).strip(" ")


def normalize_name(raw: str) -> str:
    """The name to show for ``raw``; BadName with a reason when it cannot be a name."""
    name = _visible(raw)
    for ch in name:
        reason = _REFUSED.get(unicodedata.category(ch))
        if reason is not None:
            raise BadName(f"a name cannot contain {reason}")
    if not name:
        raise BadName("a name needs at least one visible character")
    if unicodedata.combining(name[0]) or too_many_marks(name):
        raise BadName(f"a name puts at most {MAX_MARKS} accents on a letter, and starts with "
                      "a letter, not an accent")
    posing = problem(name)
    if posing is not None:
        raise BadName(posing)
    if mixed_scripts(name):
        raise BadName("a name writes its letters in one script, not "
                      f"{' and '.join(sorted(w.title() for w in scripts(name)))} together "
                      "(a letter of another script that looks like one of yours would pass "
                      "for someone else's name)")
    if len(name) > MAX_NAME:
        raise BadName(f"a name has at most {MAX_NAME} characters")
    return name


def too_many_marks(text: str) -> bool:
    """Whether ``text`` stacks more than ``MAX_MARKS`` combining marks on a letter."""
    run = 0
    for ch in unicodedata.normalize("NFD", text):
        run = run + 1 if unicodedata.combining(ch) else 0
        if run > MAX_MARKS:
            return True
    return False


def name_key(name: str) -> str:
    """What must differ between two players' names: case, invisible characters, spacing
    and compatibility forms (full-width letters, ligatures) do not count."""
    text = _SPACES.sub(" ", _visible(name)).strip()
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def lookalike_key(name: str) -> str:
    """What two names that look alike share: the look-alike key (lookalike.key: UTS #39's
    confusable skeleton with case folded, and the look-alikes of Latin letters outside its
    table folded to them) of the name as shown."""
    return key(_SPACES.sub(" ", _visible(name)).strip())


def lookalike_core(name: str) -> str:
    """What two names that look alike share even when one has an extra space, dot, dash
    or accent ("Mal 73", "Mal73." and "Mȧl73" beside "Mal73"): the letters and digits of
    the look-alike key without their accents (the whole key for a name with none)."""
    found = lookalike_key(name)
    core = "".join(ch for ch in found if unicodedata.category(ch) in _CORE)
    return core or found


def chat_text(text: str) -> str:
    """A chat line as the host passes it on: every run of spaces one space, no padding,
    so that nothing typed can push words onto a line of their own."""
    return _SPACES.sub(" ", text).strip()


def without_controls(value: Any) -> Any:
    """``value`` (decoded JSON) with every control character in its strings, line breaks
    aside, and every bidirectional control replaced by U+FFFD: shown even as plain text, an
    escape code would drive the terminal. The host refuses them in names and chat; this
    guards the screen regardless."""
    if isinstance(value, str):
        return _CONTROLS.sub("\ufffd", value)
    if isinstance(value, list):
        return [without_controls(v) for v in value]
    if isinstance(value, dict):
        return {k: without_controls(v) for k, v in value.items()}
    return value

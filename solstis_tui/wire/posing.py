"""Names that pose: a person's name must not read as something the program writes itself.

The screens write a name beside marks and words of the program's own: a bot sits at a
host's table under its tier's title ("Expert", "greedy bot"; "Expert bot (2 cores)" in the
app's list of opponents), a seat or a player gets a mark after the name ("(bot)",
"(guest)", "(away)", "(you)", "(gone)"), a rating follows the name ("Bob 1580", "1500?"
while provisional), an empty seat reads "— open —", and the game log's lines begin with
their own words ("Game over: ..."). ``problem(name)`` says, in words for the person who
typed it, why ``name`` would pass for one of those, or None. Every check compares
look-alike keys (``lookalike.key``), so case, spacing, full-width forms and letters of
other scripts change nothing.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from .lookalike import key, skeleton

#: The bots' tiers as the host's seats and the app's opponent list name them.
TIERS = ("Random", "Greedy", "Minimax", "MCTS", "Expert")
#: Names only the program gives: the screens say "You", an empty seat reads "open" or
#: "(empty seat)"; the game's name; the host and its staff's titles; a person
#: taking one, or one that looks like it in any script ("— ореп —" in Cyrillic), would
#: pass for the other player, a bot, a free seat or the host.
RESERVED = ("You", "Bot", "Host", "Open", "Guest", "Away", "Gone", "Empty", "Empty seat",
            "Nobody", "Waiting", "Solstis", "Admin", "Administrator", "Mod", "Moderator",
            "Staff", "Owner", "Operator", "Sysop", "System", "Server", "Support", "Official",
            *TIERS, *(f"{tier} bot" for tier in TIERS))
#: Marks the screens put after a name.
MARKS = ("(bot)", "(guest)", "(away)", "(you)", "(gone)")
#: Words that read as a mark or a title when set apart from a name by brackets of any
#: kind or by punctuation ("Ann (host)", "Ann ⦅guest⦆", "[mod] Kim", "Eve | staff").
ROLE_WORDS = ("bot", "bots", "host", "admin", "administrator", "mod", "moderator", "staff",
              "guest", "owner", "operator", "sysop", "system", "server", "support",
              "official", "you", "away", "gone", "empty", "open", "nobody", "waiting", "ai",
              "cpu", "computer", "core", "cores", "rated", "unrated", "provisional",
              *(tier.lower() for tier in TIERS))
#: How the game's own log lines begin before a ':' ("Game over: ...", "Second chance: ...",
#: "Eagle: ...") and the turn header's word ("— turn 9: Ann —"): a name that begins with
#: one (in any case, spacing or look-alike letters) would make a chat line, "Game over:
#: Mal ran out of time", read like the game speaking. tests/online/test_names.py checks
#: this against every opening the narrator (solstis_tui/words/narrate.py) writes.
NARRATOR_OPENINGS = ("Game over", "Second chance", "turn", "Renard", "Eagle", "Fly", "Deer",
                     "Beetle", "Viper", "Marmot", "Squirrel")

#: Letters and digits: what a name starts with and what a look-alike key is compared by.
_LETTERS = frozenset({"Lu", "Ll", "Lt", "Lo", "Nd", "Nl", "No"})
#: Letters, digits and the marks on them: what a word is made of.
_CORE = _LETTERS | {"Lm", "Mn", "Mc", "Me"}
_WORDS = re.compile(r"[^\W_]+")  # runs of letters and digits
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")  # "AnnBot": where a word of its own starts
_SPEAKING = re.compile(r":( |$)")  # "Host: the game is void" would read as the host speaking
#: A rating after a name: "Ann 1500", "Ann 1500?", "Ann1500 ?".
_RATING = re.compile(r"(?:(?:^|\s)\d{3,4}|\d\s*\?)$")


def problem(name: str) -> str | None:
    """Why ``name`` (normalised: see names.normalize_name) would pass for a name, mark or
    line of the program's own, in words for the person who typed it; None if it would
    not."""
    text = unicodedata.normalize("NFKC", name)
    looks = (key(text), key(text.casefold()))  # "MlNlMAX" and "minimax": see _variants
    letters = {_letters(look) for look in looks}
    if letters & _reserved():
        return f"'{name}' is, or looks like, a name the program uses itself: choose another"
    if any(found.startswith(_tiers()) for found in letters):
        return (f"'{name}' begins like the name of one of the host's bots "
                f"({', '.join(TIERS)}): a person's name must not pass for a bot: choose "
                "another")
    if _SPEAKING.search(looks[0]):
        return ("a name cannot have ':' before a space or at its end (it would read like "
                "someone speaking)")
    spans = _enclosed(text)
    role = _set_apart_role(text, spans)
    if role is not None:
        return (f"a name cannot carry '{role}' in brackets or set apart by punctuation: it "
                "would read like a mark the program puts after names, such as (bot) or "
                "(guest), or like a title the host gives")
    part = _bracketed_end(text, spans)
    if part is not None:
        return (f"a name cannot end with words in brackets, like '{part}': they would read "
                "like a mark the program puts after names, such as (bot) or (away)")
    if any(len(word) <= 6 and _is(word, _bot_words()) for word in _words(text)):
        return ("a name cannot contain the word 'bot': the host's bots are shown as 'Expert "
                "bot' and the like, and a person's name must not pass for one")
    if _RATING.search(text):
        return ("a name cannot end in a number that reads like a rating ('Ann 1500', "
                "'Ann 1500?'): the screens write each player's rating after their name")
    if unicodedata.category(name[0]) not in _LETTERS:
        return ("a name starts with a letter or a digit (the game's own lines start with a "
                "dash, and chat with a mark)")
    if any(_begins_like_narrator(look) for look in looks):
        return (f"'{name}' begins like one of the game's own lines "
                f"({', '.join(NARRATOR_OPENINGS)}): choose another")
    return None


def _variants(word: str) -> set[str]:
    """The letters of the look-alike keys of ``word`` as written, in capitals and in small
    letters: UTS #39 reads "I" as "l" but "i" as itself, so "MlNlMAX" looks like
    "MINIMAX", and "minimax" like itself."""
    return {_letters(key(form)) for form in (word, word.upper(), word.lower())}


def _is(word: str, among: frozenset[str] | dict[str, str]) -> bool:
    """Whether ``word`` (as written or in small letters) looks like one of ``among``."""
    return any(_letters(key(form)) in among for form in (word, word.casefold()))


def _letters(look: str) -> str:
    """The letters and digits of a look-alike key, without accents and modifier letters
    such as the long dash "ー" ("— open —" and "Open!" are "open")."""
    return "".join(ch for ch in look if unicodedata.category(ch) in _LETTERS)


def _words(text: str) -> list[str]:
    """The words of ``text``: runs of letters and digits, split where a small letter meets
    a capital ("AnnBot" is "Ann" and "Bot")."""
    return [part for word in _WORDS.findall(text) for part in _CAMEL.split(word)]


@functools.lru_cache(maxsize=4096)
def _kind(ch: str) -> str:
    """'(' for an opening bracket of any family (or a look-alike of one), ')' for a
    closing one, '' for anything else."""
    for form in (ch, skeleton(ch)):
        category = unicodedata.category(form[0]) if len(form) == 1 else ""
        if category in ("Ps", "Pi") or form == "<":
            return "("
        if category in ("Pe", "Pf") or form == ">":
            return ")"
    return ""


def _enclosed(text: str) -> list[tuple[int, int]]:
    """Where ``text`` has a part between an opening bracket and its closing one: the two
    brackets' indexes, innermost first (an unclosed part runs to ``len(text)``)."""
    spans: list[tuple[int, int]] = []
    opened: list[int] = []
    for i, ch in enumerate(text):
        kind = _kind(ch)
        if kind == "(":
            opened.append(i)
        elif kind == ")" and opened:
            spans.append((opened.pop(), i))
    return spans + [(i, len(text)) for i in opened]


def _set_apart_role(text: str, spans: list[tuple[int, int]]) -> str | None:
    """The first of ``ROLE_WORDS`` that ``text`` sets apart by brackets or punctuation:
    inside brackets (``spans``: "(host)", "(the h o s t)"), or with anything but a
    letter, a digit or a space right before or after it ("Eve | staff", "mod-Kim")."""
    roles = _roles()
    for start, end in spans:
        inside = _words(text[start + 1:end])
        for word in (*inside, "".join(inside)):
            if _is(word, roles):
                return _role(word)
    for match in _WORDS.finditer(text):
        before = text[:match.start()].rstrip(" ")[-1:]
        after = text[match.end():].lstrip(" ")[:1]
        if not any(ch and unicodedata.category(ch) not in _CORE for ch in (before, after)):
            continue
        for word in _CAMEL.split(match[0]):
            if _is(word, roles):
                return _role(word)
    return None


def _role(word: str) -> str:
    """The role word ``word`` looks like."""
    roles = _roles()
    return next(roles[found] for form in (word, word.casefold())
                if (found := _letters(key(form))) in roles)


def _bracketed_end(text: str, spans: list[tuple[int, int]]) -> str | None:
    """The bracketed part that ends ``text`` when it holds only words, as the program's
    marks do ("(2 cores)", "(UK)"), of ``spans``; None otherwise ("x[/x]" is text, not
    a mark)."""
    last = len(text.rstrip()) - 1
    for start, end in spans:
        if end == last and all(ch == " " or unicodedata.category(ch) in _CORE
                               for ch in text[start + 1:end]):
            return text[start:end + 1]
    return None


def _begins_like_narrator(look: str) -> bool:
    """Whether a look-alike key begins with one of ``NARRATOR_OPENINGS`` as whole words, in
    any case ("Game over 2", "GameOver" and "SQUIRREL" do; "Deere" and "Flynn" do not)."""
    words = _WORDS.findall(look)
    return any("".join(words[:k]) in _openings() for k in range(1, min(len(words), 3) + 1))


@functools.cache
def _openings() -> frozenset[str]:
    return frozenset("".join(_WORDS.findall(key(form))) for opening in NARRATOR_OPENINGS
                     for form in (opening, opening.upper(), opening.lower()))


# The program's words, worked out on first use (the skeleton table loads then).
@functools.cache
def _reserved() -> frozenset[str]:
    return frozenset(found for name in RESERVED for found in _variants(name))


@functools.cache
def _tiers() -> tuple[str, ...]:
    return tuple(found for tier in TIERS for found in _variants(tier))


@functools.cache
def _bot_words() -> frozenset[str]:
    return frozenset(found for word in ("bot", "bots") for found in _variants(word))


@functools.cache
def _roles() -> dict[str, str]:
    """Each role word's look-alike letters (see ``_variants``) -> the word."""
    return {found: word for word in ROLE_WORDS for found in _variants(word)}

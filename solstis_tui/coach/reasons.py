"""Reasons in game terms: what a move does, and what two moves do differently.

``facts(obs, move)`` (``move_facts``, re-exported here) lists what ``move`` does at the
decision pending in ``obs``, as typed ``Fact``s: a biggest section growing, a square
completed, a fire lit, a spirit and its stars, a display tile left to the opponent and its
worth to them, a rainbow placed or blocked, a tile lost, the Evil Spirit passed or placed.
``explain(obs, played, best, names)`` says in one or two short sentences what the judge's
best move and the played one do differently: "Play 4-9 completes the square at 5-8 (a
spirit) and grows your biggest section (5 → 6 tiles). Play 3-2 leaves 4-9 in the display,
worth +2★ to Expert, completing Expert's square at 4-8." ``say`` and ``sentence`` give the
words of one fact and of one move: the narrator's vocabulary and ``words/moves.py``'s move
words.

Only what the deciding seat could see is used (see ``move_facts``). No Textual here: the
review and the hints both read this.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..core import Move, Observation, Spirit
from ..core.board import NAMES
from ..words.moves import describe_move
from ..words.narrate import as_object, possessive
from .move_facts import (
    DEALS,
    PER_MOVE,
    BestCapture,
    CaptureChoice,
    Captures,
    Denied,
    DrawUnseen,
    EvilForbids,
    EvilPassed,
    Fact,
    Firefly,
    FiresLit,
    LeftInDisplay,
    NoCapture,
    RainbowBlocked,
    RainbowOn,
    Section,
    SpiritGain,
    SquareDone,
    SquareNear,
    Stars,
    TileLost,
    ToLine,
    differences,
    facts,
    value,
)

__all__ = [
    "WORDING",
    "BestCapture",
    "CaptureChoice",
    "Captures",
    "Denied",
    "DrawUnseen",
    "EvilForbids",
    "EvilPassed",
    "Fact",
    "Firefly",
    "FiresLit",
    "LeftInDisplay",
    "NoCapture",
    "RainbowBlocked",
    "RainbowOn",
    "Section",
    "SpiritGain",
    "SquareDone",
    "SquareNear",
    "Stars",
    "TileLost",
    "ToLine",
    "differences",
    "explain",
    "facts",
    "say",
    "sentence",
]

#: The reasons' wording: a kept analysis made with another is made afresh (its key says it).
WORDING: Final = 6


def say(fact: Fact, me: int, names: Sequence[str]) -> str:
    """``fact`` as a verb phrase, after a move's words: "grows your biggest section (5 →
    6 tiles)". ``me`` is the deciding seat; ``names`` the seats' names ("You" reads as
    you). Names are plain text: the caller shows the result as text, never markup."""
    def whose(seat: int) -> str:
        return possessive(names[seat])

    def to(seat: int) -> str:
        return as_object(names[seat])

    def worth(seat: int, stars: int, square: int) -> str:
        """A tile's worth to ``seat``: "worth +2★ to Ann", with the square it would
        complete; "where it would complete Ann's square at 2-7" when the stars are 0."""
        if square < 0:
            return f"worth {stars:+d}★ to {to(seat)}"
        done = f"{whose(seat)} square at {NAMES[square]}"
        if stars == 0:
            return f"where it would complete {done} (a spirit)"
        return f"worth {stars:+d}★ to {to(seat)}, completing {done}"

    match fact:
        case Stars(seat=seat, before=before, after=after):
            if after == before:
                return f"keeps {whose(seat)} score at {after}★"
            return f"brings {whose(seat)} score to {after}★ ({after - before:+d})"
        case Captures(target=target):
            return f"captures {NAMES[target]}"
        case CaptureChoice(targets=targets):
            return f"can capture {_or(targets)}"
        case BestCapture(target=target, gain=gain):
            return f"adds {gain}★ now if it captures {NAMES[target]}"
        case NoCapture(seat=seat, stars=stars, square=square):
            if stars <= 0 and square < 0:
                return "captures nothing (it joins the display: a second chance)"
            return (f"captures nothing: it joins the display, {worth(seat, stars, square)} "
                    "(then a second chance)")
        case Section(seat=seat, before=before, after=after):
            verb = "grows" if after > before else "shrinks"
            tiles = "tile" if after == 1 else "tiles"
            return f"{verb} {whose(seat)} biggest section ({before} → {after} {tiles})"
        case SquareDone(squares=squares, spirit=spirit, fireflies=fireflies):
            if len(squares) == 1:
                where = f"the square at {NAMES[squares[0]]}"
            else:
                where = f"the squares at {_and([NAMES[s] for s in squares])}"
            if not spirit:
                return f"completes {where} (no spirit is left to meet)"
            if len(squares) == 1:
                return f"completes {where} (a spirit)"
            if not fireflies:
                return f"completes {where} (one spirit, on one of them)"
            others = "the other" if len(squares) == 2 else "each of the others"
            return f"completes {where} (a spirit on one, a firefly on {others})"
        case SquareNear(square=square):
            return f"brings the square at {NAMES[square]} to 3 of its 4 cells"
        case Denied(seat=seat, tile=tile, stars=stars, square=square):
            them = to(seat)
            you = them == "you"
            done = (f"{'your' if you else 'their'} square at {NAMES[square]}"
                    if square >= 0 else "")
            if stars == 0 and done:
                return f"keeps {NAMES[tile]} from {them} (it would complete {done})"
            why = f", completing {done}" if done else ""
            return (f"keeps {NAMES[tile]} from {them} "
                    f"(worth {stars:+d}★ to {'you' if you else 'them'}{why})")
        case FiresLit(seat=seat, before=before, after=after):
            lit = "a fire" if after - before == 1 else f"{after - before} fires"
            return f"lights {lit} ({before} → {after} lit)"
        case SpiritGain(spirit=spirit, stars=stars):
            return f"is worth {stars}★ now{_EFFECTS.get(spirit, '')}"
        case ToLine(seat=seat, spirit=spirit, stars=stars):
            return f"puts the {spirit.title} on the line, worth {stars}★ to {to(seat)}"
        case DrawUnseen(pile=pile):
            unseen = "1 unseen spirit" if pile == 1 else f"{pile} unseen spirits"
            return f"leaves it to luck ({unseen} in the pile)"
        case LeftInDisplay(seat=seat, tile=tile, stars=stars, square=square):
            return f"leaves {NAMES[tile]} in the display, {worth(seat, stars, square)}"
        case RainbowOn(cell=cell):
            return f"places a rainbow on {NAMES[cell]}"
        case RainbowBlocked(cell=cell):
            return f"blocks the rainbow on {NAMES[cell]} (a tile for that cell would be lost)"
        case TileLost(tile=tile):
            return f"loses {NAMES[tile]} (its cell is blocked or forbidden)"
        case EvilPassed(seat=seat):
            return f"passes the Evil Spirit to {to(seat)}"
        case EvilForbids(seat=seat, cell=cell):
            return f"forbids {whose(seat)} cell {NAMES[cell]}"
        case Firefly(square=square, count=count):
            return f"puts a firefly on the square at {NAMES[square]} (firefly {count} of 4)"
    raise AssertionError(f"no words for {fact!r}")


#: What a spirit adds besides its stars now: a plain one's effect, a blue one's rule.
_EFFECTS: Final = {
    Spirit.FISH: ", plus a rainbow", Spirit.DEER: ", plus a hand tile placed",
    Spirit.EAGLE: ", plus a tile from the pile", Spirit.BEAR: ", plus a 4th hand tile",
    Spirit.FLY: ", plus a tile from the other hand", Spirit.BEETLE: ", plus a display tile",
    Spirit.MARMOT: ", plus another turn", Spirit.VIPER: ", plus an isolated tile taken",
    Spirit.RENARD: ", plus the other's next tile chosen",
    Spirit.SQUIRREL: ", plus the tiles left in hand at the end",
    Spirit.BEE: " (+1 per plain spirit)", Spirit.LADYBUG: " (+1 per unlit fire)",
    Spirit.WOLF: " (+1 per section)", Spirit.BIRD: " (+1 per other blue spirit)",
    Spirit.FROG: " (+1 per rainbow)", Spirit.BUTTERFLY: " (+1 per lit fire)",
    Spirit.COW: " (+1 per tile of the second section)",
    Spirit.PHOENIX: " (+1 per firefly)",
}


def _and(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _or(tiles: Sequence[int]) -> str:
    names = [NAMES[t] for t in tiles]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


def sentence(move: Move, said: Sequence[Fact], me: int, names: Sequence[str],
             subject: str | None = None) -> str:
    """One sentence: ``move``'s words (or ``subject``, e.g. "it"), then what ``said``
    says it does."""
    subject = _upper(subject if subject is not None else describe_move(move))
    phrases = [say(f, me, names) for f in said]
    if not phrases:
        return f"{subject} changes nothing the judge can name this turn."
    if len(phrases) == 1:
        return f"{subject} {phrases[0]}."
    return f"{subject} {', '.join(phrases[:-1])} and {phrases[-1]}."


def explain(obs: Observation, played: Move, best: Move, names: Sequence[str],
            deals: int = DEALS, best_as: str | None = None) -> str:
    """Why ``best`` (the judge's) is better than ``played``, in one or two short sentences,
    from the deciding seat's observation ``obs``; ``names`` are the seats' names ("You"
    reads as you). The decisive difference comes first: the largest gain of ``best`` or
    cost of ``played`` that the other move does not share. A fact true of both moves is
    never said. The same move twice: what it does. ``best_as`` names the best move
    instead of its words (a hint that has named it: "it"). The words are plain text: show
    them as text, never as markup."""
    me = obs.player
    only_best, only_played, follows = differences(obs, played, best, deals)
    best_words = best_as if best_as is not None else describe_move(best)
    if played == best:
        return sentence(best, only_best, me, names, best_as)
    if not only_best and not only_played:
        if follows:
            return (f"{_upper(best_words)} does what {describe_move(played)} does this "
                    "turn: the difference is in what may follow.")
        return (f"{_upper(best_words)} and {describe_move(played)} come to the same: the "
                "coach can name no difference between them.")
    gains = sorted((f for f in only_best if value(f, me) > 0), key=lambda f: -value(f, me))
    costs = sorted((f for f in only_played if value(f, me) < 0), key=lambda f: value(f, me))
    net = sum(value(f, me) for f in only_best) - sum(value(f, me) for f in only_played)
    if net <= 0 or not (gains or costs):
        # What each does points the other way: the best costs something now, the played
        # move gains something; the judge's reason lies beyond this turn.
        return (f"{sentence(best, only_best, me, names, best_as)} "
                f"{sentence(played, only_played, me, names)} The judge looks beyond this "
                f"turn, and values {best_words} higher there.")
    rest_best = [f for f in only_best if f not in gains]
    rest_played = [f for f in only_played if f not in costs]
    best_says = sentence(best, (gains + rest_best)[:PER_MOVE], me, names, best_as) \
        if gains else None
    played_says = sentence(played, (costs + rest_played)[:PER_MOVE], me, names) \
        if costs else None
    if best_says is None:  # the decisive fact is the played move's cost
        assert played_says is not None
        if not only_best:
            return f"{played_says} {_upper(best_words)} does not."
        best_told = sentence(best, only_best, me, names, best_as)
        return f"{best_told} {played_says}" if best_as else f"{played_says} {best_told}"
    if played_says is None:
        if not only_played:
            return f"{best_says} {_upper(describe_move(played))} does not."
        return f"{best_says} {sentence(played, only_played, me, names)}"
    first_gain, first_cost = value(gains[0], me), -value(costs[0], me)
    return f"{best_says} {played_says}" if first_gain >= first_cost or best_as \
        else f"{played_says} {best_says}"


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]

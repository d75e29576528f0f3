"""The game log in plain words: log events become sentences a player reads.

"You played 3-5 and captured 3-8"; "Minimax drew two spirits and kept the Bee". The events
come from an ``Observation``'s log, where what the seat may not see is already hidden (a
``draw``'s tile is None): this module hides nothing itself. One formatter per event kind,
in ``FORMATTERS``; a formatter may merge the events that follow into one sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import Spirit, cell_name

NameOf = Callable[[int], str]
Event = tuple[Any, ...]


@dataclass(frozen=True)
class Context:
    """Who is who: ``name_of`` a player, and the seat the log is read from (None: nobody's
    in particular, e.g. a shared hot-seat screen or a watcher)."""

    name_of: NameOf
    viewer: int | None


#: ``(events, i, context) -> (sentence or None, how many events it used)``.
Formatter = Callable[[Sequence[Event], int, Context], tuple[str | None, int]]


def _t(tile: int | None) -> str:
    return cell_name(tile) if tile is not None and tile >= 0 else "a tile"


def _s(spirit: int) -> str:
    return Spirit(spirit).title


def _tiles(tiles: Sequence[int]) -> str:
    names = [_t(t) for t in tiles]
    if len(names) <= 1:
        return "".join(names) or "nothing"
    return ", ".join(names[:-1]) + " and " + names[-1]


def _you(name: str) -> bool:
    """The reader themself: the screens call them "You"."""
    return name == "You"


def _poss(name: str, start: bool = False) -> str:
    """``name``'s possessive: "Ann's", or "your" ("Your" to start a sentence) for You."""
    if _you(name):
        return "Your" if start else "your"
    return f"{name}'s"


def _obj(name: str) -> str:
    """``name`` as an object, mid-sentence: "to Ann", "to you"."""
    return "you" if _you(name) else name


def _verb(name: str, third: str, plain: str) -> str:
    """The verb form agreeing with ``name``: "Ann plays" but "You play"."""
    return plain if _you(name) else third


def _next(events: Sequence[Event], i: int, kind: str, tile: int) -> Event | None:
    """The event after ``i`` if it is a ``kind`` event about ``tile`` (capture/discard)."""
    if i + 1 < len(events) and events[i + 1][0] == kind and events[i + 1][2] == tile:
        return events[i + 1]
    return None


def _simple(words: Callable[[Event, Context], str | None]) -> Formatter:
    """A formatter for a kind that is always one sentence of its own."""
    def format_one(events: Sequence[Event], i: int, ctx: Context) -> tuple[str | None, int]:
        return words(events[i], ctx), 1
    return format_one


def _play(events: Sequence[Event], i: int, ctx: Context) -> tuple[str | None, int]:
    _, p, tile = events[i]
    who = ctx.name_of(p)
    if (cap := _next(events, i, "capture", tile)) is not None:
        return f"{who} played {_t(tile)} and captured {_t(cap[3])}", 2
    if _next(events, i, "discard", tile) is not None:
        return f"{who} played {_t(tile)}; it captures nothing and joins the display", 2
    return f"{who} played {_t(tile)}", 1


def _second(events: Sequence[Event], i: int, ctx: Context) -> tuple[str | None, int]:
    _, p, tile = events[i]
    who = ctx.name_of(p)
    if (cap := _next(events, i, "capture", tile)) is not None:
        return f"Second chance: {who} drew {_t(tile)} and captured {_t(cap[3])} with it", 2
    if _next(events, i, "discard", tile) is not None:
        return f"Second chance: {who} drew {_t(tile)}; it captures nothing either", 2
    return f"Second chance: {who} drew {_t(tile)}", 1


def _spirits_drawn(events: Sequence[Event], i: int, ctx: Context) -> tuple[str | None, int]:
    _, p, spirits = events[i]
    who = ctx.name_of(p)
    if len(spirits) != 2:
        return f"{who} drew the last spirit: the {' and the '.join(_s(s) for s in spirits)}", 1
    if i + 2 < len(events) and events[i + 1][0] == "to_line" and events[i + 2][0] == "keep":
        kept, lined = events[i + 2][2], events[i + 1][1]
        return (f"{who} drew two spirits ({_s(spirits[0])}, {_s(spirits[1])}) and kept the "
                f"{_s(kept)}; the {_s(lined)} goes to the line"), 3
    return f"{who} drew two spirits: the {_s(spirits[0])} and the {_s(spirits[1])}", 1


def _reveal(ev: Event, ctx: Context) -> str:
    _, p, tiles = ev
    # The looker's sentence: the other seat reads that its (own, known) hand was looked at.
    who = ctx.name_of(p)
    if tiles is not None and ctx.viewer in (None, p):
        return f"Renard: {who} {_verb(who, 'sees', 'see')} the opponent's hand: {_tiles(tiles)}"
    return f"Renard: {who} {_verb(who, 'looks', 'look')} at the opponent's hand"


def _removed(ev: Event, ctx: Context) -> str:
    reason = ("a blocked rainbow sits there" if ev[3] == "blocked"
              else "the Evil Spirit forbids that cell")
    return f"{_t(ev[2])} left the game ({reason})"


def _end(ev: Event, ctx: Context) -> str:
    _, reason, winner = ev
    if reason == "fireflies":
        name = ctx.name_of(winner)
        return f"Game over: {name} placed a 4th firefly and {_verb(name, 'wins', 'win')}"
    if winner is None:
        return "Game over: a shared win"
    if reason in ("resigned", "time"):
        name = ctx.name_of(winner)
        why = "resigned" if reason == "resigned" else "ran out of time"
        return (f"Game over: {ctx.name_of(1 - winner)} {why}, so {name} "
                f"{_verb(name, 'wins', 'win')}")
    name = ctx.name_of(winner)
    return f"Game over: {name} {_verb(name, 'wins', 'win')}"


def _turn(ev: Event, ctx: Context) -> str:
    tail = " (end phase: only captures)" if ev[3] else ""
    return f"— turn {ev[2]}: {ctx.name_of(ev[1])}{tail} —"


FORMATTERS: dict[str, Formatter] = {
    "turn": _simple(_turn),
    "play": _play,
    "second": _second,
    "spirits_drawn": _spirits_drawn,
    "capture": _simple(lambda e, c: f"{c.name_of(e[1])} captured {_t(e[3])} with {_t(e[2])}"),
    "pass": _simple(lambda e, c: f"{c.name_of(e[1])} cannot capture and passed"),
    "discard": _simple(lambda e, c: f"{_t(e[2])} joins the display"),
    "flip": _simple(lambda e, c: f"{_t(e[1])} was turned face up in the display"),
    "place": _simple(lambda e, c: None),  # implied by the capture/effect that caused it
    "rainbow": _simple(lambda e, c: f"{c.name_of(e[1])} placed a rainbow on {_t(e[2])}"),
    "no_rainbow": _simple(
        lambda e, c: f"{c.name_of(e[1])} would get a rainbow, but none can be placed"),
    "shift": _simple(lambda e, c: f"{_poss(c.name_of(e[1]), start=True)} rainbow moved from "
                                  f"{_t(e[2])} to {_t(e[3])}"),
    "rainbow_out": _simple(lambda e, c: f"{_poss(c.name_of(e[1]), start=True)} rainbow on "
                                        f"{_t(e[2])} had nowhere to go: back to the box"),
    "removed": _simple(_removed),
    "draw": _simple(lambda e, c: f"{c.name_of(e[1])} drew {_t(e[2])}"),
    "keep": _simple(lambda e, c: f"{c.name_of(e[1])} kept the {_s(e[2])}"),
    "to_line": _simple(lambda e, c: f"The {_s(e[1])} goes to the spirit line"),
    "take": _simple(lambda e, c: f"{c.name_of(e[1])} took the {_s(e[2])} from the spirit line"),
    "spirit": _simple(
        lambda e, c: f"The {_s(e[2])} sits on {_poss(c.name_of(e[1]))} square at {_t(e[3])}"),
    "no_spirit": _simple(lambda e, c: f"{c.name_of(e[1])} formed a square, but no spirit is left"),
    "firefly": _simple(
        lambda e, c: f"A firefly lands on {_poss(c.name_of(e[1]))} square at {_t(e[2])}"),
    "lost": _simple(lambda e, c: f"The {_s(e[2])}'s effect is lost: it cannot happen now"),
    "eagle": _simple(lambda e, c: f"Eagle: {_t(e[2])} came from the land pile into "
                                  f"{_poss(c.name_of(e[1]))} panorama"),
    "fly": _simple(
        lambda e, c: f"Fly: {c.name_of(e[1])} took {_t(e[2])} from the opponent's hand"),
    "deer": _simple(
        lambda e, c: f"Deer: {c.name_of(e[1])} put {_t(e[2])} from hand into the panorama"),
    "beetle": _simple(lambda e, c: f"Beetle: {c.name_of(e[1])} took {_t(e[2])} from the display"),
    "viper": _simple(
        lambda e, c: f"Viper: {c.name_of(e[1])} took the isolated tile {_t(e[2])}"),
    "reveal": _simple(_reveal),
    "renard": _simple(
        lambda e, c: f"Renard: {c.name_of(1 - e[1])} must play {_t(e[2])} next turn"),
    "marmot": _simple(lambda e, c: f"Marmot: {c.name_of(e[1])} "
                                   f"{_verb(c.name_of(e[1]), 'plays', 'play')} another turn"),
    "evil_kept": _simple(
        lambda e, c: f"{c.name_of(e[1])} drew the Evil Spirit and must hold it"),
    "evil_given": _simple(lambda e, c: f"{c.name_of(e[1])} "
                                       f"{_verb(c.name_of(e[1]), 'gives', 'give')} the Evil "
                                       f"Spirit to {_obj(c.name_of(1 - e[1]))}"),
    "evil_placed": _simple(lambda e, c: f"{c.name_of(e[1])} put the Evil Spirit on "
                                        f"{_poss(c.name_of(1 - e[1]))} cell {_t(e[2])}: it is "
                                        "forbidden"),
    "evil_out": _simple(lambda e, c: "The Evil Spirit has no cell to go to and leaves play"),
    "cover": _simple(lambda e, c: f"{c.name_of(e[1])} made the Evil Spirit cover "
                                  f"{_poss(c.name_of(e[2]))} {_s(e[3])}"),
    "squirrel": _simple(lambda e, c: f"Squirrel: {c.name_of(e[1])} "
                                     f"{_verb(c.name_of(e[1]), 'puts', 'put')} "
                                     f"{_tiles(e[2])} into the panorama"),
    "end": _simple(_end),
}


def _unknown(events: Sequence[Event], i: int, ctx: Context) -> tuple[str | None, int]:
    return " ".join(str(x) for x in events[i]), 1


def narrate(events: Sequence[Event], name_of: NameOf, viewer: int | None = None) -> list[str]:
    """Sentences for ``events`` (a slice of an observation's log), merging what belongs
    together. ``viewer``: the seat reading the log (None: no seat in particular)."""
    ctx = Context(name_of, viewer)
    lines: list[str] = []
    i = 0
    while i < len(events):
        text, used = FORMATTERS.get(events[i][0], _unknown)(events, i, ctx)
        if text:
            lines.append(text)
        i += used
    return lines

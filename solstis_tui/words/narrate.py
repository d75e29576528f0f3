"""The one narrator: the game's typed events become sentences a player reads.

"You played 3-5 and captured 3-8"; "Minimax drew two spirits and kept the Bee". The events
come from an ``Observation``'s log, where what the seat may not see is already hidden (a
``Drew`` event's tile is None): this module hides nothing itself.

Both the game log (``narrate``) and the summary of the other player's last turn
(``turn_summary``, shown above the log however far it has scrolled) are told here, in the
same words: the summary is the turn's sentences less the refills, with the player's name
said once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core import Spirit, cell_name
from ..core.events import (
    BeetleTook,
    Captured,
    Covered,
    DeerPlaced,
    Discarded,
    Drew,
    EagleDrew,
    EffectLost,
    EndReason,
    Event,
    EvilGiven,
    EvilKept,
    EvilOut,
    EvilPlaced,
    FireflyPlaced,
    Flipped,
    FlyTook,
    GameEnded,
    Kept,
    MarmotTurn,
    NoSpirit,
    Passed,
    Placed,
    Played,
    RainbowLost,
    RainbowOut,
    RainbowPlaced,
    RainbowShifted,
    Removed,
    RenardChose,
    Revealed,
    SecondChance,
    SpiritPlaced,
    SpiritsDrawn,
    SquirrelPlaced,
    ToLine,
    Took,
    TurnBegan,
    ViperTook,
)

NameOf = Callable[[int], str]

#: What a turn's summary leaves out: the turn's start, refills and what they turned up.
ROUTINE = (TurnBegan, Drew, Flipped, Placed, GameEnded)


@dataclass(frozen=True)
class Context:
    """Who is who: ``name_of`` a player, and the seat the log is read from (None: nobody's
    in particular, e.g. a shared hot-seat screen or a watcher). ``brief``: the words of a
    turn's summary, where the player is named once, in front, and a line is scarce."""

    name_of: NameOf
    viewer: int | None
    brief: bool = False


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


def possessive(name: str, start: bool = False) -> str:
    """``name``'s possessive: "Ann's", or "your" ("Your" to start a sentence) for You."""
    if _you(name):
        return "Your" if start else "your"
    return f"{name}'s"


def as_object(name: str) -> str:
    """``name`` as an object, mid-sentence: "to Ann", "to you"."""
    return "you" if _you(name) else name


def _verb(name: str, third: str, plain: str) -> str:
    """The verb form agreeing with ``name``: "Ann plays" but "You play"."""
    return plain if _you(name) else third


def _played(events: Sequence[Event], i: int, who: str, tile: int,
            second: bool, brief: bool = False) -> tuple[str, int]:
    """A played (or second-chance) tile, with the capture or discard that follows it."""
    nxt = events[i + 1] if i + 1 < len(events) else None
    if brief:
        what = f"second chance {_t(tile)}" if second else f"played {_t(tile)}"
        if isinstance(nxt, Captured) and nxt.tile == tile:
            return f"{what} captured {_t(nxt.target)}", 2
        if isinstance(nxt, Discarded) and nxt.tile == tile:
            return f"{what} (no capture)", 2
        return what, 1
    if isinstance(nxt, Captured) and nxt.tile == tile:
        if second:
            return f"Second chance: {who} drew {_t(tile)} and captured {_t(nxt.target)} " \
                   "with it", 2
        return f"{who} played {_t(tile)} and captured {_t(nxt.target)}", 2
    if isinstance(nxt, Discarded) and nxt.tile == tile:
        if second:
            return f"Second chance: {who} drew {_t(tile)}; it captures nothing either", 2
        return f"{who} played {_t(tile)}; it captures nothing and joins the display", 2
    return (f"Second chance: {who} drew {_t(tile)}" if second
            else f"{who} played {_t(tile)}"), 1


def _spirits_drawn(events: Sequence[Event], i: int, ev: SpiritsDrawn,
                   who: str, brief: bool = False) -> tuple[str, int]:
    spirits = ev.spirits
    if brief:
        drawn = "+".join(_s(s) for s in spirits)
        for j in range(i + 1, min(i + 4, len(events))):  # the kept one, past the Evil Spirit
            kept = events[j]
            if isinstance(kept, Kept):
                return f"drew {drawn}, kept the {_s(kept.spirit)}", 1
        return f"drew {drawn}", 1
    if len(spirits) != 2:
        return f"{who} drew the last spirit: the {' and the '.join(_s(s) for s in spirits)}", 1
    if i + 2 < len(events):
        lined, kept = events[i + 1], events[i + 2]
        if isinstance(lined, ToLine) and isinstance(kept, Kept):
            return (f"{who} drew two spirits ({_s(spirits[0])}, {_s(spirits[1])}) and kept "
                    f"the {_s(kept.spirit)}; the {_s(lined.spirit)} goes to the line"), 3
    return f"{who} drew two spirits: the {_s(spirits[0])} and the {_s(spirits[1])}", 1


def outcome(reason: EndReason | None, winner: int | None, name_of: NameOf) -> str:
    """How a finished game ended, in a few words: "Ben ran out of time, so you win", "Ann
    placed a 4th firefly and wins", "a shared win", "You win"."""
    if reason is EndReason.ABANDONED:
        return "the game was abandoned, and counts for nobody"
    if winner is None:
        return "a shared win"
    name = name_of(winner)
    wins = _verb(name, "wins", "win")
    if reason is EndReason.FIREFLIES:
        return f"{name} placed a 4th firefly and {wins}"
    if reason in (EndReason.RESIGNED, EndReason.TIME):
        why = "resigned" if reason is EndReason.RESIGNED else "ran out of time"
        return f"{name_of(1 - winner)} {why}, so {as_object(name)} {wins}"
    return f"{name} {wins}"


def _reveal(ev: Revealed, ctx: Context) -> str:
    # The looker's sentence: the other seat reads that its (own, known) hand was looked at.
    who = ctx.name_of(ev.player)
    if ev.tiles is not None and ctx.viewer in (None, ev.player):
        return f"Renard: {who} {_verb(who, 'sees', 'see')} the opponent's hand: " \
               f"{_tiles(ev.tiles)}"
    return f"Renard: {who} {_verb(who, 'looks', 'look')} at the opponent's hand"


def tell(events: Sequence[Event], i: int, ctx: Context) -> tuple[str | None, int]:
    """The sentence for ``events[i]`` (None: nothing worth a line) and how many events it
    told: a played tile and its capture are one sentence, and so are two spirits drawn,
    the one sent to the line and the one kept."""
    ev = events[i]
    name = ctx.name_of
    match ev:
        case TurnBegan(player=p, number=n, end_phase=end_phase):
            tail = " (end phase: only captures)" if end_phase else ""
            return f"— turn {n}: {name(p)}{tail} —", 1
        case Played(player=p, tile=tile):
            return _played(events, i, name(p), tile, second=False, brief=ctx.brief)
        case SecondChance(player=p, tile=tile):
            return _played(events, i, name(p), tile, second=True, brief=ctx.brief)
        case SpiritsDrawn(player=p):
            return _spirits_drawn(events, i, ev, name(p), brief=ctx.brief)
        case _:
            if ctx.brief and (short := _brief(ev, ctx)) is not None:
                return short or None, 1
            return _one(ev, ctx), 1


def _brief(ev: Event, ctx: Context) -> str | None:
    """A turn summary's shorter words for ``ev`` ('' to leave it out; None: the log's)."""
    name = ctx.name_of
    match ev:
        case Kept() | ToLine():
            return ""  # told with the spirits drawn
        case RainbowPlaced(cell=cell):
            return f"rainbow on {_t(cell)}"
        case SpiritPlaced(spirit=spirit, square=square):
            return f"{_s(spirit)} on square {_t(square)}"
        case EvilKept():
            return "holds the Evil Spirit"
        case EvilGiven(player=p):
            return f"gave the Evil Spirit to {as_object(name(1 - p))}"
        case EagleDrew(tile=tile):
            return f"Eagle: {_t(tile)}"
        case DeerPlaced(tile=tile):
            return f"Deer: {_t(tile)}"
        case BeetleTook(tile=tile):
            return f"Beetle: {_t(tile)}"
        case ViperTook(tile=tile):
            return f"Viper: {_t(tile)}"
        case FlyTook(player=p, tile=tile):
            return f"Fly: took {_t(tile)} from {possessive(name(1 - p))} hand"
        case MarmotTurn():
            return "Marmot: another turn"
        case Covered(holder=holder, spirit=spirit):
            return f"Evil Spirit covers {possessive(name(holder))} {_s(spirit)}"
    return None


def _one(ev: Event, ctx: Context) -> str | None:
    """The sentence of an event that is always told on its own."""
    name = ctx.name_of
    match ev:
        case Captured(player=p, tile=tile, target=target):
            return f"{name(p)} captured {_t(target)} with {_t(tile)}"
        case Passed(player=p):
            return f"{name(p)} cannot capture and passed"
        case Discarded(tile=tile):
            return f"{_t(tile)} joins the display"
        case Flipped(tile=tile):
            return f"{_t(tile)} was turned face up in the display"
        case Placed():
            return None  # implied by the capture or effect that caused it
        case RainbowPlaced(player=p, cell=cell):
            return f"{name(p)} placed a rainbow on {_t(cell)}"
        case RainbowLost(player=p):
            return f"{name(p)} would get a rainbow, but none can be placed"
        case RainbowShifted(player=p, tile=tile, cell=cell):
            return f"{possessive(name(p), start=True)} rainbow moved from {_t(tile)} to {_t(cell)}"
        case RainbowOut(player=p, tile=tile):
            return f"{possessive(name(p), start=True)} rainbow on {_t(tile)} had nowhere to go: " \
                   "back to the box"
        case Removed(tile=tile, why=why):
            reason = ("a blocked rainbow sits there" if why == "blocked"
                      else "the Evil Spirit forbids that cell")
            return f"{_t(tile)} left the game ({reason})"
        case Drew(player=p, tile=tile):
            return f"{name(p)} drew {_t(tile)}"
        case Kept(player=p, spirit=spirit):
            return f"{name(p)} kept the {_s(spirit)}"
        case ToLine(spirit=spirit):
            return f"The {_s(spirit)} goes to the spirit line"
        case Took(player=p, spirit=spirit):
            return f"{name(p)} took the {_s(spirit)} from the spirit line"
        case SpiritPlaced(player=p, spirit=spirit, square=square):
            return f"The {_s(spirit)} sits on {possessive(name(p))} square at {_t(square)}"
        case NoSpirit(player=p):
            return f"{name(p)} formed a square, but no spirit is left"
        case FireflyPlaced(player=p, square=square):
            return f"A firefly lands on {possessive(name(p))} square at {_t(square)}"
        case EffectLost(spirit=spirit):
            return f"The {_s(spirit)}'s effect is lost: it cannot happen now"
        case EagleDrew(player=p, tile=tile):
            return f"Eagle: {_t(tile)} came from the land pile into {possessive(name(p))} panorama"
        case FlyTook(player=p, tile=tile):
            return f"Fly: {name(p)} took {_t(tile)} from the opponent's hand"
        case DeerPlaced(player=p, tile=tile):
            return f"Deer: {name(p)} put {_t(tile)} from hand into the panorama"
        case BeetleTook(player=p, tile=tile):
            return f"Beetle: {name(p)} took {_t(tile)} from the display"
        case ViperTook(player=p, tile=tile):
            return f"Viper: {name(p)} took the isolated tile {_t(tile)}"
        case Revealed():
            return _reveal(ev, ctx)
        case RenardChose(player=p, tile=tile):
            return f"Renard: {name(1 - p)} must play {_t(tile)} next turn"
        case MarmotTurn(player=p):
            return f"Marmot: {name(p)} {_verb(name(p), 'plays', 'play')} another turn"
        case EvilKept(player=p):
            return f"{name(p)} drew the Evil Spirit and must hold it"
        case EvilGiven(player=p):
            return f"{name(p)} {_verb(name(p), 'gives', 'give')} the Evil Spirit to " \
                   f"{as_object(name(1 - p))}"
        case EvilPlaced(player=p, cell=cell):
            return f"{name(p)} put the Evil Spirit on {possessive(name(1 - p))} cell {_t(cell)}: " \
                   "it is forbidden"
        case EvilOut():
            return "The Evil Spirit has no cell to go to and leaves play"
        case Covered(chooser=chooser, holder=holder, spirit=spirit):
            return f"{name(chooser)} made the Evil Spirit cover {possessive(name(holder))} " \
                   f"{_s(spirit)}"
        case SquirrelPlaced(player=p, tiles=tiles):
            return f"Squirrel: {name(p)} {_verb(name(p), 'puts', 'put')} {_tiles(tiles)} " \
                   "into the panorama"
        case GameEnded(reason=reason, winner=winner):
            return f"Game over: {outcome(reason, winner, name)}"
    return f"{ev.kind}"  # a kind this narrator does not know yet: at least its name


def narrate(events: Sequence[Event], name_of: NameOf, viewer: int | None = None) -> list[str]:
    """Sentences for ``events`` (a slice of an observation's log), merging what belongs
    together. ``viewer``: the seat reading the log (None: no seat in particular)."""
    ctx = Context(name_of, viewer)
    lines: list[str] = []
    i = 0
    while i < len(events):
        text, used = tell(events, i, ctx)
        if text:
            lines.append(text)
        i += used
    return lines


def turns(events: Sequence[Event]) -> list[tuple[int, list[Event]]]:
    """The log cut into turns: (whose turn, its events after the ``TurnBegan``)."""
    out: list[tuple[int, list[Event]]] = []
    for ev in events:
        if isinstance(ev, TurnBegan):
            out.append((ev.player, []))
        elif out and not isinstance(ev, GameEnded):
            out[-1][1].append(ev)
    return out


def _turn_sentences(events: Sequence[Event], ctx: Context, player: int) -> list[str]:
    """The narrator's brief words for one turn's events, less the routine ones, with the
    player's own name left out where a phrase starts with it."""
    told = [e for e in events if not isinstance(e, ROUTINE)]
    subject = ctx.name_of(player) + " "
    out = []
    i = 0
    while i < len(told):
        line, used = tell(told, i, ctx)
        i += used
        if line:
            out.append(line[len(subject):] if line.startswith(subject) else line)
    return out


def turn_summary(events: Sequence[Event], name_of: NameOf, other: int | None,
                 viewer: int | None = None) -> str:
    """The latest turn of ``other`` (None: of whoever played last) with anything to tell,
    the turn in progress included, in the narrator's brief words: "Expert's turn: played
    1-10 captured 3-5; rainbow on 4-7; ..." ('' when there is none yet). Every event of the
    turn is in it, however long: the screen wraps it. Turns in a row of the same player
    (a Marmot's extra turn) are told together."""
    ctx = Context(name_of, viewer, brief=True)
    cut = turns(events)
    k = len(cut) - 1
    while k >= 0 and not ((other is None or cut[k][0] == other)
                          and _turn_sentences(cut[k][1], ctx, cut[k][0])):
        k -= 1
    if k < 0:
        return ""
    player = cut[k][0]
    first = k
    while first > 0 and cut[first - 1][0] == player:
        first -= 1
    sentences: list[str] = []
    for _, evs in cut[first:k + 1]:
        sentences.extend(_turn_sentences(evs, ctx, player))
    return f"{possessive(name_of(player), start=True)} turn: " + "; ".join(sentences)

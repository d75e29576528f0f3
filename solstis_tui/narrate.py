"""The game log in plain words: ``Game.log`` events become sentences a player reads.

"You played 3-5 and captured 3-8"; "Minimax drew two spirits and kept the Bee". A ``draw``
event's tile is shown only to the player who drew it (``viewer``); pass ``viewer=None`` to
hide every private tile (hot-seat) or ``omniscient=True`` to show them all (watch mode).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .core import Spirit, cell_name

NameOf = Callable[[int], str]


def _t(tile: int | None) -> str:
    return cell_name(tile) if tile is not None and tile >= 0 else "a tile"


def _s(spirit: int) -> str:
    return Spirit(spirit).title


def _tiles(tiles: Sequence[int]) -> str:
    names = [_t(t) for t in tiles]
    if len(names) <= 1:
        return "".join(names) or "nothing"
    return ", ".join(names[:-1]) + " and " + names[-1]


def _verb(name: str, you: str, other: str) -> str:
    """'You play' / 'Minimax plays': pick the verb form for the subject."""
    return you if name == "You" else other


def narrate(
    events: Sequence[tuple],
    name_of: NameOf,
    viewer: int | None = None,
    omniscient: bool = False,
) -> list[str]:
    """Sentences for ``events`` (a slice of ``Game.log``), merging what belongs together."""
    lines: list[str] = []
    i = 0
    n = len(events)
    while i < n:
        ev = events[i]
        nxt = events[i + 1] if i + 1 < n else None
        kind = ev[0]
        text: str | None = None
        if kind == "turn":
            _, p, number, end_phase = ev
            tail = " (end phase: only captures)" if end_phase else ""
            text = f"— turn {number}: {name_of(p)}{tail} —"
        elif kind == "play":
            _, p, tile = ev
            who = name_of(p)
            if nxt is not None and nxt[0] == "capture" and nxt[2] == tile:
                text = f"{who} played {_t(tile)} and captured {_t(nxt[3])}"
                i += 1
            elif nxt is not None and nxt[0] == "discard" and nxt[2] == tile:
                text = f"{who} played {_t(tile)}; it captures nothing and joins the display"
                i += 1
            else:
                text = f"{who} played {_t(tile)}"
        elif kind == "capture":
            _, p, tile, target = ev
            text = f"{name_of(p)} captured {_t(target)} with {_t(tile)}"
        elif kind == "pass":
            text = f"{name_of(ev[1])} cannot capture and passed"
        elif kind == "discard":
            text = f"{_t(ev[2])} joins the display"
        elif kind == "second":
            _, p, tile = ev
            who = name_of(p)
            if nxt is not None and nxt[0] == "capture" and nxt[2] == tile:
                text = (f"Second chance: {who} drew {_t(tile)} and captured "
                        f"{_t(nxt[3])} with it")
                i += 1
            elif nxt is not None and nxt[0] == "discard" and nxt[2] == tile:
                text = f"Second chance: {who} drew {_t(tile)}; it captures nothing either"
                i += 1
            else:
                text = f"Second chance: {who} drew {_t(tile)}"
        elif kind == "flip":
            text = f"{_t(ev[1])} was turned face up in the display"
        elif kind == "place":
            text = None  # implied by the capture/effect that caused it
        elif kind == "rainbow":
            text = f"{name_of(ev[1])} placed a rainbow on {_t(ev[2])}"
        elif kind == "no_rainbow":
            text = f"{name_of(ev[1])} would get a rainbow, but none can be placed"
        elif kind == "shift":
            _, p, tile, cell = ev
            text = f"{name_of(p)}'s rainbow moved from {_t(tile)} to {_t(cell)}"
        elif kind == "rainbow_out":
            text = f"{name_of(ev[1])}'s rainbow on {_t(ev[2])} had nowhere to go: back to the box"
        elif kind == "removed":
            _, p, tile, why = ev
            reason = ("a blocked rainbow sits there" if why == "blocked"
                      else "the Evil Spirit forbids that cell")
            text = f"{_t(tile)} left the game ({reason})"
        elif kind == "draw":
            _, p, tile = ev
            who = name_of(p)
            if tile is not None and (omniscient or p == viewer):
                text = f"{who} drew {_t(tile)}"
            else:
                text = f"{who} drew a tile"
        elif kind == "spirits_drawn":
            _, p, spirits = ev
            who = name_of(p)
            if len(spirits) == 2:
                if nxt is not None and nxt[0] == "to_line" and i + 2 < n and \
                        events[i + 2][0] == "keep":
                    kept = events[i + 2][2]
                    text = (f"{who} drew two spirits ({_s(spirits[0])}, {_s(spirits[1])}) "
                            f"and kept the {_s(kept)}; the {_s(nxt[1])} goes to the line")
                    i += 2
                else:
                    text = (f"{who} drew two spirits: the {_s(spirits[0])} and the "
                            f"{_s(spirits[1])}")
            else:
                text = f"{who} drew the last spirit: the {_tiles_spirits(spirits)}"
        elif kind == "keep":
            text = f"{name_of(ev[1])} kept the {_s(ev[2])}"
        elif kind == "to_line":
            text = f"The {_s(ev[1])} goes to the spirit line"
        elif kind == "take":
            text = f"{name_of(ev[1])} took the {_s(ev[2])} from the spirit line"
        elif kind == "spirit":
            _, p, spirit, square = ev
            text = f"The {_s(spirit)} sits on {name_of(p)}'s square at {_t(square)}"
        elif kind == "no_spirit":
            text = f"{name_of(ev[1])} formed a square, but no spirit is left"
        elif kind == "firefly":
            text = f"A firefly lands on {name_of(ev[1])}'s square at {_t(ev[2])}"
        elif kind == "lost":
            text = f"The {_s(ev[2])}'s effect is lost: it cannot happen now"
        elif kind == "eagle":
            text = f"Eagle: {_t(ev[2])} came from the land pile into {name_of(ev[1])}'s panorama"
        elif kind == "fly":
            text = f"Fly: {name_of(ev[1])} took {_t(ev[2])} from the opponent's hand"
        elif kind == "deer":
            text = f"Deer: {name_of(ev[1])} put {_t(ev[2])} from hand into the panorama"
        elif kind == "beetle":
            text = f"Beetle: {name_of(ev[1])} took {_t(ev[2])} from the display"
        elif kind == "viper":
            text = f"Viper: {name_of(ev[1])} took the isolated tile {_t(ev[2])}"
        elif kind == "reveal":
            _, p, tiles = ev
            if omniscient or p == viewer:
                text = f"Renard: {name_of(p)} sees the opponent's hand: {_tiles(tiles)}"
            else:
                text = f"Renard: {name_of(p)} looks at the opponent's hand"
        elif kind == "renard":
            _, p, tile = ev
            text = f"Renard: {name_of(1 - p)} must play {_t(tile)} next turn"
        elif kind == "marmot":
            text = f"Marmot: {name_of(ev[1])} plays another turn"
        elif kind == "evil_kept":
            text = f"{name_of(ev[1])} drew the Evil Spirit and must hold it"
        elif kind == "evil_given":
            text = f"{name_of(ev[1])} gives the Evil Spirit to {name_of(1 - ev[1])}"
        elif kind == "evil_placed":
            _, p, cell = ev
            text = (f"{name_of(p)} put the Evil Spirit on {name_of(1 - p)}'s cell "
                    f"{_t(cell)}: it is forbidden")
        elif kind == "evil_out":
            text = "The Evil Spirit has no cell to go to and leaves play"
        elif kind == "cover":
            _, chooser, holder, spirit = ev
            text = (f"{name_of(chooser)} made the Evil Spirit cover {name_of(holder)}'s "
                    f"{_s(spirit)}")
        elif kind == "squirrel":
            _, p, tiles = ev
            text = f"Squirrel: {name_of(p)} puts {_tiles(tiles)} into the panorama"
        elif kind == "end":
            _, reason, winner = ev
            if reason == "fireflies":
                text = f"Game over: {name_of(winner)} placed a 4th firefly and wins"
            elif winner is None:
                text = "Game over: a shared win"
            else:
                text = f"Game over: {name_of(winner)} {_verb(name_of(winner), 'win', 'wins')}"
        else:
            text = " ".join(str(x) for x in ev)
        if text:
            lines.append(text)
        i += 1
    return lines


def _tiles_spirits(spirits: Sequence[int]) -> str:
    return " and the ".join(_s(s) for s in spirits)

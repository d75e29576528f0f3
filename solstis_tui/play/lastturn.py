"""The other player's turn in one short line: what they played, captured and took.

The game log says everything, but at 80×24 it shows only its last lines, and a bot's turn
ends with refills ("3-3 was turned face up", "drew a tile") that push what it did out of
sight. ``turn_line`` keeps what matters of one turn (the tile played and the tile captured,
a rainbow, the spirit taken and its square, a spirit's effect, the Evil Spirit) in a line
that fits an 80-column screen; the game screen shows it until the next turn of that player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core import Spirit, cell_name

Event = tuple[Any, ...]
NameOf = Callable[[int], str]


def _t(tile: int | None) -> str:
    return cell_name(tile) if tile is not None and tile >= 0 else "a tile"


def _s(spirit: int) -> str:
    return Spirit(spirit).title


def _your(name: str) -> str:
    return "your" if name == "You" else f"{name}'s"


def _phrases(events: Sequence[Event], name_of: NameOf) -> list[str]:
    """The turn's events as short phrases (refills, flips and placements left out)."""
    out: list[str] = []
    i = 0
    while i < len(events):
        ev = events[i]
        kind = ev[0]
        nxt = events[i + 1] if i + 1 < len(events) else None
        if kind in ("play", "second"):
            tile = ev[2]
            what = f"played {_t(tile)}" if kind == "play" else f"second chance {_t(tile)}"
            if nxt is not None and nxt[0] == "capture" and nxt[2] == tile:
                out.append(f"{what} captured {_t(nxt[3])}")
                i += 2
                continue
            if nxt is not None and nxt[0] == "discard" and nxt[2] == tile:
                out.append(f"{what} (no capture)")
                i += 2
                continue
            out.append(what)
        elif kind == "capture":
            out.append(f"captured {_t(ev[3])} with {_t(ev[2])}")
        elif kind == "pass":
            out.append("passed")
        elif kind == "rainbow":
            out.append(f"rainbow on {_t(ev[2])}")
        elif kind == "shift":
            out.append(f"rainbow {_t(ev[2])} moved to {_t(ev[3])}")
        elif kind == "spirits_drawn":
            spirits = ev[2]
            keep = events[i + 2] if i + 2 < len(events) else None
            if len(spirits) == 2 and keep is not None and keep[0] == "keep":
                out.append(f"drew {_s(spirits[0])}+{_s(spirits[1])}, kept {_s(keep[2])}")
                i += 3
                continue
            out.append("drew " + "+".join(_s(s) for s in spirits))
        elif kind == "keep":
            out.append(f"kept {_s(ev[2])}")
        elif kind == "take":
            out.append(f"took {_s(ev[2])}")
        elif kind == "spirit":
            out.append(f"{_s(ev[2])} on square {_t(ev[3])}")
        elif kind == "firefly":
            out.append(f"firefly on {_t(ev[2])}")
        elif kind in ("eagle", "deer", "beetle", "viper"):
            out.append(f"{kind.title()}: {_t(ev[2])}")
        elif kind == "fly":
            out.append(f"Fly: took {_t(ev[2])} from {_your(name_of(1 - ev[1]))} hand")
        elif kind == "renard":
            out.append(f"Renard: {name_of(1 - ev[1])} must play {_t(ev[2])}")
        elif kind == "reveal":
            out.append("Renard: saw the opponent's hand")
        elif kind == "marmot":
            out.append("Marmot: another turn")
        elif kind == "squirrel":
            out.append("Squirrel: " + ", ".join(_t(t) for t in ev[2]))
        elif kind == "evil_kept":
            out.append("holds the Evil Spirit")
        elif kind == "evil_given":
            out.append(f"gave the Evil Spirit to {name_of(1 - ev[1]).replace('You', 'you')}")
        elif kind == "evil_placed":
            out.append(f"Evil Spirit on {_your(name_of(1 - ev[1]))} {_t(ev[2])}")
        elif kind == "cover":
            out.append(f"Evil Spirit covers {_your(name_of(ev[2]))} {_s(ev[3])}")
        i += 1
    return out


def turns(events: Sequence[Event]) -> list[tuple[int, list[Event]]]:
    """The log cut into turns: (whose turn, its events after the ``turn`` event)."""
    out: list[tuple[int, list[Event]]] = []
    for ev in events:
        if ev[0] == "turn":
            out.append((ev[1], []))
        elif out and ev[0] != "end":
            out[-1][1].append(ev)
    return out


def turn_line(events: Sequence[Event], name_of: NameOf, other: int | None) -> str:
    """One line on the latest turn of ``other`` (None: of whoever played last) with
    anything to tell, the turn in progress included ('' when there is none yet).

    Turns in a row of the same player (a Marmot's extra turn) are told together."""
    cut = turns(events)
    k = len(cut) - 1
    while k >= 0 and not (
            (other is None or cut[k][0] == other) and _phrases(cut[k][1], name_of)):
        k -= 1
    if k < 0:
        return ""
    player = cut[k][0]
    first = k
    while first > 0 and cut[first - 1][0] == player:
        first -= 1
    phrases: list[str] = []
    for _, evs in cut[first:k + 1]:
        phrases.extend(_phrases(evs, name_of))
    name = name_of(player)
    return f"{'Your' if name == 'You' else name + chr(39) + 's'} turn: " + "; ".join(phrases)

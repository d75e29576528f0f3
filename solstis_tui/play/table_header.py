"""The top line of a table at the host: who plays (with their ratings at a rated table)
and the move clock of the player to move, fitted to the screen's width. No Textual here.

The host sends ``time_left`` with each state; between two states the client counts it down
itself, so the clock moves every second without a message from the host.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

#: Under this many seconds left the clock changes its look (and gets a "!").
URGENT_SECONDS: Final = 30
#: The key that claims a game whose player to move is out of time.
CLAIM_KEY: Final = "o"


def minutes_seconds(seconds: float) -> str:
    """``seconds`` (rounded up: 0:00 only once the time is really up) as ``m:ss``; a
    correspondence clock's hours and days as ``5h 07m`` and ``2d 05h``."""
    whole = max(0, math.ceil(seconds))
    if whole < 3600:
        return f"{whole // 60}:{whole % 60:02d}"
    hours, minutes = divmod(whole // 60, 60)
    if hours < 24:
        return f"{hours}h {minutes:02d}m"
    return f"{hours // 24}d {hours % 24:02d}h"


@dataclass(frozen=True)
class ClockFace:
    """What the move clock shows now: ``text`` (the decision's clock and the bank);
    ``short`` (only the one that runs out first: for a narrow line); ``urgent`` under
    ``URGENT_SECONDS``; ``out`` once the player to move has no time left (the other player
    may claim); ``running`` False before both players have made a first decision."""

    text: str
    urgent: bool
    out: bool
    running: bool = True
    short: str = ""

    def fitting(self, room: int) -> str:
        """``text`` if it fits in ``room`` characters, else ``short``."""
        return self.text if len(self.text) <= room or not self.short else self.short


#: The clock's place before both players have made a first decision: no clock runs yet.
NO_CLOCK_YET: Final = ClockFace("no clock until both have moved", False, False, False)


def clock_face(seconds_left: float, whose: str, bank_left: float | None = None) -> ClockFace:
    """The clocks of the player to move, as seen by ``whose``: ``"mine"`` (the viewer is
    to move), ``"theirs"`` (the viewer waits and may claim) or ``"watch"`` (a watcher):
    the decision's ``seconds_left`` and, beside it, what is left of their ``bank``."""
    first = seconds_left if bank_left is None else min(seconds_left, bank_left)
    if first <= 0:
        text = {"mine": "your time is up: move!",
                "theirs": f"their time is up: {CLAIM_KEY} claims",
                "watch": "time is up"}[whose]
        return ClockFace(text, True, True, short=text)
    label = {"mine": "your clock ", "theirs": "their clock ", "watch": "clock "}[whose]

    def shown(seconds: float) -> str:
        return f"{minutes_seconds(seconds)}{'!' if seconds < URGENT_SECONDS else ''}"

    urgent = first < URGENT_SECONDS
    short = f"{label}{shown(first)}"
    if bank_left is None:
        return ClockFace(short, urgent, False, short=short)
    return ClockFace(f"{label}{shown(seconds_left)} · bank {shown(bank_left)}", urgent, False,
                     short=short)


def player_label(name: str, rating: str | None) -> str:
    """A player as the top line names them: ``Bob 1580`` (``1500?`` while provisional)."""
    return f"{name} {rating}" if rating else name


def fit_line(parts: Sequence[tuple[int, str]], width: int) -> str:
    """``parts`` (priority, text) joined with `` · `` in their order, leaving out the
    lowest priorities first until the line is at most ``width`` characters long (the
    highest-priority part always stays)."""
    kept = list(parts)
    while len(kept) > 1:
        line = " · ".join(text for _, text in kept)
        if len(line) <= width:
            return line
        kept.remove(min(kept, key=lambda part: part[0]))
    return kept[0][1] if kept else ""

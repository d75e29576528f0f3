"""Choosing a new table's variant, opponent and seat, all from the keyboard."""

from __future__ import annotations

import math
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..wire.protocol import BANK_INCREMENT, PACES, longest_game

VARIANTS = {"1": "base", "2": "beginner", "3": "firefly"}
OPPONENTS = {"f": "friend", "r": "random", "g": "greedy", "m": "minimax", "t": "mcts",
             "x": "expert"}
SEATS = (None, 0, 1)
CLOCKS = (300, 120, 60, 30)  # the move clock's choices, seconds a decision
BANKS = (20, 30, 60, 10, 5)  # the time bank's choices, minutes a player for the game
PACE_CHOICES = (0, *PACES)  # 0: a live game; else a correspondence game's days a move


def pace_words(days: int) -> str:
    """A game's pace as the create form and the lobby say it."""
    if not days:
        return "live"
    return f"{days} day{'' if days == 1 else 's'} a move (correspondence)"


def bank_words(minutes: int) -> str:
    """A time bank as the create form and the lobby say it, with the longest game it
    allows (both banks and every increment: see docs/ratings.md)."""
    longest = math.ceil(longest_game(minutes * 60.0) / 60)
    return (f"game in {minutes} min + {BANK_INCREMENT:g} s a tile played, each: at most "
            f"{longest} min on the clocks")


class CreateTableScreen(ModalScreen[dict[str, Any] | None]):
    """Enter creates the table as shown; keys change each choice; Esc cancels."""

    BINDINGS = [
        Binding("enter", "create", "Create"),
        Binding("escape", "cancel", "Cancel"),
        Binding("s", "seat", "Seat"),
        Binding("k", "rated", "Rated"),
        Binding("l", "clock", "Clock"),
        Binding("b", "bank", "Bank"),
        Binding("p", "pace", "Pace"),
        *[Binding(k, f"variant('{v}')", v, show=False) for k, v in VARIANTS.items()],
        *[Binding(k, f"opponent('{v}')", v, show=False) for k, v in OPPONENTS.items()],
    ]
    DEFAULT_CSS = """
    CreateTableScreen { align: center middle; }
    #create { width: 64; height: auto; border: round $accent; padding: 1 2;
              background: $surface; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.variant, self.opponent = "base", "friend"
        self.seat: int | None = None
        self.rated = False
        self.clock = CLOCKS[0]
        self.bank = BANKS[0]
        self.days = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="create"):
            yield Static(id="choices")

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        seat = {None: "random", 0: "first", 1: "second"}[self.seat]
        variants = "  ".join(f"{k} {v}" for k, v in VARIANTS.items())
        opponents = "  ".join(f"{k} {v}" for k, v in OPPONENTS.items())
        self.query_one("#choices", Static).update(
            f"New table\n\nVariant:  {self.variant}    ({variants})\n"
            f"Opponent: {self.opponent}    ({opponents})\n"
            f"You play: {seat}    (s changes)\n"
            f"Rated:    {'yes' if self.rated else 'no'}    (k changes; for players the host "
            "knows by key or account)\n"
            f"Pace:     {pace_words(self.days)}    (p changes; at days a move the game "
            "waits while you are away)\n"
            + (f"Clock:    {self.days} day{'' if self.days == 1 else 's'} for each move    "
               "(out of time, the other may claim the game)\n" if self.days else
               f"Clock:    {self.clock // 60} min {self.clock % 60:02d} s a decision    (l "
               "changes; out of time, the other may claim the game)\n"
               f"Bank:     {bank_words(self.bank)}    (b changes; each decision's time "
               "comes out of it: out of it, the other may claim)\n")
            + "\nEnter creates it · Esc goes back")

    def action_variant(self, name: str) -> None:
        self.variant = name
        self.show()

    def action_opponent(self, name: str) -> None:
        self.opponent = name
        self.show()

    def action_seat(self) -> None:
        self.seat = SEATS[(SEATS.index(self.seat) + 1) % len(SEATS)]
        self.show()

    def action_rated(self) -> None:
        self.rated = not self.rated
        self.show()

    def action_clock(self) -> None:
        self.clock = CLOCKS[(CLOCKS.index(self.clock) + 1) % len(CLOCKS)]
        self.show()

    def action_bank(self) -> None:
        self.bank = BANKS[(BANKS.index(self.bank) + 1) % len(BANKS)]
        self.show()

    def action_pace(self) -> None:
        self.days = PACE_CHOICES[(PACE_CHOICES.index(self.days) + 1) % len(PACE_CHOICES)]
        self.show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A correspondence game has days a move: no clock or bank of minutes to change."""
        return not (self.days and action in ("clock", "bank"))

    def action_create(self) -> None:
        self.dismiss({"variant": self.variant, "opponent": self.opponent, "seat": self.seat,
                      "rated": self.rated, "clock": self.clock, "bank": self.bank,
                      "days": self.days})

    def action_cancel(self) -> None:
        self.dismiss(None)

"""Choosing a new table's variant, opponent and seat, all from the keyboard."""

from __future__ import annotations

import math
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..wire.protocol import BANK_INCREMENT, longest_game

VARIANTS = {"1": "base", "2": "beginner", "3": "firefly"}
OPPONENTS = {"f": "friend", "r": "random", "g": "greedy", "m": "minimax", "t": "mcts",
             "x": "expert"}
SEATS = (None, 0, 1)
CLOCKS = (300, 120, 60, 30)  # the move clock's choices, seconds a decision
BANKS = (20, 30, 60, 10, 5)  # the time bank's choices, minutes a player for the game


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
            f"Clock:    {self.clock // 60} min {self.clock % 60:02d} s a decision    (l "
            "changes; out of time, the other may claim the game)\n"
            f"Bank:     {bank_words(self.bank)}    (b changes; each decision's time "
            "comes out of it: out of it, the other may claim)\n\n"
            "Enter creates it · Esc goes back")

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

    def action_create(self) -> None:
        self.dismiss({"variant": self.variant, "opponent": self.opponent, "seat": self.seat,
                      "rated": self.rated, "clock": self.clock, "bank": self.bank})

    def action_cancel(self) -> None:
        self.dismiss(None)

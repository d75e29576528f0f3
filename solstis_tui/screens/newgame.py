"""The new-game screen: mode, opponent, variant, who starts, seed; or continue the saved game."""

from __future__ import annotations

import random

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from solstis_tui.ai.registry import BOT_TIERS

from ..core.rng import new_secret
from ..local.seats import seats_for
from ..local.session import Setup, opponent_label

MODES = [("Play against a bot", "bot"), ("Two people, one keyboard (hot-seat)", "hotseat"),
         ("Watch two bots", "watch")]
VARIANTS = [("Base game", "base"), ("Beginner (no Evil Spirit)", "beginner"),
            ("Firefly expansion", "firefly")]
STARTS = [("Random", "random"), ("You (seat 1)", "first"), ("The other side", "second")]
#: What the form offers each time it opens (with the last game's opponent and the base game).
FIRST_MODE, FIRST_START = MODES[0][1], STARTS[0][1]


def build_setup(mode: str, opponent: str, variant: str, starts: str, seed_text: str,
                rng: random.Random | None = None) -> Setup:
    """The Setup the form describes; ValueError for a bad seed."""
    rng = rng or random.Random()
    seed_text = seed_text.strip()
    secret = not seed_text  # a seed nobody chose is secret: 128 bits from the OS
    if seed_text:
        try:
            seed = int(seed_text)
        except ValueError:
            raise ValueError(f"the seed must be a whole number, not {seed_text!r}") from None
    else:
        seed = new_secret()
    first = starts == "first" or (starts == "random" and rng.random() < 0.5)
    seats = seats_for(mode, opponent, person_first=first)
    return Setup(variant=variant, seed=seed, seats=seats, secret=secret)


class NewGameScreen(ModalScreen[object]):
    """Dismisses with a ``Setup``, the string 'continue', or None (cancelled)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "start", "Start")]
    DEFAULT_CSS = """
    NewGameScreen { align: center middle; background: $background; }
    NewGameScreen > Vertical { width: 72; height: auto; border: thick $primary;
        background: $surface; padding: 0 1; }
    NewGameScreen.-ascii > Vertical { border: ascii $primary; }
    NewGameScreen Grid { grid-size: 2; grid-columns: 14 1fr; grid-rows: 3; height: auto; }
    NewGameScreen Label { padding: 1 0 0 0; }
    NewGameScreen #title { text-style: bold; color: $accent; padding: 0 0 1 0; }
    NewGameScreen #error { color: $error; height: auto; }
    NewGameScreen Horizontal { height: 3; align: center middle; }
    NewGameScreen Button { margin: 0 1; }
    """

    def __init__(self, can_continue: bool = False, opponent: str = "minimax",
                 variant: str = "base", ascii_mode: bool = False) -> None:
        super().__init__()
        self.can_continue = can_continue
        self.opponent = opponent if opponent in BOT_TIERS else "minimax"
        self.variant = variant
        self.ascii_mode = ascii_mode

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("New game of Solstis  (Tab moves, Enter starts, Esc cancels)",
                         id="title")
            with Grid():
                yield Label("Mode")
                yield Select(MODES, value=FIRST_MODE, allow_blank=False, id="mode")
                yield Label("Opponent")
                yield Select([(opponent_label(t), t) for t in BOT_TIERS], value=self.opponent,
                             allow_blank=False, id="opponent")
                yield Label("Variant")
                yield Select(VARIANTS, value=self.variant, allow_blank=False, id="variant")
                yield Label("Who starts")
                yield Select(STARTS, value=FIRST_START, allow_blank=False, id="starts")
                yield Label("Seed")
                yield Input(placeholder="blank: a secret random deal", id="seed")
            yield Static("", id="error", markup=False)  # quotes what was typed
            with Horizontal():
                yield Button("Start", variant="primary", id="start")
                yield Button("Continue last game", id="continue")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.set_class(self.ascii_mode, "-ascii")
        self.query_one("#continue", Button).display = self.can_continue
        self.query_one("#start", Button).focus()

    def reopen(self, can_continue: bool, opponent: str) -> None:
        """Fresh answers for the next time the form opens: the app keeps one form (making
        its fields anew took most of the time between the key and the form)."""
        self.can_continue = can_continue
        self.opponent = opponent if opponent in BOT_TIERS else "minimax"
        if not self.is_mounted:
            return
        self.query_one("#mode", Select).value = FIRST_MODE
        self.query_one("#opponent", Select).value = self.opponent
        self.query_one("#variant", Select).value = self.variant
        self.query_one("#starts", Select).value = FIRST_START
        self.query_one("#seed", Input).value = ""
        self.query_one("#error", Static).update("")
        self.query_one("#continue", Button).display = can_continue
        self.query_one("#start", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "continue":
            self.dismiss("continue")
        else:
            self.dismiss(None)

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self) -> None:
        try:
            setup = build_setup(
                str(self.query_one("#mode", Select).value),
                str(self.query_one("#opponent", Select).value),
                str(self.query_one("#variant", Select).value),
                str(self.query_one("#starts", Select).value),
                self.query_one("#seed", Input).value,
            )
        except ValueError as exc:
            self.query_one("#error", Static).update(str(exc))
            return
        self.dismiss(setup)

    def action_cancel(self) -> None:
        self.dismiss(None)

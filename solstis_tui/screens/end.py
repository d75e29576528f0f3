"""The end of a game: both full score breakdowns, the winner, and what to do next."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Final

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..core import EndReason, Observation
from ..play.session_view import SessionView, scores_of
from ..widgets.scores import score_table
from ..words.narrate import outcome


def result_line(session: SessionView, obs: Observation) -> str:
    """Who won the finished game ``obs``, and by how many stars."""
    scores = scores_of(obs)
    if obs.winner is None:
        return f"A shared win: both have {scores[0].total} stars."
    if obs.end_reason is not EndReason.NORMAL:  # no stars decided it
        line = outcome(obs.end_reason, obs.winner, session.name)
        return line[0].upper() + line[1:] + "."
    name = session.name(obs.winner)
    verb = "win" if name == "You" else "wins"
    return (f"{name} {verb}, {scores[obs.winner].total} stars to "
            f"{scores[1 - obs.winner].total}.")


#: Every choice the sheet can offer (``choices`` picks among them).
CHOICES: Final = frozenset({"new", "rematch", "same-deal", "review", "quit", "undo"})
#: Each button's words, in the order shown (``labels`` may reword one: online, ``n`` is
#: the lobby).
LABELS: Final = (("new", "New game (n)"), ("rematch", "Rematch (m)"),
                 ("same-deal", "Same deal (s)"), ("review", "Review (r)"), ("quit", "Quit (q)"))


class EndScreen(ModalScreen[str]):
    """Dismisses with 'new', 'rematch' (a new secret deal, seats swapped), 'same-deal' (the
    same deal, seats swapped: a practice drill), 'review', 'quit', 'undo' (where the game
    offers undo: the game-over line lists ``u`` too) or None (the board).

    ``choices`` (default: all) are those offered: a key for any other is neither shown nor
    active (an online game has no undo and no same deal; ``labels`` reword a button
    there). Each button names its key.

    ``offer``: another player's rematch offer, said above the buttons; ``y`` then dismisses
    with 'accept' (``m``, asking for the rematch, accepts it too), ``d`` with 'decline'
    (``set_offer`` says it, or takes it back, while the sheet is up).

    No button has the focus at first, so Enter, like Esc, goes
    back to the board; arrows and Tab focus a button, which alone then looks selected, and
    Enter presses it.
    """

    AUTO_FOCUS = ""  # Enter closes the sheet until a button is picked
    BINDINGS = [
        Binding("n", "choose('new')", "New game"),
        Binding("m", "choose('rematch')", "Rematch"),
        Binding("s", "choose('same-deal')", "Same deal"),
        Binding("r", "choose('review')", "Review"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("u", "choose('undo')", "Undo"),
        Binding("y", "choose('accept')", "Accept the rematch", show=False),
        Binding("d", "choose('decline')", "Decline the rematch", show=False),
        Binding("escape,enter", "choose('')", "Board"),
        Binding("left,up", "app.focus_previous", "Previous", show=False),
        Binding("right,down", "app.focus_next", "Next", show=False),
    ]
    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    EndScreen > Vertical { width: 76; height: auto; max-height: 100%; border: thick $primary;
        background: $surface; padding: 0 1; }
    EndScreen.-ascii > Vertical { border: ascii $primary; }
    EndScreen #result { text-style: bold; color: $accent; height: auto; }
    EndScreen #sheet { height: auto; margin: 1 0; }
    EndScreen Horizontal { height: 3; align: center middle; }
    EndScreen Button { min-width: 12; margin: 0 0; }
    EndScreen #keys { height: 1; color: $text-muted; content-align: center middle; }
    EndScreen #offer { height: auto; color: $warning; text-style: bold; display: none; }
    EndScreen #offer.-shown { display: block; }
    """

    def __init__(self, session: SessionView, obs: Observation, ascii_mode: bool = False,
                 choices: Collection[str] | None = None,
                 labels: Mapping[str, str] | None = None, offer: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.obs = obs
        self.ascii_mode = ascii_mode
        self.choices = None if choices is None else frozenset(choices)
        self.labels = dict(labels or {})
        self.offer = offer

    def offered(self, choice: str) -> bool:
        if choice in ("accept", "decline"):
            return self.offer is not None
        return self.choices is None or choice in self.choices

    def compose(self) -> ComposeResult:
        s = self.session
        names = (s.name(0), s.name(1))
        scores = scores_of(self.obs)
        star = "*" if self.ascii_mode else "★"
        with Vertical():
            yield Static(Text("Game over. " + result_line(s, self.obs)), id="result")
            # The columns in the board's order: the seat this screen shows on the left.
            yield Static(Group(score_table(names, scores, star, first=self.obs.player)),
                         id="sheet")
            yield Static(id="offer", markup=False)
            with Horizontal():
                # One look for every button: the focus alone marks the one Enter presses.
                for choice, label in LABELS:
                    if self.offered(choice):
                        yield Button(self.labels.get(choice, label), id=choice)
            undo = " · u undo" if self.can_undo() else ""
            yield Static(f"Enter or Esc: back to the board{undo} · ←→ and Enter press a button",
                         id="keys")

    def on_mount(self) -> None:
        self.set_class(self.ascii_mode, "-ascii")
        self.set_offer(self.offer)

    def set_offer(self, offer: str | None) -> None:
        """Say another player's rematch offer above the buttons, with the keys that answer
        it (None: there is none): ``y`` accepts it, ``d`` declines it."""
        self.offer = offer
        try:
            line = self.query_one("#offer", Static)
        except NoMatches:  # not composed yet: on_mount says it
            return
        line.update(offer or "")
        line.set_class(offer is not None, "-shown")
        self.refresh_bindings()

    def can_undo(self) -> bool:
        """``u`` takes the last decision back: offered, and the session has one."""
        takeback = self.session.takeback
        return takeback is not None and takeback.can_undo() and self.offered("undo")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters == ("undo",):
            return self.can_undo()
        if action == "choose" and parameters and parameters[0]:
            return self.offered(str(parameters[0]))
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)

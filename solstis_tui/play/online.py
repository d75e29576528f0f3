"""The controller of a game played at the host: nothing decides here but the person's keys.

Bots and the other player decide at the host, which sends each new state; the screen
passes it on with ``host_update``. There is no undo and no hint online; the review of a
finished game opens its record, fetched from the host.
"""

from __future__ import annotations

from typing import Protocol

from ..words.moves import asked
from .controller import PlayController, Prompt
from .prompt import game_over_lines
from .session_view import SessionView
from .table_header import (
    CLAIM_KEY,
    NO_CLOCK_YET,
    ClockFace,
    clock_face,
    fit_line,
    player_label,
)

#: The top line's width at 80 columns (the bar has a space each side).
BAR_WIDTH = 78


class RemoteTable(SessionView, Protocol):
    """A table at the host as the client sees it (``client.remote.RemoteSession``)."""

    table: str
    seat: int | None
    rated: bool
    counts: bool
    unrated: str | None
    may_review: bool

    @property
    def is_spectator(self) -> bool: ...

    def is_bot(self, player: int) -> bool: ...

    def rating(self, player: int) -> str | None: ...

    def seconds_left(self) -> float | None: ...

    def bank_seconds_left(self) -> float | None: ...

    def connected(self, player: int) -> bool: ...

    def in_lobby(self, player: int) -> bool: ...

    def seat_empty(self, player: int) -> bool: ...

    def kept_for(self, player: int) -> str | None: ...


def loss_words(table: RemoteTable) -> str:
    """What ending the game now (resigning, leaving for good) does, after "ends now"."""
    if table.rated and table.unrated:
        return " as your loss; it is played unrated, so it moves no rating"
    if table.rated and not table.counts:
        return (" as abandoned, not as a result: too few decisions were made for it to "
                "count, so it moves no rating")
    return " as your loss" + (" and counts in your rating" if table.rated else "")


class OnlineController(PlayController):
    """One table at the host, from the person's seat (or a watcher's)."""

    session: RemoteTable

    def viewer(self) -> int:
        return self.session.seat if self.session.seat is not None else 0

    def game_label(self) -> str:
        """The host's table id (the seed stays at the host: it would reveal the deal)."""
        return f"table {self.session.table}"

    def move_clock(self) -> ClockFace | None:
        """The move clock of the player to move, counted down since the host's last state
        (``NO_CLOCK_YET`` before both players have made a first decision); None where it
        has no say: before anyone joined, after the end, and when a bot sits at the table
        (a bot is never out of time, and never claims)."""
        s = self.session
        if any(s.is_bot(p) or s.seat_empty(p) for p in (0, 1)):
            return None
        game = s.observation(self.viewer())
        if game.is_over:
            return None
        left = s.seconds_left()
        if left is None:
            return NO_CLOCK_YET
        whose = "watch" if s.is_spectator else "mine" if game.to_play == s.seat else "theirs"
        return clock_face(left, whose, s.bank_seconds_left())

    def top_bar(self, width: int = BAR_WIDTH) -> str:
        """Variant, table, turn and the players (with their ratings at a rated table),
        in ``width`` characters: the players always, the rest as far as it fits."""
        g = self.obs
        return fit_line([(1, "Solstis"), (3, g.options.variant), (2, self.game_label()),
                         (4, f"turn {g.turn}"), (9, self.players_text())], width)

    def players_text(self) -> str:
        """The players as the top line names them, the viewer first."""
        s, me = self.session, self.viewer()
        return " vs ".join(player_label(s.name(p), s.rating(p)) for p in (me, 1 - me))

    # ------------------------------------------------------------------ leaving for good
    def leave_for_good_offered(self) -> bool:
        """Leaving for good does more than going back to the lobby: a player's seat at a
        table whose game is not over (it gives the table up, or the game as a loss)."""
        s = self.session
        if s.is_spectator:
            return False
        try:
            return not s.observation(self.viewer()).is_over
        except LookupError:  # no state from the host yet
            return False

    def why_not_leave_for_good(self) -> str:
        """Why ``f`` does nothing here (a watcher's seat, or a finished game)."""
        if self.session.is_spectator:
            return "only the players can leave a table for good; a watcher leaves with q"
        return "the game is over: q goes back to the lobby"

    def leave_question(self) -> str:
        """What leaving for good would do, asked before it is done."""
        s = self.session
        if any(s.seat_empty(p) for p in (0, 1)):
            return (f"Give up table {s.table} for good? Nobody has joined it yet, so it "
                    "closes.")
        return f"Leave table {s.table} for good? The game ends now{loss_words(s)}."

    def after_move(self) -> None:
        """The move went to the host; its state comes back (``host_update``)."""
        self.error = ""
        self.log.update()
        self.port.redraw()

    names_narrated: tuple[str, str] | None = None
    """The seats' names the log was narrated with."""
    error_moves: int = -1
    """How many decisions the game had when the error on the prompt was said."""

    def say_error(self, text: str) -> None:
        self.error_moves = len(self.obs.history)  # a table's screen comes with its state
        super().say_error(text)

    def host_update(self) -> None:
        """A new state arrived from the host: an error about an earlier turn (a refused
        claim on time, say) goes once the game has moved on."""
        self.choice = self.choice.forgotten()
        if self.error and len(self.obs.history) != self.error_moves:
            self.error = ""
        names = (self.session.name(0), self.session.name(1))
        if names != self.names_narrated:  # a seat filled or renamed: '(empty seat)' goes
            self.names_narrated = names
            self.log.reset()
        else:
            self.log.update()
        self.advance()

    def undo_offered(self) -> bool:
        return False

    def undo(self) -> None:
        self.say_error("online games have no undo")

    def hint(self) -> None:
        self.say_error("online games have no hints")

    def prompt(self) -> Prompt:
        s = self.session
        game = s.observation(self.viewer())
        if game.is_over:  # the keys of a game at the host: no undo, q is the lobby
            headline, _keys = game_over_lines(s, game)
            review = " · r review" if s.may_review else ""
            detail = (f"Enter: score sheet{review} · c chat · q leaves the table"
                      if s.is_spectator else
                      "Enter: score sheet (m rematch) · r review · c chat · q lobby")
            return Prompt(headline, detail, self.error)
        if s.human_to_play:
            return super().prompt()
        who = s.name(game.to_play)
        doing = asked(game.decision, of_you=False)
        headline = f"Watching: {who} is to {doing}" if s.is_spectator else \
            f"Waiting for {who}: {doing}"
        clock = self.move_clock()
        claim = f"{CLAIM_KEY} claim on time · " if clock is not None and clock.running else ""
        if clock is not None and clock.out:
            claim = f"time is up: {CLAIM_KEY} claims the game · "
        detail = f"{claim}c chat · x resign · f leave for good · q lobby · ? help"
        if s.is_spectator:
            detail = "c chat · q leaves the table · v log · e spirits · ? help"
        if s.seat_empty(game.to_play):
            kept = s.kept_for(game.to_play)
            headline = (f"Waiting for {kept} to accept the rematch" if kept else
                        "Waiting for someone to join the table")
            if not s.is_spectator:
                detail = "c chat · f give the table up · q lobby (the table stays) · ? help"
        elif s.in_lobby(game.to_play):
            detail = f"{who} went back to the lobby; waiting for them to come back · " + detail
        elif not s.connected(game.to_play):
            detail = f"{who} lost the connection; waiting for them to reconnect · " + detail
        return Prompt(headline, detail, self.error)

"""A session whose game lives at the host: a ``SessionView`` fed by the host's states.

The client holds only what the host sends: one seat's observation (a watcher's, for a
spectator). It never rebuilds a full game, so nothing hidden is ever made up here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..core import Event, IllegalMove, Move, Observation
from ..core.explain import why_illegal
from ..core.observation_json import observation_from_dict


class RemoteSession:
    """One table at the host, seen from one seat (or by a watcher)."""

    is_hotseat = False
    is_watch = False
    assists = False  # no undo or hints against a person at the host

    def __init__(self, table: str, send_move: Callable[[Move, int], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.clock = clock
        self.send_move = send_move
        self.seat: int | None = None
        self.obs: Observation | None = None
        self.seats: list[dict[str, Any]] = [{}, {}]
        self.rated = False
        self.counts = False
        """A rated game's end would count in the ratings now (both players have played)."""
        self.unrated: str | None = None
        """Why the game at this rated table is played unrated, as the host says (None: it
        counts, or the table is not rated)."""
        self.time_left: float | None = None
        """Seconds the player to move had when the last state came (None: no clock runs)."""
        self.bank_left: tuple[float, float] | None = None
        """What each player's bank held when the last state came (None: no clock runs)."""
        self.received_at = 0.0
        self.version = 0
        """Moves on with every state from the host (see ``SessionView.version``)."""
        self.on_change: Callable[[RemoteSession], None] | None = None
        self.game_id: str | None = None
        """The game's id once it is over (it names its record at the host), else None."""
        self.may_review = True
        """The host will give this client the game's record once it is over: always a
        player's; a watcher's if they came while it was played (and were among the first
        100)."""

    # -------------------------------------------------------------- host updates
    def update(self, state: dict[str, Any]) -> None:
        """Take a ``state`` message from the host."""
        self.seat = state.get("seat")
        game = state.get("game")
        self.game_id = game if isinstance(game, str) else None
        self.seats = state["seats"]
        self.rated = state.get("rated") is True
        self.counts = state.get("counts") is True
        why = state.get("unrated")
        self.unrated = why if isinstance(why, str) and why else None
        left = state.get("time_left")
        self.time_left = float(left) if isinstance(left, int | float) and \
            not isinstance(left, bool) else None
        banks = state.get("bank_left")
        self.bank_left = (float(banks[0]), float(banks[1])) if isinstance(banks, list) and \
            len(banks) == 2 and all(isinstance(b, int | float) and not isinstance(b, bool)
                                    for b in banks) else None
        self.received_at = self.clock()
        self.obs = observation_from_dict(state["observation"])
        self.version += 1
        if self.on_change is not None:
            self.on_change(self)

    @property
    def variant(self) -> str:
        return self.obs.options.variant if self.obs is not None else "base"

    def deal_label(self) -> str:
        return "secret deal"  # the host deals every game from a secret seed

    #: A move sent to the host is played there: nothing to take back. The bots and the
    #: other player decide at the host too.
    takeback: None = None
    local_bots: None = None

    @property
    def is_spectator(self) -> bool:
        return self.seat is None

    def connected(self, player: int) -> bool:
        return bool(self.seats[player].get("connected"))

    def in_lobby(self, player: int) -> bool:
        """``player`` left the table but is still connected to the host."""
        return bool(self.seats[player].get("in_lobby"))

    def is_bot(self, player: int) -> bool:
        return self.seats[player].get("bot") is not None

    def rating(self, player: int) -> str | None:
        """``player``'s rating as the host shows it ("1580", "1500?" while provisional);
        None at an unrated table or for nobody's."""
        rating = self.seats[player].get("rating")
        return str(rating) if self.rated and isinstance(rating, str) and rating else None

    def seconds_left(self) -> float | None:
        """The time the player to move has left now, counted down here since the last
        state; None when no clock runs (before anyone joined, after the end)."""
        if self.time_left is None:
            return None
        return self.time_left - (self.clock() - self.received_at)

    def bank_seconds_left(self) -> float | None:
        """What the bank of the player to move holds now, counted down here since the last
        state; None when no clock runs."""
        obs = self.obs
        if self.bank_left is None or obs is None or obs.is_over:
            return None
        return self.bank_left[obs.to_play] - (self.clock() - self.received_at)

    def kept_for(self, player: int) -> str | None:
        """Whom ``player``'s empty seat is kept for (a rematch offered to them), if anyone."""
        kept = self.seats[player].get("kept_for")
        return kept if isinstance(kept, str) and self.seat_empty(player) else None

    def seat_empty(self, player: int) -> bool:
        """Nobody has taken ``player``'s seat yet (no name, no bot)."""
        seat = self.seats[player]
        return not seat.get("name") and seat.get("bot") is None

    # -------------------------------------------------------------- the SessionView
    def is_human(self, player: int) -> bool:
        return player == self.seat

    @property
    def humans(self) -> list[int]:
        return [] if self.seat is None else [self.seat]

    @property
    def human_to_play(self) -> bool:
        obs = self.obs
        return obs is not None and not obs.is_over and obs.to_play == self.seat

    def name(self, player: int) -> str:
        if player == self.seat:
            return "You"
        if self.seat_empty(player):
            return "(empty seat)"
        return str(self.seats[player].get("name") or f"Player {player + 1}")

    def observation(self, player: int) -> Observation:
        """The host's observation; LookupError for a seat this client does not see from."""
        obs = self.obs
        if obs is None:
            raise LookupError("no state from the host yet")
        if player != obs.player:
            raise LookupError(f"this client sees the table from seat {obs.player + 1} only")
        return obs

    def shown_log(self, player: int) -> tuple[Event, ...]:
        return self.observation(player).log

    def apply(self, move: Move) -> None:
        """Check ``move`` here (IllegalMove at once if it is not legal) and send it."""
        obs = self.obs
        if obs is None or not self.human_to_play:
            raise IllegalMove("the game is over" if obs is not None and obs.is_over
                              else "it is not your decision")
        if move not in obs.legal_moves:
            raise IllegalMove(why_illegal(obs, move))
        self.send_move(move, len(obs.history))


def rating_news(seats: list[dict[str, Any]], seat: int | None) -> str | None:
    """What a finished rated game did to the ratings, for the player at ``seat`` (None: a
    watcher); None if the host sent no change."""
    changes = [s.get("change") for s in seats]
    if not all(isinstance(c, str) for c in changes):
        return None
    if changes[0] == changes[1] and str(changes[0]).startswith("not counted"):
        return f"Rated game, {changes[0]}"  # played unrated: one reason for both
    names = [str(s.get("name") or "?") for s in seats]
    if seat is None:
        return f"Rated game: {names[0]} {changes[0]} · {names[1]} {changes[1]}"
    return f"Rated game: you {changes[seat]} · {names[1 - seat]} {changes[1 - seat]}"

"""A session whose game lives at the host: what the game screen needs, fed by host states."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..core import Game, IllegalMove, Move, Observation, determinize
from ..core.observation_json import observation_from_dict
from ..session import HUMAN, Setup


class RemoteSession:
    """One table at the host, seen from one seat (or by a watcher).

    ``game`` is a full game rebuilt from the host's observation with the hidden parts dealt
    at random: only what the seat may see is ever drawn from it. ``observation`` returns the
    host's observation itself.
    """

    def __init__(self, table: str, send_move: Callable[[Move, int], None]) -> None:
        self.table = table
        self.send_move = send_move
        self.seat: int | None = None
        self.obs: Observation | None = None
        self.game: Game | None = None
        self.seats: list[dict[str, Any]] = [{}, {}]
        self.on_change: Callable[[RemoteSession], None] | None = None
        self.bots: dict[int, Any] = {}
        self.setup = Setup(seats=(HUMAN, HUMAN))
        self._rand = random.Random(0)

    # -------------------------------------------------------------- host updates
    def update(self, state: dict[str, Any]) -> None:
        """Take a ``state`` message from the host."""
        self.seat = state.get("seat")
        self.seats = state["seats"]
        self.obs = observation_from_dict(state["observation"])
        self.game = determinize(self.obs, self._rand)
        self.setup = Setup(variant=self.obs.options.variant, seed=0,
                           seats=tuple(HUMAN if s.get("bot") is None else s["bot"]
                                       for s in self.seats),
                           names=tuple(s.get("name") or "?" for s in self.seats))

    @property
    def is_spectator(self) -> bool:
        return self.seat is None

    def connected(self, player: int) -> bool:
        return bool(self.seats[player].get("connected"))

    # -------------------------------------------------------------- the Session API
    def is_human(self, player: int) -> bool:
        return player == self.seat

    @property
    def humans(self) -> list[int]:
        return [] if self.seat is None else [self.seat]

    is_hotseat = False
    is_watch = False
    assists = False  # no undo or hints against a person at the host

    @property
    def human_to_play(self) -> bool:
        game = self.game
        return game is not None and not game.is_over and game.to_play == self.seat

    def name(self, player: int) -> str:
        name = self.seats[player].get("name") or f"Player {player + 1}"
        return "You" if player == self.seat else name

    def observation(self, player: int) -> Observation:
        if self.obs is not None and player == self.obs.player:
            return self.obs
        return self.game.observation(player)

    def apply(self, move: Move) -> None:
        """Check ``move`` here (IllegalMove at once if it is not legal) and send it."""
        if not self.human_to_play or move not in self.obs.legal_moves:
            self.game.copy().play(move)  # raises IllegalMove with the engine's reason
            raise IllegalMove("it is not your decision")
        self.send_move(move, len(self.obs.history))

    def moves(self) -> list[Move]:
        return [mv for _, mv, auto in self.game.history if not auto]

    def can_undo(self) -> bool:
        return False

    def undo(self) -> bool:
        return False

    def take_back_play(self) -> bool:
        return False

    def fallback_move(self) -> Move:
        return self.game.legal_moves()[0]

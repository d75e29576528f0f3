"""What the game screens may know of a game in progress: the ``SessionView`` protocol.

The screens and widgets draw from an ``Observation`` (what one seat sees) plus the few
public facts below; they never read a ``Game``. ``Session`` (a local game) and the online
``RemoteSession`` (a game that lives at the host) both implement the protocol. Hidden
events are filtered once, by ``observe`` in ``core/observation.py``; a session only picks
whose observation a screen gets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..core import Move, Observation, Score
from ..core.events import Event
from ..core.scoring import score_view

if TYPE_CHECKING:
    from solstis_tui.ai.base import Chooser


class TakeBack(Protocol):
    """A session whose person may take decisions back."""

    def can_undo(self) -> bool:
        """There is a decision of the person's to take back."""

    def undo(self) -> bool:
        """Back to the person's previous decision; False if there is none."""

    def can_take_back_play(self) -> bool:
        """Esc would put the tile just played to capture back in the hand."""

    def take_back_play(self) -> bool:
        """Esc after playing a capturing tile: the tile goes back to the hand."""


class LocalBots(Protocol):
    """A session whose bots decide in this program."""

    def bot(self, player: int) -> Chooser:
        """The bot on ``player``'s seat."""

    def forget_bot(self, player: int) -> None:
        """Drop ``player``'s bot so that it is made afresh (after it failed)."""

    def fallback_move(self) -> Move:
        """A legal move to continue with when a bot fails."""


@runtime_checkable
class SessionView(Protocol):
    """One game and its two seats, as a screen sees and plays it."""

    on_change: Callable[[Any], None] | None
    """Told after each change of the game (a new ``version``): the screen's controller
    listens here."""

    @property
    def variant(self) -> str:
        """The game's variant: base, beginner or firefly."""

    def deal_label(self) -> str:
        """What names the deal in the top bar: a chosen seed, which replays the same deal
        (so it is no secret), or "secret deal" (a secret seed is never shown)."""

    @property
    def is_hotseat(self) -> bool:
        """Two people share this screen: hands hide between their turns."""

    @property
    def is_watch(self) -> bool:
        """Bots on both seats: the screen may show both hands (by design)."""

    @property
    def version(self) -> int:
        """Changes whenever what ``observation`` and ``shown_log`` say may have changed (a
        move, an undo, a state from the host): a screen builds each once per version."""

    @property
    def humans(self) -> list[int]:
        """The seats played from this screen's keys."""

    @property
    def human_to_play(self) -> bool:
        """A person at this screen decides now."""

    @property
    def assists(self) -> bool:
        """Undo and hints are offered (not in hot-seat, not online)."""

    def is_human(self, player: int) -> bool: ...

    def name(self, player: int) -> str:
        """What the screen calls ``player``: 'You', a bot's title, a person's name."""

    def observation(self, player: int) -> Observation:
        """What seat ``player`` sees. A local session answers for either seat (the screen
        picks whose view it shows); a remote one only for the seat it sees from."""

    def shown_log(self, player: int) -> tuple[Event, ...]:
        """The game log a screen showing seat ``player`` may narrate: that seat's
        observation log; in hot-seat a watcher's (the screen is shared, so no private
        tile); in watch mode the whole log (by design)."""

    def apply(self, move: Move) -> None:
        """Play ``move`` for the person deciding; IllegalMove (saying why) if not allowed."""

    @property
    def takeback(self) -> TakeBack | None:
        """Undo and taking a capturing tile back, where this session offers them (a
        local game against bots); None where it does not (online, a tutorial, a drill)."""

    @property
    def local_bots(self) -> LocalBots | None:
        """The bots that decide in this program; None where they decide at a host."""


def scores_of(obs: Observation) -> tuple[Score, Score]:
    """Both players' star breakdowns, from the (public) panoramas of ``obs``."""
    return score_view(obs.panoramas[0]), score_view(obs.panoramas[1])

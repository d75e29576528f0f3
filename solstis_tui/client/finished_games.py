"""Finished games, on the online app's side: the end dialog of the game at the table and
what its keys do (a rematch, its review, the lobby), the rematch offered either way
(``offers``), and reviews asked of the host, of the table's game or of one in the player's
list of finished games (``g`` in the lobby). The record, when it comes, opens on the
analysis board (``OnlineApp._record``, through ``review.open_review``); closing the board
goes back to the end dialog if a rematch waits there, or to the lobby if the table closed
meanwhile."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from textual.notifications import SeverityLevel
from textual.screen import Screen

from ..core import Observation
from ..play.session_view import SessionView
from ..records import GameRecord
from ..wire.replies import Record
from .offers import OfferPort, Offers
from .remote import RemoteSession

if TYPE_CHECKING:
    from ..screens.game import GameScreen

#: Why a watcher who came after the end (or one too many) has no review.
NOT_YOURS = ("no review here: the host gives a game's record to its players and to the first "
             "100 who watched it while it was played, and you were not among them")


class FinishedApp(OfferPort, Protocol):
    """What finished games ask of the online app (``OnlineApp``)."""

    remote: RemoteSession | None
    game_screen: GameScreen | None
    ascii_mode: bool

    def push_screen(self, screen: Screen[Any],
                    callback: Callable[[Any], None] | None = None) -> Any: ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None) -> None: ...

    def back_to_lobby(self, leave: bool = True) -> None: ...

    def say_error(self, text: str) -> None: ...

    def exit(self) -> None: ...


class FinishedGames:
    """The end of the game at ``app``'s table, and reviews of finished games."""

    def __init__(self, app: FinishedApp) -> None:
        self.app = app
        self.offers = Offers(app, lambda: None if app.remote is None else app.remote.table)
        """The rematch offered to this player, until it is answered."""
        self.table_gone = False
        """The table closed under its review: the lobby comes once the review is closed."""

    # ------------------------------------------------------------------ the end dialog
    def show_end(self, session: SessionView, obs: Observation) -> None:
        """The finished game ``obs``: scores, the winner; then a rematch (for a player),
        its review, the lobby (n) or quit. Undo and the same deal do not exist online."""
        from ..screens.end import EndScreen

        remote = self.app.remote
        choices = ["new", "quit"]
        if remote is not None and remote.may_review:
            choices.append("review")
        if remote is not None and not remote.is_spectator:
            choices.append("rematch")
        offer = self.offers.at(None if remote is None else remote.table)
        self.app.push_screen(EndScreen(session, obs, self.app.ascii_mode, choices,
                                       labels={"new": "Lobby (n)"},
                                       offer=None if offer is None else offer.on_end()),
                             self._end_chosen)

    def _end_chosen(self, choice: str | None) -> None:
        if choice == "quit":
            self.app.exit()
        elif choice in ("accept", "decline"):
            self.offers.answer(choice == "accept")
        elif choice == "rematch" and self.offers.offer is not None:
            self.offers.answer(True)  # asking for the rematch offered accepts it
        elif choice == "rematch":
            self.rematch()
        elif choice == "review":
            self.review_game()
        elif choice:
            self.app.back_to_lobby()

    def rematch(self) -> None:
        """After the game at this table: a new table for the same two players, offered to
        the other (or the answer yes to their offer)."""
        if self.app.remote is not None:
            self.app.send({"type": "rematch", "table": self.app.remote.table})

    # ------------------------------------------------------------------ reviews
    def review_game(self) -> None:
        """Fetch this table's finished game's record from the host, to review it."""
        remote = self.app.remote
        game = remote.game_id if remote is not None else None
        if remote is not None and not remote.may_review:
            self.app.notify(NOT_YOURS, severity="error")
        elif game is None:
            self.app.notify("the review opens once the game is over", severity="error")
        else:
            self.fetch_record(game)

    def fetch_record(self, game: str) -> None:
        """Ask the host for the record of the finished game ``game``: it opens on the
        review screen when it comes."""
        self.app.send({"type": "record", "game": game})

    def show_my_games(self) -> None:
        """The finished games this player played or watched at the host (``g`` in the
        lobby); Enter reviews one."""
        from .my_games import MyGamesScreen

        def ask(offset: int) -> None:
            self.app.send({"type": "games", "offset": offset})

        self.app.push_screen(MyGamesScreen(ask, self.fetch_record))

    def record_came(self, reply: Record) -> GameRecord | None:
        """A game's record from the host: the one to open on the review screen (None: it
        cannot be read, which is said, or a review is open: one at a time, as a key
        pressed twice asked twice). An offer waits for the end dialog, and is said."""
        from ..records import RecordError, loads

        try:
            record = loads(reply.text)
        except RecordError as exc:
            self.app.say_error(f"the host sent a record this program cannot read ({exc})")
            return None
        if self.app.reviewing():
            return None
        self.offers.review_opens()
        return record

    def review_closed(self, _closed: object = None) -> None:
        """The review is closed: if its table went meanwhile, on to the lobby; if a rematch
        was offered meanwhile, back to the end dialog, which says it."""
        if self.table_gone:
            self.table_gone = False
            self.app.back_to_lobby(leave=False)
            return
        remote = self.app.remote
        if (remote is not None and self.offers.at(remote.table) is not None
                and remote.obs is not None and remote.obs.is_over
                and self.app.screen is self.app.game_screen):
            self.show_end(remote, remote.obs)

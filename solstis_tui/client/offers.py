"""A rematch the other player offers (the host's ``rematch_offer``), kept until it is
answered, and said wherever the player is when it comes.

On the end dialog it is a line there: ``y`` or ``m`` accepts, ``d`` declines, and leaving
for the lobby declines it (its maker is told instead of waiting on). Over a review it is a
note (the review's keys stay the review's: a key meant for the board answers nothing), and
the end dialog says it again once the review is closed. Elsewhere it is asked: ``y``
accepts, ``n`` or Esc declines. An offer already asked is not asked again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from textual.screen import Screen

from ..screens.confirm import ConfirmScreen
from ..wire.replies import RematchOffer


@dataclass(frozen=True)
class Offer:
    """A rematch of the game at ``table``, at the new table ``new``, offered by ``name``."""

    table: str
    new: str
    name: str
    rated: bool

    def words(self) -> str:
        """The offer in a sentence."""
        rated = " (rated)" if self.rated else ""
        return f"{self.name} offers you a rematch{rated}: a new deal, seats swapped."

    def on_end(self) -> str:
        """The offer as the end dialog says it, with the keys that answer it."""
        return (f"{self.words()}\ny or m accepts · d declines · n declines it and goes to "
                "the lobby")


class OfferPort(Protocol):
    """What the offers ask of the online app."""

    @property
    def screen(self) -> Screen[Any]: ...

    def send(self, message: dict[str, Any]) -> None: ...

    def reviewing(self) -> bool: ...

    def push_screen(self, screen: Screen[Any], callback: Callable[[Any], None]) -> Any: ...

    def notify(self, message: str, *, title: str = "", timeout: float | None = None) -> None:
        ...


class Offers:
    """The rematch offered to this player and not answered yet (``offer``)."""

    def __init__(self, app: OfferPort, table: Callable[[], str | None]) -> None:
        self.app = app
        self.table = table
        """The table open on the game screen (None: none)."""
        self.offer: Offer | None = None
        self.asked: set[str] = set()
        """The offered tables already said (asked, or noted over a review)."""
        self.question: ConfirmScreen | None = None
        """The question asking the offer, while it is up."""

    def at(self, table: str | None) -> Offer | None:
        """The offer of a rematch of the game at ``table``, if one waits."""
        offer = self.offer
        return offer if offer is not None and offer.table == table else None

    def came(self, reply: RematchOffer) -> None:
        """The host's ``rematch_offer``: kept, and said where the player is."""
        from ..screens.end import EndScreen

        offer = self.offer = Offer(reply.table, reply.new, str(reply.name), reply.rated)
        app = self.app
        if isinstance(app.screen, EndScreen) and self.table() == offer.table:
            app.screen.set_offer(offer.on_end())
        elif offer.new in self.asked:
            pass
        elif app.reviewing():
            self.note_in_review()
        else:
            self.question = ConfirmScreen(offer.words(), "y accepts · n or Esc declines",
                                          only=frozenset({"n", "escape"}))
            app.push_screen(self.question, self._answered)
        self.asked.add(offer.new)

    def note_in_review(self) -> None:
        """Say the offer over a review (whose keys stay the review's)."""
        if self.offer is not None:
            self.app.notify(f"{self.offer.words()} The end dialog asks it once the review "
                            "is closed.", title="Rematch", timeout=60)

    def review_opens(self) -> None:
        """A review opens: a question asking the offer is put away unanswered (the end
        dialog asks it once the review is closed), and a note says it."""
        if self.question is not None and self.app.screen is self.question:
            self.question.dismiss(None)
        self.note_in_review()

    def _answered(self, yes: bool | None) -> None:
        """y (True) accepts the offer, n or Esc (False) declines it; None: the question
        was put away unanswered."""
        self.question = None
        if yes is not None:
            self.answer(yes)

    def answer(self, yes: bool) -> None:
        """Accept (at the host, a rematch asked at the old table joins the offered one) or
        decline the rematch offered."""
        offer, self.offer = self.offer, None
        if offer is None:
            return
        if yes:
            self.app.send({"type": "rematch", "table": offer.table})
        else:
            self.app.send({"type": "decline", "table": offer.new})

    def gone(self, table: object) -> None:
        """The table ``table`` was joined or closed: an offer of it is over."""
        if self.offer is not None and self.offer.new == table:
            self.offer = None

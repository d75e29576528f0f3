"""What a table's game does to the ratings, said once a table however often its state
comes: a rated game the host plays unrated (said before anyone plays), and the rating
changes once it is over (``remote.rating_news``). No Textual here: ``OnlineApp`` shows
them."""

from __future__ import annotations

from .remote import RemoteSession, rating_news


class RatingNotices:
    """The tables whose notices were said."""

    def __init__(self) -> None:
        self.rating_told: set[str] = set()  # tables whose rating change was shown
        self.unrated_told: set[str] = set()  # tables said to be played unrated

    def news(self, remote: RemoteSession) -> list[str]:
        """What to say now of the game at ``remote``'s table (often nothing)."""
        said = []
        if (remote.unrated and remote.table not in self.unrated_told and remote.obs
                is not None and not remote.obs.is_over):
            self.unrated_told.add(remote.table)  # said once, before they play
            said.append(f"This rated game will be played unrated: {remote.unrated}.")
        news = rating_news(remote.seats, remote.seat)
        if news is not None and remote.table not in self.rating_told:
            self.rating_told.add(remote.table)  # once per game, not at each redraw
            said.append(news)
        return said

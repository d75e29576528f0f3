"""What a table's game does to the ratings is said once a table, however often its state
comes (``RatingNotices``, which the online app shows as toasts titled "Ratings")."""

from __future__ import annotations

from solstis_tui.client.rating_notices import RatingNotices
from solstis_tui.client.remote import RemoteSession
from solstis_tui.core import Game, Options


def table(name: str) -> RemoteSession:
    """Ann's seat at table ``name``, a game in play."""
    remote = RemoteSession(name, lambda _move, _seq: None)
    remote.obs = Game.new(seed=1, options=Options()).observation(0)
    remote.seat = 0
    remote.seats = [{"name": "Ann"}, {"name": "Bob"}]
    return remote


def test_a_rated_game_played_unrated_is_said_once_before_play():
    notices, remote = RatingNotices(), table("t1")
    remote.unrated = "the two of you played twice today"
    assert notices.news(remote) == [
        "This rated game will be played unrated: the two of you played twice today."]
    assert notices.news(remote) == []  # the next state: not again
    assert notices.news(table("t2")) == []  # another table, rated as asked


def test_a_rating_change_is_said_once_a_table():
    notices, remote = RatingNotices(), table("t1")
    assert notices.news(remote) == []
    remote.seats = [{"name": "Ann", "change": "+12"}, {"name": "Bob", "change": "-12"}]
    assert notices.news(remote) == ["Rated game: you +12 · Bob -12"]
    assert notices.news(remote) == []  # each redraw after: not again
    other = table("t2")
    other.seats = remote.seats
    assert notices.news(other) == ["Rated game: you +12 · Bob -12"]

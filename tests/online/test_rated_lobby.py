"""What a person reads of ratings: their own in the lobby, each seat's beside its name, and
a rated table chosen with one key when creating it."""

from __future__ import annotations

import pytest

from solstis_tui.client.app import OnlineApp

from .helpers import assert_shown, lobby_text, until
from .identities import ANN, BOB

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


async def test_a_rated_table_against_a_bot_shows_both_ratings_in_the_lobby(keyed):
    ann_app = OnlineApp(socket=keyed.socket_path, ssh_key=ANN)
    bob_app = OnlineApp(socket=keyed.socket_path, ssh_key=BOB)
    async with ann_app.run_test(size=(80, 24)) as ann, \
            bob_app.run_test(size=(80, 24)) as bob:
        await until(lambda: ann_app.player_name == "Ann", ann)
        assert_shown(ann_app, "You are Ann. Your rating: 1500?.")
        await ann.press("c", "g", "k")
        assert_shown(ann_app, "Rated:    yes")
        await ann.press("enter")
        await until(lambda: ann_app.remote is not None and keyed.tables, ann)
        table = next(iter(keyed.tables.values()))
        assert table.rated
        await until(lambda: bob_app.player_name == "Bob", bob)
        await bob.press("r")
        await until(lambda: bob_app.lobby.rows, bob)
        shown = lobby_text(bob_app)
        assert "Ann 1500?" in shown and "Greedy 1450 (bot)" in shown
        assert "· rated ·" in shown

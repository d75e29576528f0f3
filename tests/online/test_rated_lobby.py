"""What a person reads of ratings: their own in the lobby, each seat's beside its name, and
a rated table chosen with one key when creating it."""

from __future__ import annotations

import pytest

from solstis_tui.client.app import OnlineApp
from solstis_tui.host.ratings import bot_starts

from .helpers import assert_shown, lobby_text, screen_lines, until
from .identities import ANN, BOB
from .states import next_turn, state_where, your_turn

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
        greedy = round(bot_starts()["bot:greedy"].rating)  # from the ladder
        assert "Ann 1500?" in shown and f"Greedy {greedy} (bot)" in shown
        assert "· rated ·" in shown


async def test_a_watcher_reads_what_a_rated_game_did_to_both_ratings(keyed):
    from textual.widgets._toast import Toast

    from .identities import hello

    ann = (await hello(keyed, ANN))["client"]
    await ann.send({"type": "create", "variant": "base", "opponent": "greedy", "seat": 0,
                    "rated": True})
    table = (await ann.receive_until("joined"))["table"]
    bob_app = OnlineApp(socket=keyed.socket_path, ssh_key=BOB)
    async with bob_app.run_test(size=(80, 24), notifications=True) as bob:
        await until(lambda: bob_app.player_name == "Bob" and bob_app.lobby.rows, bob)
        await bob.press("w")
        await until(lambda: bob_app.remote is not None and bob_app.remote.obs, bob)
        obs = (await your_turn(ann, table))["observation"]
        while not obs["is_over"]:  # Ann answers her decisions; the bot plays its own
            await ann.send({"type": "move", "table": table, "move": obs["legal_moves"][0],
                            "seq": len(obs["history"])})
            obs = (await state_where(ann, table, next_turn(len(obs["history"]))))[
                "observation"]
        await until(lambda: bob_app.screen.query(Toast), bob)
        ann_after = keyed.ratings.rating("key:Ann")
        assert_shown(bob_app, "Rated game: Ann ", f"→ {round(ann_after.rating)}?",
                     "· Greedy ")


async def test_the_lobby_shows_the_players_new_rating_after_a_rated_game(keyed):
    """It kept "Your rating: 1500?" from the welcome, whatever the games since."""
    from .identities import hello
    from .states import next_turn, state_where, your_turn

    ann = (await hello(keyed, ANN))["client"]
    ann_app = OnlineApp(socket=keyed.socket_path, ssh_key=ANN)
    async with ann_app.run_test(size=(80, 24)) as pilot:
        await until(lambda: ann_app.player_name == "Ann", pilot)
        assert_shown(ann_app, "Your rating: 1500?.")
        await ann.send({"type": "create", "variant": "base", "opponent": "greedy", "seat": 0,
                        "rated": True})
        table = (await ann.receive_until("joined"))["table"]
        obs = (await your_turn(ann, table))["observation"]
        while not obs["is_over"]:  # Ann answers her decisions; the bot plays its own
            made = len(obs["history"])
            await ann.send({"type": "move", "table": table, "move": obs["legal_moves"][0],
                            "seq": made})
            obs = (await state_where(ann, table, next_turn(made)))["observation"]
        after = keyed.standings.rating_text("key:Ann")
        assert after is not None and after != "1500?"
        await pilot.press("r")  # the lobby's page again
        await until(lambda: f"Your rating: {after}." in " ".join(
            line.strip() for line in screen_lines(ann_app)), pilot)


async def test_a_player_joining_reads_before_the_first_move_that_the_game_is_played_unrated(
        keyed):
    """Two provisional ratings never rate each other (docs/ratings.md): Bob, joining Ann's
    rated table, reads so before anyone moves, and leaving for good says it moves no
    rating."""
    from textual.widgets._toast import Toast

    from solstis_tui.client.game_screen import OnlineGameScreen

    from .identities import hello

    ann = (await hello(keyed, ANN))["client"]
    await ann.send({"type": "create", "variant": "base", "opponent": "friend", "seat": 0,
                    "rated": True})
    table = (await ann.receive_until("joined"))["table"]
    bob_app = OnlineApp(socket=keyed.socket_path, ssh_key=BOB)
    async with bob_app.run_test(size=(80, 24), notifications=True) as bob:
        await until(lambda: bob_app.player_name == "Bob" and bob_app.lobby.rows, bob)
        await bob.press("enter")  # the first row: Ann's rated table, open
        await until(lambda: isinstance(bob_app.screen, OnlineGameScreen)
                    and bob_app.screen.query(Toast), bob)
        assert_shown(bob_app, "This rated game will be played unrated: both ratings are")
        assert keyed.tables[table].game.history == []  # told before the first move
        assert "it is played unrated, so it moves no rating" in \
            bob_app.screen.play.leave_question()

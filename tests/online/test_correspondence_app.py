"""Correspondence and the moving lobby as a player meets them in `solstis online`: a
friend's new table appears with no key pressed, the lobby says how many games wait for
your move and marks them, the create form offers days a move, the game's clock counts
days, and the leaderboard turns to the correspondence pool."""

from __future__ import annotations

from solstis_tui.client.app import OnlineApp
from solstis_tui.client.game_screen import OnlineGameScreen

from .helpers import lobby_text, screen_lines, widget_text
from .test_online_app import wait_for


def words(app: OnlineApp, selector: str) -> str:
    """A widget's words, whatever lines they wrap to."""
    return " ".join(widget_text(app, selector).split())


async def test_a_friends_new_table_appears_in_the_lobby_with_no_key_pressed(host, connect):
    app = OnlineApp(socket=host.socket_path, name="Bob")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.player_name == "Bob", pilot)
        ann = await connect("Ann")
        await ann.send({"type": "create", "opponent": "friend", "seat": 0, "days": 3})
        table = (await ann.receive_until("joined"))["table"]
        await wait_for(lambda: table in lobby_text(app), pilot)
        assert "Ann" in lobby_text(app) and "3 days a move" in lobby_text(app)


async def test_the_lobby_says_how_many_games_wait_for_your_move_and_marks_them(host, connect):
    ann = await connect("Ann")
    tables = []
    for _ in range(2):
        await ann.send({"type": "create", "opponent": "friend", "seat": 1, "days": 1})
        tables.append((await ann.receive_until("joined"))["table"])
    app = OnlineApp(socket=host.socket_path, name="Bob")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.player_name == "Bob", pilot)
        for table in tables:  # Bob sits in seat 0 of each: his move first
            app.join(table)
            await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
            await pilot.press("q")  # back to the lobby
            await wait_for(lambda: not isinstance(app.screen, OnlineGameScreen), pilot)
        await wait_for(lambda: "2 games wait for your move" in words(app, "#who"), pilot)
        assert lobby_text(app).count("your move") == 2


async def test_the_create_form_offers_days_a_move_and_the_game_counts_days(host, connect):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.player_name == "Ann", pilot)
        await pilot.press("c", "s", "p", "p")
        await wait_for(lambda: "2 days a move" in "\n".join(screen_lines(app)), pilot)
        shown = "\n".join(screen_lines(app))
        assert "Bank:" not in shown  # no bank of minutes in a correspondence game
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
        table = app.remote.table
        assert host.tables[table].days == 2
        bob = await connect("Bob")
        await bob.send({"type": "join", "table": table})
        await bob.receive_until("joined")
        await wait_for(lambda: "1d 23h" in "\n".join(screen_lines(app))
                       or "2d 00h" in "\n".join(screen_lines(app)), pilot)


async def test_the_leaderboard_turns_to_the_correspondence_pool(host):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.player_name == "Ann", pilot)
        await pilot.press("l")
        await wait_for(lambda: "Leaderboard, live games" in "\n".join(screen_lines(app)),
                       pilot)
        await pilot.press("c")
        await wait_for(lambda: "Leaderboard, correspondence games" in
                       "\n".join(screen_lines(app)), pilot)

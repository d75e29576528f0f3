"""At a table of the game host, in an 80×24 terminal: the move clock on the top line
counts down and says when the waiting player may claim; `f` leaves a table for good once
the player says yes (`q` keeps the seat); a rated table shows both ratings, long names
and all. The clocks are the test's own (no wall-clock time is asserted)."""

from __future__ import annotations

import io

from rich.console import Console
from textual.widgets import Static

from solstis_tui.client.app import OnlineApp
from solstis_tui.client.confirm import ConfirmScreen
from solstis_tui.client.game_screen import OnlineGameScreen
from solstis_tui.client.lobby import LobbyScreen
from solstis_tui.host.host import Host
from solstis_tui.host.identity import key_line
from solstis_tui.play.table_header import NO_CLOCK_YET

from .helpers import screen_lines
from .identities import STRANGER, a_key, hello
from .test_host import game_at
from .test_online_app import open_friend_table, opponent_moves, seated_with_bob, wait_for

LONG, OTHER = "Bartholomew Quinnsworthy", "Maximiliana Featherstone"  # 24 characters each


def shown(app: OnlineApp) -> list[str]:
    """The terminal's lines as the player sees them."""
    return screen_lines(app)


def words(app: OnlineApp) -> str:
    """The words on the terminal, whatever lines they wrap to."""
    return " ".join(" ".join(shown(app)).split())


def asked(app: OnlineApp) -> str:
    """The question a confirmation box asks ('' when none is open)."""
    if not isinstance(app.screen, ConfirmScreen):
        return ""
    return " ".join(str(w.render()) for w in app.screen.query(Static))


def top_line(app: OnlineApp) -> str:
    return shown(app)[0]


def host_clock_stands_still(host: Host) -> None:
    """The host's move clock stops where it is: a decision keeps its full time until the
    test moves the clock on (a loaded machine may take seconds to draw a state)."""
    now = host.clock()
    host.clock = lambda: now


def screen_clock_stands_still(app: OnlineApp) -> None:
    """The player's screen counts nothing down between the host's states."""
    assert app.remote is not None
    app.remote.clock, app.remote.received_at = (lambda: 0.0), 0.0


class Elapsed:
    """The client's clock: seconds since the last state, as the test says."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self) -> float:
        return self.seconds


async def test_the_move_clock_counts_down_on_screen_and_says_when_to_claim(host, connect):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        host_clock_stands_still(host)
        bob, table = await seated_with_bob(app, pilot, connect)
        screen_clock_stands_still(app)
        await wait_for(lambda: top_line(app).rstrip().endswith(NO_CLOCK_YET.text), pilot)
        while game_at(host, table).to_play == 0:  # Ann plays her turn out: Bob decides
            await pilot.press("enter")
            await pilot.pause(0.1)
        while game_at(host, table).to_play == 1:  # Bob plays his: the clocks run
            await opponent_moves(bob, table, host, pilot)
        # the clocks run: the move clock, and the bank beside it
        await wait_for(lambda: top_line(app).rstrip().endswith("your clock 5:00 · bank 20:00"),
                       pilot)
        while game_at(host, table).to_play == 0:  # Ann plays her turn out: Bob decides
            await pilot.press("enter")
            await pilot.pause(0.1)
        await wait_for(lambda: "their clock 5:00 · bank 20:00" in top_line(app), pilot)
        elapsed = Elapsed()
        app.remote.clock, app.remote.received_at = elapsed, 0.0
        elapsed.seconds = 280.5  # no message from the host: the screen counts down itself
        await wait_for(lambda: "their clock 0:20!" in top_line(app), pilot)
        clock = app.screen.query_one("#topbar").render()
        assert any(getattr(span.style, "reverse", None) is True and
                   clock.plain[span.start:span.end].startswith("their clock 0:20! · bank ")
                   for span in clock.spans)  # its look changed
        assert len(top_line(app)) == 80
        elapsed.seconds = 301
        await wait_for(lambda: "their time is up: o claims" in top_line(app), pilot)
        await wait_for(lambda: "time is up: o claims the game" in words(app), pilot)
        now = host.clock()
        host.clock = lambda: now + 301
        await pilot.press("o")
        await wait_for(lambda: app.remote.obs.is_over, pilot)
        game = game_at(host, table)
        assert (game.end_reason.value, game.winner) == ("time", 0)


async def test_f_leaves_for_good_only_after_a_yes_and_q_keeps_the_seat(host, connect):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        _bob, table = await seated_with_bob(app, pilot, connect)
        await wait_for(lambda: "f Leave" in shown(app)[-1] and "q Lobby" in shown(app)[-1],
                       pilot)  # the footer offers both once it is drawn
        await pilot.press("q")  # back to the lobby: the seat and the game stay
        await wait_for(lambda: isinstance(app.screen, LobbyScreen), pilot)
        await pilot.pause(0.2)
        assert host.tables[table].seat_of(app.lobby.me[1]) == 0 and not game_at(host, table).is_over
        await pilot.press("enter")  # back to the table from the lobby
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
        await pilot.press("f")  # a stray f asks first; any other key stays
        await wait_for(lambda: "y leaves for good" in asked(app), pilot)
        assert f"Leave table {table} for good? The game ends now as your loss." in asked(app)
        await pilot.press("n")
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
        await pilot.pause(0.2)
        assert not game_at(host, table).is_over
        await pilot.press("f", "y")
        await wait_for(lambda: isinstance(app.screen, LobbyScreen), pilot)
        await wait_for(lambda: game_at(host, table).is_over, pilot)
        game = game_at(host, table)
        assert (game.end_reason.value, game.winner) == ("resigned", 1)
        assert host.tables[table].seat_of(app.lobby.me[1]) == 0  # the result stays hers


async def test_leaving_a_table_nobody_joined_gives_it_up_and_a_watcher_has_no_f(
        host, connect):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_friend_table(app, pilot)
        table = app.remote.table
        await pilot.press("f")
        await wait_for(lambda: "Nobody has joined it yet, so it closes" in asked(app), pilot)
        await pilot.press("y")
        await wait_for(lambda: table not in host.tables, pilot)
        assert isinstance(app.screen, LobbyScreen)
    ann = await connect("Cy")
    await ann.send({"type": "create", "opponent": "friend", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    eve = OnlineApp(socket=host.socket_path, name="Eve")
    async with eve.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: eve.lobby.rows, pilot)
        await pilot.press("w")
        await wait_for(lambda: isinstance(eve.screen, OnlineGameScreen), pilot)
        await wait_for(lambda: "q Lobby" in shown(eve)[-1], pilot)  # the footer is drawn
        assert "f Leave" not in shown(eve)[-1]
        await pilot.press("f")  # it says why it does nothing
        await wait_for(lambda: "a watcher leaves with q" in words(eve), pilot)
        assert table in host.tables


async def test_a_rated_table_shows_both_ratings_with_the_longest_names(keyed):
    keyed.keys_path.write_text(keyed.keys_path.read_text() + "\n".join(
        [key_line(STRANGER, LONG), key_line(a_key(5), OTHER), ""]))
    other = await hello(keyed, a_key(5))
    assert other["name"] == OTHER
    app = OnlineApp(socket=keyed.socket_path, ssh_key=STRANGER)
    host_clock_stands_still(keyed)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.player_name == LONG, pilot)
        await other["client"].send({"type": "create", "variant": "firefly", "seat": 1,
                                    "opponent": "friend", "rated": True})
        table = (await other["client"].receive_until("joined"))["table"]
        await pilot.press("r")  # the lobby lists it
        await wait_for(lambda: app.lobby.rows, pilot)
        await pilot.press("enter")  # its first row: the rated table open
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
        screen_clock_stands_still(app)
        await wait_for(lambda: f"{OTHER} 1500?" in top_line(app)
                       and top_line(app).rstrip().endswith(NO_CLOCK_YET.text), pilot)
        line = top_line(app)
        assert "You 1500? vs" in line and line.rstrip().endswith(NO_CLOCK_YET.text)
        assert len(line) == 80 and table in keyed.tables


async def test_the_help_says_what_q_and_f_do_at_a_table(host):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_friend_table(app, pilot)
        await pilot.press("question_mark")
        await wait_for(lambda: app.screen is app.help_screen, pilot)
        console = Console(width=76, record=True, file=io.StringIO())
        console.print(app.screen.query_one("#section--1", Static).content)
        keys = " ".join(console.export_text().replace("│", " ").split())
        assert "q back to the lobby. Your seat stays yours" in keys
        assert "f leave the table for good, after a y to confirm" in keys


async def test_in_ascii_the_clock_and_the_table_keys_fit_80_columns(host, connect):
    app = OnlineApp(socket=host.socket_path, name="Ann", ascii_mode=True)
    async with app.run_test(size=(80, 24)) as pilot:
        host_clock_stands_still(host)
        await seated_with_bob(app, pilot, connect)
        screen_clock_stands_still(app)
        await wait_for(lambda: NO_CLOCK_YET.text in top_line(app), pilot)
        await wait_for(lambda: "q Lobby" in shown(app)[-1], pilot)  # the footer is drawn
        footer = shown(app)[-1]
        assert "q Lobby" in footer and "x Resign" in footer and "f Leave" in footer
        assert all(line.isascii() for line in shown(app))

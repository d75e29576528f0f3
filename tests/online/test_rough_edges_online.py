"""Rough edges a player met online (issue 63), each as the player meets it (Pilot, a live
host): no Resign offered where there is nothing to resign, the end dialog's `n` named as
what it does, and a name refused as taken saying how its player comes back."""

from __future__ import annotations

from pathlib import Path

from solstis_tui.client.app import OnlineApp
from solstis_tui.client.game_screen import OnlineGameScreen
from solstis_tui.client.launch import online_parser
from solstis_tui.screens.end import EndScreen

from .helpers import screen_lines
from .states import over, state_where
from .test_host import start_friend_game
from .test_online_app import seated_with_bob, wait_for
from .test_online_history import resign_at_the_table

ROOT = Path(__file__).resolve().parents[2]


def footer(app) -> str:
    lines = screen_lines(app)
    return lines[-1] if lines else ""  # (nothing drawn yet)


def prompt(app) -> str:
    return str(app.screen.query_one("#prompt").render())


def shown(app) -> str:
    return " ".join(" ".join(screen_lines(app)).split())


async def test_resign_is_offered_to_a_player_in_play_and_not_once_the_game_is_over(
        host, connect):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await seated_with_bob(app, pilot, connect)
        await wait_for(lambda: "x Resign" in footer(app), pilot)  # a game to give up
        await pilot.press("x", "y")
        await wait_for(lambda: isinstance(app.screen, EndScreen), pilot)
        await pilot.press("escape")  # the board of the finished game
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen)
                       and "q Lobby" in footer(app), pilot)
        assert "Resign" not in footer(app)
        await pilot.press("x")  # not offered; pressed anyway, it says why
        await wait_for(lambda: "the game is over" in prompt(app), pilot)
        assert isinstance(app.screen, OnlineGameScreen)


async def test_a_watcher_is_not_offered_resign_and_x_says_why(host, connect):
    _ann, _bob, table = await start_friend_game(connect)
    app = OnlineApp(socket=host.socket_path, name="Eve")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.player_name == "Eve", pilot)
        app.watch_table(table)
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen)
                       and "Lobby" in footer(app), pilot)
        assert "Resign" not in footer(app)
        await pilot.press("x")
        await wait_for(lambda: "only the players can resign" in prompt(app), pilot)
        assert not any("Resign this game" in line for line in screen_lines(app))


async def test_the_online_end_dialog_names_n_as_the_lobby_and_n_goes_there(host, connect):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await resign_at_the_table(app, pilot, connect)
        await wait_for(lambda: "Lobby (n)" in shown(app), pilot)
        assert "New game" not in shown(app)
        await pilot.press("n")
        await wait_for(lambda: app.screen is app.lobby, pilot)
    # and the pages on playing online say the same of n
    for page in (ROOT / "README.md", ROOT / "docs" / "ssh.md"):
        said = " ".join(page.read_text(encoding="utf-8").split())
        assert "`n` goes back to the lobby" in said or "`n` (\"Lobby (n)\") goes back to " \
            "the lobby" in said, page


async def test_a_name_refused_as_taken_says_how_its_player_comes_back_and_that_works(host):
    first = OnlineApp(socket=host.socket_path, name="Cy")
    async with first.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: first.player_name == "Cy", pilot)
        code = first.lobby.me[1]  # shown once, in the lobby's first line
    again = OnlineApp(socket=host.socket_path, name="Cy")  # solstis online --name Cy
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: "is taken" in shown(again), pilot)
        said = shown(again)
        assert "the name Cy is taken" in said and "Otherwise, choose another name." in said
        assert "resume code" in said and "type it here as #code" in said
        assert "solstis online --code=CODE" in said  # the whole sentence fits 80×24
        for dashed in (code, f"-{code}"):  # the flag as named works, whatever the code
            assert online_parser().parse_args([f"--code={dashed}"]).code == dashed
        await pilot.press(*f"#{code}", "enter")  # as it says: the code, typed here
        await wait_for(lambda: again.player_name == "Cy", pilot)


async def test_after_a_finished_game_resign_stays_out_of_the_footer_at_once(host, connect):
    """The game ends by the other player's move (here: Bob resigns): the footer drops
    Resign as the end comes, without a key pressed."""
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        bob, table = await seated_with_bob(app, pilot, connect)
        await wait_for(lambda: "x Resign" in footer(app), pilot)
        await bob.send({"type": "resign", "table": table})
        await state_where(bob, table, over)
        await wait_for(lambda: isinstance(app.screen, EndScreen), pilot)
        await pilot.press("escape")
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen)
                       and "q Lobby" in footer(app), pilot)
        assert "Resign" not in footer(app)

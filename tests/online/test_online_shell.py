"""The online app is the application shell with the host as its source of games: its own
start (the lobby), its own palette commands, and the hello ``HostClient`` makes."""

from __future__ import annotations

from solstis_tui.app import SolstisApp
from solstis_tui.client.app import OnlineApp
from solstis_tui.client.client import HostClient
from solstis_tui.client.game_screen import OnlineGameScreen
from solstis_tui.client.lobby import LobbyScreen
from solstis_tui.host.host import Host
from solstis_tui.local.seats import PERSON
from solstis_tui.local.session import Setup
from solstis_tui.wire.protocol import VERSION

from .conftest import quick_bot
from .test_online_app import open_friend_table, wait_for

SHARED = {"Theme", "Quit", "Keys", "Rules and keys", "Toggle ASCII mode"}
AT_A_TABLE = {"Game log", "Spirits"}
LOCAL_ONLY = {"Screenshot", "New game", "Hint", "Review game", "Undo", "Review last game"}


def palette(app) -> set[str]:
    """The palette's command titles (but Textual's Maximize, which follows the focus)."""
    titles = {command.title for command in app.get_system_commands(app.screen)}
    return titles - {"Maximize", "Minimize"}


async def test_the_online_palette_has_the_shell_and_the_lobby_only(host):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.player_name == "Ann", pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert palette(app) == SHARED | {"Lobby"}
        await open_friend_table(app, pilot)
        assert palette(app) == SHARED | AT_A_TABLE | {"Lobby"}
        assert not palette(app) & LOCAL_ONLY  # no screenshot file on the host machine
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Lobby")
        command.callback()
        await wait_for(lambda: isinstance(app.screen, LobbyScreen), pilot)
        assert app.remote is None and app.game_screen is None


async def test_the_local_palette_keeps_its_own_commands():
    app = SolstisApp(Setup(seed=3, seats=(PERSON, "random")), autosave=False, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = palette(app)
        assert SHARED | AT_A_TABLE | {"Screenshot", "New game", "Hint"} <= titles
        assert "Review game" not in titles  # the game is not over: it would not act
        assert "Lobby" not in titles


async def test_the_online_app_says_the_tcp_token_in_its_hello(tmp_path, monkeypatch):
    """The app's hello is ``HostClient.hello_message``: over TCP it carries the token."""
    host = Host(tmp_path / "data", bot_factory=quick_bot)
    await host.serve_unix(tmp_path / "host.sock")
    token = "s3cret-token-of-enough-length"
    port = await host.serve_tcp("127.0.0.1", 0, token=token)
    monkeypatch.setenv("SOLSTIS_TOKEN", token)
    made: list[dict] = []
    hello_message = HostClient.hello_message

    def spy(self: HostClient, name: str | None = None, code: str | None = None) -> dict:
        made.append(hello_message(self, name, code))
        return made[-1]

    monkeypatch.setattr(HostClient, "hello_message", spy)
    app = OnlineApp(tcp=("127.0.0.1", port), name="Ann")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(lambda: app.player_name == "Ann", pilot)
            assert made == [{"type": "hello", "version": VERSION, "name": "Ann", "token": token}]
            assert isinstance(app.screen, LobbyScreen)
            await open_friend_table(app, pilot)
            assert isinstance(app.screen, OnlineGameScreen)
    finally:
        await host.close()

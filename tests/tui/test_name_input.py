"""The lobby's name field stops at 24 characters as the player types (the host refuses
more), and says why, instead of taking more and refusing them on Enter."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Input, Static

from solstis_tui.client.lobby import LobbyScreen
from solstis_tui.host.protocol import MAX_NAME


class Lobby(App[None]):
    def on_mount(self) -> None:
        self.push_screen(LobbyScreen(name_known=False))


async def test_the_name_field_stops_at_the_hosts_limit_and_says_so():
    app = Lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = app.screen.query_one("#name", Input)
        assert field.has_focus
        await pilot.press(*"Wilhelmina von Hohenzollern-Sigmaringen")
        await pilot.pause()
        assert field.value == "Wilhelmina von Hohenzollern-Sigmaringen"[:MAX_NAME]
        assert f"at most {MAX_NAME} characters" in str(
            app.screen.query_one("#lobby-error", Static).render())
        await pilot.press("backspace")
        await pilot.pause()
        assert not str(app.screen.query_one("#lobby-error", Static).render()).strip()

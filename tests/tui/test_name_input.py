"""The lobby's name field stops at 24 characters as the player types (the host refuses
more), and says why, instead of taking more and refusing them on Enter."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Input, Static

from solstis_tui.client.lobby import LobbyScreen
from solstis_tui.wire.protocol import MAX_NAME


class Lobby(App[None]):
    player_name = None

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


async def test_at_80_columns_every_lobby_column_is_seen_beside_24_character_names():
    from textual.widgets import DataTable

    name = "W" * MAX_NAME
    app = Lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        lobby.show_tables([{"table": f"t{i:06x}", "variant": "firefly", "status": "playing",
                            "turn": 12, "watchers": 3,
                            "seats": [{"name": name, "connected": True},
                                      {"name": name, "connected": False}]}
                           for i in range(3)])
        await pilot.pause()
        table = lobby.query_one(DataTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        row = str(lobby.query_one("#row", Static).render())
        assert f"{name} vs {name} (away)" in row  # the names whole under the table

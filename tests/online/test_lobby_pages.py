"""The lobby a page at a time: a host with more tables than one `tables`
message carries. The player sees how many there are, turns pages with keys, keeps their
page on refresh and on coming back from a table, and always finds their own tables."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from textual.widgets import Footer

from solstis_tui.client.app import OnlineApp
from solstis_tui.client.client import HostClient
from solstis_tui.client.game_screen import OnlineGameScreen
from solstis_tui.client.lobby import LobbyScreen
from solstis_tui.core import Options
from solstis_tui.host.host import Host
from solstis_tui.host.tables import Seat, new_table

from .helpers import screen_lines
from .test_online_app import wait_for


def fill(host: Host, count: int) -> list[str]:
    """``count`` open tables of other players, each newer than every table before."""
    ids = []
    for i in range(count):
        table = new_table(Options.for_variant("base"), [Seat(f"P{i}", f"code-p{i}"), Seat()])
        table.created = max((t.created for t in host.tables.values()), default=0) + 1
        host.tables[table.id] = table
        ids.append(table.id)
    return ids


async def ann_with_a_table(connect) -> tuple[str, str]:
    """Ann's resume code and the friend table she opened (then she went away)."""
    ann = await connect("Ann")
    await ann.send({"type": "create", "opponent": "friend", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    ann.writer.close()
    return ann.code, table


def page_line(app: OnlineApp) -> str:
    return str(app.lobby.query_one("#page").render())


def listed(host: Host, code: str, offset: int) -> list[str]:
    """The table ids the host lists on the page at ``offset``."""
    return [row["table"] for row in host.keeper.lobby_page(code, offset)["tables"]]


async def shows(app: OnlineApp, pilot, text: str) -> None:
    await wait_for(lambda: text in page_line(app), pilot)


async def test_the_lobby_says_how_many_tables_and_turns_pages_with_keys(host, connect):
    code, mine = await ann_with_a_table(connect)
    fill(host, 120)  # newer than Ann's table: only "her own first" puts it on top
    app = OnlineApp(socket=host.socket_path, code=code)
    async with app.run_test(size=(80, 24)) as pilot:
        await shows(app, pilot, "Tables 1–50 of 121")
        assert app.lobby.selected()["table"] == mine  # her table first, selected
        assert "] next page" in page_line(app)
        await pilot.press("right_square_bracket")
        await shows(app, pilot, "Tables 51–100 of 121")
        assert [r["table"] for r in app.lobby.rows] == listed(host, code, 50)
        assert app.lobby.selected()["table"] == listed(host, code, 50)[0]
        assert "[ previous page · ] next page" in page_line(app)
        await pilot.press("right_square_bracket")
        await shows(app, pilot, "Tables 101–121 of 121")
        assert "next page" not in page_line(app)
        await pilot.press("right_square_bracket")  # no page after the last
        await pilot.pause(0.2)
        assert "Tables 101–121 of 121" in page_line(app)
        # Back two pages: her own table is there, and Enter sits her down at it.
        await pilot.press("left_square_bracket", "left_square_bracket")
        await shows(app, pilot, "Tables 1–50 of 121")
        assert app.lobby.selected()["table"] == mine
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
        assert (app.remote.table, app.remote.seat) == (mine, 0)


async def test_page_keys_fit_the_footer_at_80_columns(host, connect):
    code, _mine = await ann_with_a_table(connect)
    fill(host, 300)
    app = OnlineApp(socket=host.socket_path, code=code)
    async with app.run_test(size=(80, 24)) as pilot:
        await shows(app, pilot, "of 301")
        await pilot.press("right_square_bracket", "right_square_bracket")
        await shows(app, pilot, "Tables 101–150 of 301")
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        text = "\n".join(screen_lines(app)[footer.region.y:])
        assert "[ Prev page" in text and "] Next page" in text, text
        lines = screen_lines(app)
        assert any("Tables 101–150 of 301 (yours first) · [ previous page · ] next page"
                   in line for line in lines)


class SlowLink:
    """A client's link to the host that the test can hold: while ``held``, each message
    that arrives waits until the test lets it through (``one_through``)."""

    def __init__(self, receive: Any) -> None:
        self._receive = receive
        self._passes = asyncio.Semaphore(0)
        self.held = False
        self.through = 0

    async def receive(self, client: HostClient) -> dict:
        message = await self._receive(client)
        if self.held:
            await self._passes.acquire()
        self.through += 1
        return message

    async def one_through(self, pilot) -> None:
        """Let the next message through and wait until the app has taken it in."""
        before = self.through
        self._passes.release()
        await wait_for(lambda: self.through > before, pilot)
        await pilot.pause()

    def let_go(self) -> None:
        """No more holding (a message waiting now goes through)."""
        self.held = False
        self._passes.release()


async def test_quick_presses_turn_as_many_pages(host, connect, monkeypatch):
    code, _mine = await ann_with_a_table(connect)
    fill(host, 200)
    link = SlowLink(HostClient.receive)

    async def receive(client: HostClient) -> dict:
        return await link.receive(client)

    monkeypatch.setattr(HostClient, "receive", receive)
    app = OnlineApp(socket=host.socket_path, code=code)
    async with app.run_test(size=(80, 24)) as pilot:
        await shows(app, pilot, "Tables 1–50 of 201")
        link.held = True
        await pilot.press(*["right_square_bracket"] * 3)  # before any answer comes
        for _ in range(10):  # the answers, one at a time: no flicker through pages 2, 3
            if "Tables 1–50" not in page_line(app):
                break
            await link.one_through(pilot)
        assert "Tables 151–200 of 201" in page_line(app)
        link.let_go()
        await pilot.press(*["right_square_bracket"] * 3)  # only one page is left
        await shows(app, pilot, "Table 201 of 201")
        await pilot.press(*["left_square_bracket"] * 9)  # never before the first
        await shows(app, pilot, "Tables 1–50 of 201")


async def test_page_down_and_up_run_on_across_pages(host, connect):
    code, _mine = await ann_with_a_table(connect)
    fill(host, 80)
    app = OnlineApp(socket=host.socket_path, code=code)
    async with app.run_test(size=(80, 24)) as pilot:
        await shows(app, pilot, "Tables 1–50 of 81")
        table = app.lobby.query_one("#tables")
        for _ in range(50):  # PageDown walks down the page...
            if table.cursor_row == table.row_count - 1:
                break
            await pilot.press("pagedown")
        assert "Tables 1–50 of 81" in page_line(app)
        await pilot.press("pagedown")  # ...and on its last row turns it
        await shows(app, pilot, "Tables 51–81 of 81")
        assert app.lobby.selected()["table"] == listed(host, code, 50)[0]
        await pilot.press("pageup")  # on the first row: the previous page's last row
        await shows(app, pilot, "Tables 1–50 of 81")
        assert app.lobby.selected()["table"] == listed(host, code, 0)[-1]


@contextlib.asynccontextmanager
async def on_page_two(host, connect) -> AsyncIterator[tuple[OnlineApp, Any, str, str]]:
    """Ann, with a table of her own among 121, looking at the lobby's second page."""
    code, mine = await ann_with_a_table(connect)
    fill(host, 120)
    app = OnlineApp(socket=host.socket_path, code=code)
    async with app.run_test(size=(80, 24)) as pilot:
        await shows(app, pilot, "Tables 1–50 of 121")
        await pilot.press("right_square_bracket")
        await shows(app, pilot, "Tables 51–100 of 121")
        yield app, pilot, code, mine


async def test_a_refresh_keeps_the_page_and_the_selected_table(host, connect):
    async with on_page_two(host, connect) as (app, pilot, code, _mine):
        await pilot.press("down", "down", "down")
        chosen = app.lobby.selected()["table"]
        assert chosen == listed(host, code, 50)[3]
        fill(host, 1)  # a new table on top moves every other one a row down
        await pilot.press("r")
        await shows(app, pilot, "Tables 51–100 of 122")
        assert app.lobby.selected()["table"] == chosen == listed(host, code, 50)[4]
        # Tables go away while she looks at the last page: she sees the new last page.
        await pilot.press("right_square_bracket")
        await shows(app, pilot, "Tables 101–122 of 122")
        while listed(host, code, 60):
            for table_id in listed(host, code, 60):
                del host.tables[table_id]
        await pilot.press("r")
        await shows(app, pilot, "Tables 51–60 of 60")
        assert [r["table"] for r in app.lobby.rows] == listed(host, code, 50)


async def test_back_from_a_table_on_the_same_page_with_her_table_on_the_first(host,
                                                                               connect):
    async with on_page_two(host, connect) as (app, pilot, code, mine):
        await pilot.press("down")
        joined = app.lobby.selected()["table"]
        await pilot.press("enter")  # an open table: she takes its free seat
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
        assert app.remote.table == joined
        await pilot.press("q")  # back to the lobby
        await wait_for(lambda: isinstance(app.screen, LobbyScreen), pilot)
        # The same page, as it is now: her new table has moved up to the first page.
        await wait_for(lambda: [r["table"] for r in app.lobby.rows] == listed(host, code, 50),
                       pilot)
        assert "Tables 51–100 of 121" in page_line(app) and joined not in app.lobby.shown
        await pilot.press("left_square_bracket")
        await shows(app, pilot, "Tables 1–50 of 121")
        assert {r["table"] for r in app.lobby.rows[:2]} == {mine, joined}


async def test_one_page_of_tables_shows_no_page_keys(host, connect):
    code, mine = await ann_with_a_table(connect)
    fill(host, 3)
    app = OnlineApp(socket=host.socket_path, code=code)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: len(app.lobby.rows) == 4, pilot)
        await pilot.pause()
        assert page_line(app) == ""
        lines = screen_lines(app)
        assert not any("Next page" in line or "Prev page" in line for line in lines)
        await pilot.press("right_square_bracket", "r")
        await pilot.pause(0.2)
        assert app.lobby.selected()["table"] == mine and len(app.lobby.rows) == 4


async def test_host_news_that_comes_as_the_lobby_is_taken_down_is_dropped_quietly(host,
                                                                                 connect):
    """As the app closes, the lobby's widgets go before the last of the host's messages
    have been read: a page, a rating, a renaming or a word then changes nothing and
    raises nothing (it had crashed the app's exit)."""
    code, _mine = await ann_with_a_table(connect)
    app = OnlineApp(socket=host.socket_path, code=code)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: len(app.lobby.rows) == 1, pilot)
        lobby = app.lobby
        await lobby.remove_children()  # as the app's exit does before the screen goes
        lobby.show_page({"type": "tables", "tables": lobby.rows, "offset": 0, "total": 1})
        lobby.rated("1500")
        lobby.renamed("Ann")
        lobby.say("a word from the host")
        assert lobby.message == "a word from the host"  # kept for when it can be shown

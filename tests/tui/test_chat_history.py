"""Chat is kept: each line goes to the game log and the chat box shows the last ones, not
only a toast that is gone after five seconds. Names and words stay text, never markup."""

from __future__ import annotations

from textual.widgets import Static

from solstis_tui.client.app import OnlineApp
from solstis_tui.client.chat import ChatScreen


async def test_chat_lines_are_kept_and_shown_above_the_chat_input():
    app = OnlineApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for i in range(8):
            app.on_host_message({"type": "chat", "table": "t1", "name": "Ann",
                                 "text": f"[b]line {i}"})
        assert app.chat_lines[-1] == "Ann: [b]line 7" and len(app.chat_lines) == 8
        app.push_screen(ChatScreen(app.chat_lines))
        await pilot.pause()
        shown = str(app.screen.query_one("#chat-history", Static).render()).splitlines()
        assert shown == [f"Ann: [b]line {i}" for i in range(2, 8)]


async def test_a_chat_line_goes_into_the_table_log():
    class Log:
        def __init__(self) -> None:
            self.lines: list[str] = []

        def log_lines(self, lines: list[str], reset: bool) -> None:
            self.lines += lines

    app = OnlineApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.game_screen = log = Log()  # type: ignore[assignment]
        app.on_host_message({"type": "chat", "table": "t1", "name": "Bob",
                             "text": "good move"})
        assert log.lines == ["» Bob: good move"]  # behind chat's mark (see gamelog)
        app.game_screen = None

"""People's words never look like the game's own lines: chat has its own column, mark and
style in the game log, and its toasts are titled "Chat"."""

from __future__ import annotations

from solstis_tui.client.app import OnlineApp
from solstis_tui.widgets.gamelog import GameLog

from .test_online_app import open_friend_table, wait_for

FORGED = "Mal73 ran out of time, so You win"


def log_rows(app: OnlineApp) -> list[str]:
    """The game log's lines as drawn on the screen, one a screen row."""
    log = app.screen.query_one("#log", GameLog)
    return [strip.text.rstrip() for strip in log.lines]


async def test_chat_from_a_watcher_called_game_over_never_reads_as_the_games_line(host):
    """A host that let "Game over" in as a name (an older one), and a line long enough to
    wrap onto a row of its own: every row of it is in chat's column, behind chat's mark."""
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_friend_table(app, pilot)
        table = app.remote.table
        app.on_host_message({"type": "chat", "table": table, "name": "Game over",
                             "text": FORGED})
        app.on_host_message({"type": "chat", "table": table, "name": "Eve",
                             "text": "— turn 99: You — " * 12})
        await wait_for(lambda: any("turn 99" in row for row in log_rows(app)), pilot)
        rows = log_rows(app)
        assert len(rows) > 4  # Eve's line wrapped: the rows after its first are chat's too
        game_rows = [row for row in rows if row and not row.startswith(("» ", "  "))]
        narrated = [line for line in app.game_screen.shown_log() if not line.startswith("»")]
        assert game_rows == narrated, rows  # the left edge holds the game's lines only
        assert f"» Game over: {FORGED}" in rows
        await wait_for(lambda: len(app._notifications) == 2, pilot)
        said = [(n.title, n.message) for n in app._notifications]
        assert ("Chat", f"Game over: {FORGED}") in said
        # The whole log (v): the same column there.
        await pilot.press("v")
        await wait_for(lambda: app.screen.query("#fulllog"), pilot)
        full = [strip.text.rstrip() for strip in app.screen.query_one("#fulllog").lines]
        assert [row for row in full if row and not row.startswith(("» ", "  "))] == narrated

"""Log lines written while the window was narrow are wrapped again when it grows."""

from __future__ import annotations

from textual.app import App, ComposeResult

from solstis_tui.widgets.gamelog import GameLog

LINES = ["Minimax bot played 3-7 and captured 3-3 from the display; it sits at 3-7 now.",
         "— turn 4: You —",
         "You drew a tile: the second chance gave you 5-9, which captures nothing."]


class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield GameLog()


async def test_narrow_lines_are_rewrapped_after_a_resize():
    app = LogApp()
    async with app.run_test(size=(40, 20)) as pilot:
        log = app.query_one(GameLog)
        log.add(LINES)
        await pilot.pause()
        assert len(log.lines) > len(LINES)  # wrapped at 40 columns
        await pilot.resize_terminal(120, 20)
        await pilot.pause()
        await pilot.pause()
        assert len(log.lines) == len(LINES)
        assert log.lines_text == LINES
        await pilot.resize_terminal(40, 20)
        await pilot.pause()
        await pilot.pause()
        assert len(log.lines) > len(LINES)

"""The corrupt-save dialog breaks a long path after a '/', never in the middle of a name."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Static

from solstis_tui.screens.message import MessageScreen

PATH = ("/home/someone/.local/share/solstis/a-rather-long-folder-name-for-saves/"
        "autosave.corrupt-20261203-154401.json")


class One(App[None]):
    def on_mount(self) -> None:
        self.push_screen(MessageScreen("The saved game is damaged",
                                       f"The saved game could not be read. It was kept as "
                                       f"{PATH} and a new game was started."))


async def test_a_long_path_breaks_only_after_a_slash():
    app = One()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        body = app.screen.query(Static)[1]
        lines = ["".join(seg.text for seg in body.render_line(y)).strip()
                 for y in range(body.size.height)]
        assert len(lines) > 2
        names = PATH.strip("/").split("/")
        for name in names:  # each file or folder name whole on one line
            assert any(name in line for line in lines), (name, lines)
        assert "".join(lines).replace(" ", "").count(PATH.replace(" ", "")) == 1

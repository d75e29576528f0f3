"""An edited engine source runs as pure Python: the full-screen app says so too (the line
printed before it started is hidden while it runs)."""

from __future__ import annotations

from textual.widgets._toast import Toast

from solstis_tui import engine_build

from .conftest import make_app, settle


async def test_an_edited_engine_file_is_told_in_the_app(monkeypatch):
    stale = engine_build.Status(False, "", stale="solstis_tui/core/game.py")
    monkeypatch.setattr(engine_build, "STATUS", stale)
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        toasts = " ".join(str(toast.render()) for toast in app.screen.query(Toast))
        assert "solstis_tui/core/game.py changed" in toasts and "pure-Python" in toasts


async def test_an_unedited_engine_shows_no_such_notice(monkeypatch):
    monkeypatch.setattr(engine_build, "STATUS", engine_build.Status(True, ""))
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        assert not [t for t in app.screen.query(Toast) if "changed" in str(t.render())]

"""A data directory that cannot be written: one warning saying where and how, then play on."""

from __future__ import annotations

import os
import random
import stat

import pytest

from .conftest import keys_for, make_app, settle


async def play_with_warnings(data_dir, decisions: int = 6) -> tuple[list[str], int]:
    """Make ``decisions`` decisions by keys; the warnings shown and the moves made."""
    app = make_app(seats=("human", "random"), seed=3)
    shown: list[str] = []
    notify = app.notify

    def recording_notify(message: str, **kwargs) -> None:
        shown.append(message)
        notify(message, **kwargs)

    app.notify = recording_notify  # type: ignore[method-assign]
    rng = random.Random(5)
    async with app.run_test() as pilot:
        for _ in range(decisions):
            await settle(pilot, app)
            if app.game_screen.session.game.is_over:
                break
            await pilot.press(*keys_for(app.game_screen, rng))
        await settle(pilot, app)
        made = sum(1 for p, _, auto in app.game_screen.session.game.history
                   if p == 0 and not auto)
    return shown, made


def check(shown: list[str], made: int, folder) -> None:
    assert made >= 5, "the game goes on after the save fails"
    assert len(shown) == 1, shown
    [warning] = shown
    assert str(folder) in warning and "SOLSTIS_DATA_DIR" in warning


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="a read-only folder binds only non-root POSIX users")
async def test_a_read_only_data_folder_is_reported_once(data_dir):
    data_dir.mkdir()
    data_dir.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        shown, made = await play_with_warnings(data_dir)
    finally:
        data_dir.chmod(stat.S_IRWXU)
    check(shown, made, data_dir)


async def test_a_data_folder_that_cannot_be_made_is_reported_once(data_dir, monkeypatch):
    """Runs as root too: a file sits where the folder should be made."""
    data_dir.parent.mkdir(exist_ok=True)
    blocker = data_dir.parent / "blocker"
    blocker.write_text("not a folder")
    folder = blocker / "data"
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(folder))
    shown, made = await play_with_warnings(folder)
    check(shown, made, folder)

"""Play from here in the app: ``SolstisApp.play_from_here`` puts the player at the
decision of a finished game, against the same bot, on a board that says "Practice"; the
practice is played like any game, is never kept as a record and never replaces the
player's saved game; "Same deal" on its end sheet tries the same decision again."""

from __future__ import annotations

import random
import sys
from datetime import UTC, datetime

from solstis_tui.core import Game
from solstis_tui.local import practice, saves
from solstis_tui.local.session import Session, Setup
from solstis_tui.records import SeatRecord, record_of
from solstis_tui.screens.end import EndScreen
from solstis_tui.screens.message import MessageScreen
from solstis_tui.widgets.topbar import TopBar
from tests.online.helpers import screen_lines

from .conftest import make_app, play_by_keys, settle


def a_record():
    game = Game.new(4)
    rng = random.Random(4)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return record_of(game, (SeatRecord("You", "human"), SeatRecord("Random bot", "random")),
                     datetime(2026, 12, 1, tzinfo=UTC))


async def test_play_from_here_starts_a_practice_that_is_neither_kept_nor_saved(data_dir):
    record = a_record()
    spot = next(p for p in practice.points(record) if p.seat == 0 and p.index > 5)
    saved = saves.save(Session(Setup(seed=11, seats=("human", "random"))))
    kept_save = saved.read_bytes()
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.play_from_here(record, spot.index, 0)
        await pilot.pause()
        await settle(pilot, app)
        session = app.game_screen.session
        assert isinstance(session, practice.PracticeSession)
        assert session.game.observation(0) == spot.before.observation(0)
        assert [str(s) for s in session.setup.seats] == ["human", "random"]
        bar = app.game_screen.query_one(TopBar).said[0]
        assert "Practice" in bar and f"turn {spot.turn}" in bar
        await play_by_keys(pilot, app, random.Random(2))
        await settle(pilot, app)
        assert isinstance(app.screen, EndScreen)
        assert saved.read_bytes() == kept_save
        assert not (data_dir / "records").exists()
        assert "Review (r)" not in "\n".join(screen_lines(app))  # no record: no review
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        first = session
        await pilot.press("s")  # "Same deal": the same decision again, dealt anew
        await settle(pilot, app)
        again = app.game_screen.session
        assert isinstance(again, practice.PracticeSession) and again is not first
        assert again.game.observation(0) == spot.before.observation(0)


async def test_play_from_a_decision_that_is_not_there_says_why_and_changes_nothing(data_dir):
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = app.game_screen
        app.play_from_here(a_record(), 999, 0)
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        assert app.game_screen is before


async def test_a_boards_play_from_here_message_starts_the_practice(data_dir, monkeypatch):
    from solstis_tui.screens.play_from_here import PlayFromHere

    # The stand-in moves first here; what it is does not matter to this test, and the
    # strongest tier's first move would be most of its time.
    monkeypatch.setattr(practice, "STANDIN", "greedy")
    record = a_record()
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.post_message(PlayFromHere(record, 6, 1))
        await pilot.pause()
        await settle(pilot, app)
        session = app.game_screen.session
        assert isinstance(session, practice.PracticeSession)
        assert session.source == (record, 6, 1)
        assert [str(s) for s in session.setup.seats] == [practice.STANDIN, "human"]


async def test_play_from_a_record_naming_a_module_says_which_tier_plays_and_imports_nothing(
        data_dir):
    """A record someone sent names ``venv.__main__:Bot`` as its other seat: the practice is
    played against the expert, and a message says so, naming the record's line, before
    play starts; the module is never imported."""
    game = Game.new(4)
    rng = random.Random(4)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    record = record_of(game, (SeatRecord("You", "human"),
                              SeatRecord("Evil", "venv.__main__:Bot")),
                       datetime(2026, 12, 1, tzinfo=UTC))
    spot = next(p for p in practice.points(record) if p.seat == 0 and p.index > 5)
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.play_from_here(record, spot.index, 0)
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        said = " ".join(" ".join(screen_lines(app)).split())
        assert "Practice against the Expert bot" in said
        assert "Seat 2 of this record (line 6) cannot play here" in said
        assert "never a module to import" in said and "Expert bot plays it instead" in said
        session = app.game_screen.session
        assert isinstance(session, practice.PracticeSession)
        assert [str(s) for s in session.setup.seats] == ["human", practice.STANDIN]
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.game_screen
    assert "venv.__main__" not in sys.modules

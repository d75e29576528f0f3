"""A local game that ends is kept as a record in the data directory (a tutorial's is not),
and ``solstis review`` opens a record on the analysis board."""

from __future__ import annotations

import random

from solstis_tui import record_files
from solstis_tui.app import SolstisApp
from solstis_tui.coach.analysis import TINY
from solstis_tui.core import Game
from solstis_tui.local.seats import Seat
from solstis_tui.local.session import Session, Setup
from solstis_tui.records import read
from solstis_tui.screens.end import EndScreen
from solstis_tui.screens.review import ReviewScreen
from solstis_tui.tutorial.chapters import CHAPTERS
from solstis_tui.tutorial.session import TutorialSession

from .conftest import analysed, make_app, play_by_keys, settle, start_near_the_end


async def test_a_finished_game_is_kept_as_a_record_that_replays_it(data_dir):
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_near_the_end(pilot, app, random.Random(1))
        await play_by_keys(pilot, app, random.Random(1))
        await settle(pilot, app)
        assert isinstance(app.screen, EndScreen)
        game = app.game_screen.session.game
        (path,) = (data_dir / "records").iterdir()
        record = read(path)
        assert [s.name for s in record.seats] == ["You", "Random bot"]
        assert [s.kind for s in record.seats] == ["human", "random"]
        assert list(record.moves) == [str(mv) for _, mv, auto in game.history if not auto]
        assert record.scores == (game.score(0).total, game.score(1).total)


async def test_a_tutorial_game_is_not_kept(data_dir):
    session = TutorialSession.start(CHAPTERS["base"])
    # Even a game that would replay from its seed (a chapter's own position would not).
    session.game = Game.new(session.setup.seed, session.setup.options)
    rng = random.Random(2)
    while not session.game.is_over:
        session.game.play(rng.choice(session.game.legal_moves()))
    session.keep_to = record_files.keep
    session.changed()  # the engine ended the game
    assert session.kept is None
    assert not (data_dir / "records").exists()


def test_a_session_keeps_its_record_the_moment_the_engine_ends_the_game(data_dir, tmp_path):
    """No dialog needed: the last move's change keeps the record (once), and a folder
    that cannot be written leaves the reason, with the record still in hand."""
    for folder, written in ((None, True), (tmp_path / "file-in-the-way", False)):
        if folder is not None:
            folder.write_text("not a folder")
        session = Session(Setup(seed=4, seats=(Seat.parse("random"), Seat.parse("random"))))
        session.keep_to = (record_files.keep if folder is None
                           else lambda record, folder=folder: record_files.keep(record, folder))
        rng = random.Random(4)
        while not session.game.is_over:
            assert session.kept is None
            session.apply(rng.choice(session.game.legal_moves()))
        kept = session.kept
        assert kept is not None and kept.record.scores == (session.game.score(0).total,
                                                           session.game.score(1).total)
        if written:
            assert kept.path is not None and read(kept.path) == kept.record
            assert list((data_dir / "records").iterdir()) == [kept.path]
        else:
            assert kept.path is None and kept.problem


async def test_review_opens_a_record_on_the_board_keeps_its_analysis_and_closes(
        data_dir, monkeypatch):
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_near_the_end(pilot, app, random.Random(1))
        await play_by_keys(pilot, app, random.Random(1))
        await settle(pilot, app)
    (path,) = (data_dir / "records").iterdir()
    review = SolstisApp(review=read(path), review_path=path, hint_spec="random",
                        review_effort=TINY, review_workers=1)
    async with review.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = review.screen
        assert isinstance(screen, ReviewScreen)
        assert screen.board.seats == (0,)  # the person's decisions
        assert screen.board.steps and all(s.seat == 0 for s in screen.board.steps)
        await analysed(pilot, screen)
        kept = path.with_name(path.name + ".analysis.json")
        assert kept.is_file(), "the analysis is kept beside the record"
        first = list(screen.board.notes)
        await pilot.press("escape")
        await pilot.pause()
    assert review.return_code == 0

    def no_judge(*args, **kwargs):
        raise AssertionError("the judge ran again: the kept analysis was not read")

    monkeypatch.setattr("solstis_tui.coach.analysis.analyse", no_judge)
    again = SolstisApp(review=read(path), review_path=path, review_effort=TINY,
                       review_workers=1)
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = again.screen
        await analysed(pilot, screen)
        assert screen.board.notes == first


def test_a_session_saves_itself_after_each_change_and_says_why_it_could_not():
    """The local session does its own autosave (``save_to``) at every change of the game,
    and a save that fails leaves the reason while the game goes on."""
    saved: list[int] = []

    def save(session):
        saved.append(len(session.game.history))
        if len(saved) == 3:
            raise OSError(28, "No space left on device")

    session = Session(Setup(seed=4, seats=(Seat.parse("random"), Seat.parse("random"))))
    session.save_to = save
    rng = random.Random(4)
    for k in range(4):
        session.apply(rng.choice(session.game.legal_moves()))
        assert saved[-1] == len(session.game.history)  # after the change, with it
        assert (session.save_error is not None) == (k == 2)
    assert len(saved) == 4

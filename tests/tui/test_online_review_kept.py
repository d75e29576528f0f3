"""A game fetched from a host is reviewed once: its record and analysis are kept, and the
review opened again shows the analysis at once, without judging it again."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from solstis_tui.client.review import ONLINE, open_review
from solstis_tui.coach import analysis, store
from solstis_tui.core import Game
from solstis_tui.records import HUMAN, SeatRecord, record_of
from solstis_tui.screens.review import ReviewScreen

from .conftest import analysed, make_app


def fetched_record():
    g = Game.new(seed=21)
    rand = random.Random(21)
    while not g.is_over:
        g.play(rand.choice(g.legal_moves()))
    return record_of(g, (SeatRecord("Ann", HUMAN), SeatRecord("Bob", HUMAN)),
                     datetime(2026, 12, 6, tzinfo=UTC))


async def test_an_online_review_opened_again_shows_its_kept_analysis_at_once(
        data_dir, monkeypatch):
    record = fetched_record()
    app = make_app(seats=("human", "random"))
    async with app.run_test(size=(100, 30)) as pilot:
        open_review(app, record, 0)
        await pilot.pause()
        first = await analysed(pilot, app.screen)
        path = first.path
        assert path is not None and path.parent == data_dir / ONLINE
        assert store.kept(path, analysis.TINY) is not None
        first.dismiss()
        await pilot.pause()

        def no_judging(*args, **kwargs):
            raise AssertionError("judged again")

        monkeypatch.setattr(analysis, "analyse", no_judging)
        open_review(app, record, 0)
        await pilot.pause()
        again = app.screen
        assert isinstance(again, ReviewScreen) and again.path == path
        again = await analysed(pilot, again)
        assert [n.reason for n in again.board.notes] == [n.reason for n in first.board.notes]

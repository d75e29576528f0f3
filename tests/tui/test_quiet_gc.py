"""The garbage collector's full passes wait for a quiet moment (no key for a while), so a
key never waits on one it did not cause; held-down keys still get one, so memory stays
bounded; and the app gives CPython its own full passes back when it ends."""

from __future__ import annotations

import gc

from solstis_tui.terminal.quiet_gc import OUT_OF_REACH, QuietCollector

from .conftest import make_app, settle


class Fake:
    def __init__(self) -> None:
        self.now = 0.0
        self.pending = 0
        self.passes = 0

    def collector(self) -> QuietCollector:
        return QuietCollector(quiet=0.15, due=10, most=30, clock=lambda: self.now,
                              pending=lambda: self.pending, collect=self.collect)

    def collect(self) -> None:
        self.passes += 1
        self.pending = 0


def test_a_due_pass_waits_until_no_key_has_come_for_a_while():
    fake = Fake()
    quiet = fake.collector()
    fake.pending = 12
    for _ in range(10):  # a key every 0.1 s: never quiet
        fake.now += 0.1
        quiet.input_came()
        assert not quiet.tick()
    fake.now += 0.2
    assert quiet.tick() and fake.passes == 1
    assert not quiet.tick()  # nothing due any more


def test_no_pass_before_one_is_due_however_quiet():
    fake = Fake()
    quiet = fake.collector()
    fake.pending, fake.now = 9, 60.0
    assert not quiet.tick()


def test_keys_that_never_stop_still_get_a_pass_once_it_is_overdue():
    fake = Fake()
    quiet = fake.collector()
    for pending in range(10, 31):
        fake.pending = pending
        fake.now += 0.05
        quiet.input_came()
        made = quiet.tick()
        assert made == (pending == 30)


async def test_the_app_holds_cpythons_full_pass_while_it_runs_and_gives_it_back():
    before = gc.get_threshold()
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test() as pilot:
        await settle(pilot, app)
        assert gc.get_threshold()[2] == OUT_OF_REACH
        app.quiet_gc.last_input = -1.0
        await pilot.press("g")  # any key: not a quiet moment
        assert app.quiet_gc.last_input > 0
    assert gc.get_threshold() == before

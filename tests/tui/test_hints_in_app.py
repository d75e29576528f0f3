"""Hints in the app: the judge answers in game terms away from the screen, and a new game
stops a hint still being judged."""

from __future__ import annotations

import contextlib
import re
import threading

from textual.worker import WorkerCancelled

from solstis_tui.ai.base import Cancelled
from solstis_tui.local.session import Session, Setup

from .conftest import ask_hint, make_app, settle


async def test_t_shows_the_judges_move_in_game_terms_and_selects_it():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        await ask_hint(pilot, app)
        hint = gs.play.hint_text
        assert hint.startswith("Hint: play ") and " — it " in hint, hint
        assert re.search(r"\bit (can capture|captures)", hint), hint
        assert re.search(r"[+−]?\d+\.\d★ vs [+−]?\d+\.\d★ expected", hint), hint
        assert gs.view.items[gs.play.choice.selected].move == gs.play.hint_move


async def test_a_new_game_stops_the_hint_being_judged_and_shows_none():
    app = make_app(seats=("human", "random"), seed=3)
    asked = threading.Event()
    stopped: list[bool] = []

    def judging(obs, names, cancel=None):
        asked.set()
        stopped.append(cancel.wait(60))  # a guard: the new game sets it at once
        raise Cancelled

    app.judge_hint = judging
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        for _ in range(500):  # a guard: the hint's worker thread starts
            if asked.is_set():
                break
            await pilot.pause(0.01)
        assert asked.is_set() and app.game_screen.play.hint_text == "Hint: thinking…"
        app.start_session(Session(Setup(variant="base", seed=4, seats=("human", "random"))))
        await settle(pilot, app)
        with contextlib.suppress(WorkerCancelled):  # cancelled before its thread returned
            await app.workers.wait_for_complete()
        await pilot.pause()
        assert stopped == [True]
        gs = app.game_screen
        assert gs.play.hint_text == "" and gs.play.hint_move is None and not gs.play.error


async def test_in_ascii_mode_the_hint_shows_only_ascii():
    from .test_ascii_everywhere import non_ascii

    app = make_app(seats=("human", "random"), seed=3, ascii_mode=True)
    found: dict[str, str] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await ask_hint(pilot, app)
        # the words have characters past ASCII (★, →); the screen must not
        assert not app.game_screen.play.hint_text.isascii()
        non_ascii(app, "hint", found)
    assert not found, found

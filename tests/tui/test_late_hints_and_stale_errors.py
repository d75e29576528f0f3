"""Keys at awkward moments: while a hint is still thinking, and after an error left over from
the bot's turn."""

from __future__ import annotations

import random
import threading

from solstis_tui.coach.hints import Answer

from . import bots
from .conftest import ask_hint, keys_for, make_app, settle


def prompt_text(app) -> str:
    return str(app.game_screen.query_one("#prompt").render())


async def test_a_late_hint_never_moves_the_pick_made_after_asking():
    app = make_app(seats=("human", "random"), seed=3)
    gate = threading.Event()

    def slow_judge(obs, names, cancel=None):
        gate.wait(10)  # the hint arrives when the test says so
        moves = list(obs.legal_moves)
        return Answer([(moves[0], 1.0, 0.6), (moves[1], 0.0, 0.5)], "Hint: play it")

    app.judge_hint = slow_judge
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        assert gs.view is not None and gs.view.zone == "hand" and gs.play.choice.selected == 0
        hinted = gs.view.items[0].move
        chosen = gs.view.items[1].move
        await pilot.press("t")
        assert gs.play.hint_text == "Hint: thinking…"
        await pilot.press("2")
        assert gs.play.choice.selected == 1
        gate.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert gs.play.hint_move == hinted and gs.play.hint_text.startswith("Hint: play")
        assert gs.play.choice.selected == 1, "the hint moved the person's own pick"
        await pilot.press("enter")
        assert gs.session.game.history[0][1] == chosen


async def test_a_hint_asked_for_without_picking_still_shows_its_tile():
    app = make_app(seats=("human", "random"), seed=3)

    def judging(obs, names, cancel=None):
        moves = list(obs.legal_moves)
        return Answer([(moves[1], 1.0, 0.6), (moves[0], 0.0, 0.5)], "Hint: play it")

    app.judge_hint = judging
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        await ask_hint(pilot, app)
        assert gs.play.choice.selected == 1 and gs.play.hint_move == gs.view.items[1].move


async def test_undo_clears_the_error_left_by_a_key_pressed_during_the_bots_turn():
    bots.STARTED.clear()
    app = make_app(seats=("human", "tests.tui.bots:SlowBot"), seed=3)
    rng = random.Random(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        while gs.session.human_to_play:  # play the person's turn
            await pilot.press(*keys_for(gs, rng))
            await pilot.pause()
        for _ in range(200):
            await pilot.pause()
            if bots.STARTED.is_set():
                break
        await pilot.press("2")
        assert gs.play.error.startswith("wait: it is") and "wait: it is" in prompt_text(app)
        await pilot.press("u")
        await settle(pilot, app)
        assert gs.session.human_to_play
        assert gs.play.error == "" and "✗" not in prompt_text(app)
        assert "took back your last decision" in prompt_text(app)

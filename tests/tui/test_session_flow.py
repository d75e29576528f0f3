"""Undo, hint, take-back, save and resume, played through the keyboard."""

from __future__ import annotations

import json
import random

import pytest

from solstis_tui.local import saves
from solstis_tui.screens.message import MessageScreen
from solstis_tui.screens.resume import ContinueScreen

from .conftest import ask_hint, keys_for, make_app, play_by_keys, settle


def prompt_of(app) -> str:
    return str(app.game_screen.query_one("#prompt").render())


async def play_some(pilot, app, n: int, rng: random.Random) -> None:
    for _ in range(n):
        await settle(pilot, app)
        await pilot.press(*keys_for(app.game_screen, rng))
    await settle(pilot, app)


async def test_undo_goes_back_to_your_previous_decision():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test() as pilot:
        await play_some(pilot, app, 6, random.Random(2))
        gs = app.game_screen
        made = [(p, mv) for p, mv, auto in gs.session.game.history if not auto]
        mine = [i for i, (p, _) in enumerate(made) if p == 0]
        await pilot.press("u")
        await settle(pilot, app)
        after = [(p, mv) for p, mv, auto in gs.session.game.history if not auto]
        assert after == made[: mine[-1]]
        assert gs.session.game.to_play == 0 and gs.view.zone is not None
        assert "took back" in prompt_of(app)


async def test_escape_takes_back_a_tile_played_before_capturing():
    app = make_app(seats=("human", "random"), seed=312)
    async with app.run_test() as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        hand = list(gs.session.game.hands[0])
        await pilot.press("1", "enter")  # 2-2 captures: the capture decision is pending
        assert gs.session.game.decision.name == "CAPTURE"
        await pilot.press("escape")
        assert gs.session.game.decision.name == "PLAY" and list(gs.session.game.hands[0]) == hand


async def test_illegal_attempt_shows_the_reason_and_changes_nothing():
    app = make_app(seats=("human", "random"), seed=312)
    async with app.run_test() as pilot:
        await settle(pilot, app)
        before = len(app.game_screen.session.game.history)
        await pilot.press("B")  # a pile, while a hand tile is asked for
        assert "piles are picked only" in prompt_of(app)
        await pilot.press("1", "enter", "A")  # capture decision: pile A cannot be captured
        assert "pile A: " in prompt_of(app) and "cannot capture" in prompt_of(app)
        assert len(app.game_screen.session.game.history) == before + 1


async def test_hint_suggests_a_move_and_selects_it():
    app = make_app(seats=("human", "random"), seed=3, hint_spec="greedy")
    async with app.run_test() as pilot:
        await settle(pilot, app)
        await ask_hint(pilot, app)
        assert "Hint:" in prompt_of(app)
        gs = app.game_screen
        assert gs.view.items[gs.play.choice.selected].move == gs.play.hint_move


@pytest.mark.whole_game
async def test_autosave_and_resume_continue_the_same_game(data_dir):
    app = make_app(seats=("human", "random"), seed=11)
    async with app.run_test() as pilot:
        await play_some(pilot, app, 5, random.Random(4))
        history = list(app.game_screen.session.game.history)
    saved = json.loads((data_dir / "autosave.json").read_text())
    assert saved["seed"] == 11 and saved["moves"]
    again = make_app(seats=("human", "random"), seed=999, resume=True)
    async with again.run_test() as pilot:
        await settle(pilot, again)
        assert list(again.game_screen.session.game.history) == history
        await play_by_keys(pilot, again, random.Random(5))
        assert again.game_screen.session.game.is_over
    assert saves.peek() is None  # a finished game is not offered again


async def test_continue_last_game_is_offered_at_start(data_dir):
    app = make_app(seats=("human", "random"), seed=12)
    async with app.run_test() as pilot:
        await play_some(pilot, app, 3, random.Random(4))
        turn = app.game_screen.session.game.turn
    again = make_app(seats=("human", "random"), seed=5, offer_continue=True)
    async with again.run_test() as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ContinueScreen)
        await pilot.press("c")
        await settle(pilot, again)
        assert again.game_screen.session.setup.seed == 12
        assert again.game_screen.session.game.turn == turn


async def test_corrupt_save_is_kept_aside_with_a_clear_message(data_dir):
    data_dir.mkdir(parents=True)
    (data_dir / "autosave.json").write_text("{ this is not json")
    app = make_app(seats=("human", "random"), seed=3, resume=True)
    async with app.run_test() as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, MessageScreen)
        assert "kept as" in app.screen.text
        await pilot.press("enter")
        await play_some(pilot, app, 2, random.Random(1))  # the new game autosaves
    kept = list(data_dir.glob("autosave.corrupt-*.json"))
    assert len(kept) == 1 and kept[0].read_text() == "{ this is not json"
    assert json.loads((data_dir / "autosave.json").read_text())["seed"] == 3


async def _save_a_few_moves(pilot, app) -> dict:
    await play_some(pilot, app, 4, random.Random(4))
    return json.loads(saves.autosave_path().read_text())


async def test_save_whose_moves_and_snapshot_disagree_warns_and_is_kept_aside(data_dir):
    app = make_app(seats=("human", "random"), seed=11)
    async with app.run_test() as pilot:
        saved = await _save_a_few_moves(pilot, app)
    edited = dict(saved, moves=saved["moves"][:-2])  # hand-edited: two moves dropped
    original = json.dumps(edited, indent=1)
    (data_dir / "autosave.json").write_text(original)
    again = make_app(seats=("human", "random"), seed=999, resume=True)
    async with again.run_test() as pilot:
        await settle(pilot, again)
        assert isinstance(again.screen, MessageScreen)
        text = again.screen.text
        assert "the save's moves and its snapshot disagree" in text.lower()
        assert "continuing from the replayed moves" in text and "kept as" in text
        gs = again.game_screen
        n = len(edited["moves"])  # a bot may have moved since
        assert [str(mv) for mv in gs.session.moves()][:n] == edited["moves"]
        await pilot.press("enter")
        assert again.screen is gs
    kept = list(data_dir.glob("autosave.corrupt-*.json"))
    assert len(kept) == 1 and kept[0].read_text() == original
    fresh = json.loads((data_dir / "autosave.json").read_text())  # saved again, consistent
    assert fresh["moves"][:n] == edited["moves"] and fresh["snapshot"] != saved["snapshot"]
    assert fresh["snapshot"] is None or json.loads(fresh["snapshot"])["history"]


async def test_save_whose_moves_do_not_replay_continues_from_its_snapshot(data_dir):
    app = make_app(seats=("human", "random"), seed=11)
    async with app.run_test() as pilot:
        saved = await _save_a_few_moves(pilot, app)
        history = list(app.game_screen.session.game.history)
    edited = dict(saved, moves=["capture 6-6", *saved["moves"][1:]])  # not legal at move 1
    (data_dir / "autosave.json").write_text(json.dumps(edited))
    again = make_app(seats=("human", "random"), seed=999, resume=True)
    async with again.run_test() as pilot:
        await settle(pilot, again)
        assert isinstance(again.screen, MessageScreen)
        assert "do not replay" in again.screen.text and "snapshot" in again.screen.text
        assert list(again.game_screen.session.game.history) == history
        await pilot.press("escape")  # close the message, then try to undo
        await settle(pilot, again)
        await pilot.press("u")
        await settle(pilot, again)
        assert list(again.game_screen.session.game.history) == history
        assert "there is no decision of yours to take back" in prompt_of(again)
        # A decision made after the resume can be taken back: undo reaches back to there.
        for key in keys_for(again.game_screen, random.Random(1)):
            await pilot.press(key)
        await settle(pilot, again)
        assert len(again.game_screen.session.game.history) > len(history)
        await pilot.press("u")
        await settle(pilot, again)
        assert list(again.game_screen.session.game.history) == history
        assert "took back your last decision" in prompt_of(again)
    assert len(list(data_dir.glob("autosave.corrupt-*.json"))) == 1


async def test_an_untouched_save_resumes_without_a_warning(data_dir):
    app = make_app(seats=("human", "random"), seed=11)
    async with app.run_test() as pilot:
        await _save_a_few_moves(pilot, app)
    again = make_app(seats=("human", "random"), seed=999, resume=True)
    async with again.run_test() as pilot:
        await settle(pilot, again)
        assert again.screen is again.game_screen
    assert not list(data_dir.glob("autosave.corrupt-*.json"))

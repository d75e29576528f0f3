"""Watch mode, the new-game, end, review and help screens, themes, ASCII, too small."""

from __future__ import annotations

import random

from solstis_tui.screens.end import EndScreen
from solstis_tui.screens.help import HelpScreen
from solstis_tui.screens.newgame import NewGameScreen

from .conftest import keys_for, make_app, open_review, play_by_keys, settle, start_near_the_end


async def test_watch_mode_pause_and_step():
    app = make_app(seats=("random", "random"), seed=4, pace=0.0)
    async with app.run_test() as pilot:
        await pilot.press("p")
        await settle(pilot, app)
        gs = app.game_screen
        assert gs.play.turns.pacing.paused
        before = len(gs.session.game.history)
        await pilot.press("full_stop")
        await settle(pilot, app)
        assert len(gs.session.game.history) > before
        prompt = str(gs.query_one("#prompt").render())
        assert "Paused" in prompt
        # The bots' decisions are theirs: no "your hand" said to the watcher.
        assert "your" not in prompt.lower() and "Paused: Random bot" in prompt
        await pilot.press("p")
        for _ in range(300):
            await settle(pilot, app)
            if gs.session.game.is_over:
                break
            await pilot.pause()
        assert gs.session.game.is_over
        await settle(pilot, app)
        assert isinstance(app.screen, EndScreen)


async def test_end_screen_rematch_swaps_seats_and_review_lists_decisions():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_near_the_end(pilot, app, random.Random(1))
        await play_by_keys(pilot, app, random.Random(1))
        await settle(pilot, app)
        assert isinstance(app.screen, EndScreen)
        text = str(app.screen.query_one("#result").render())
        assert "stars" in text or "firefly" in text
        await open_review(pilot, app)
        await pilot.press("escape")
        old = app.game_screen.session.setup
        app.show_end(app.game_screen.session, app.game_screen.play.obs)
        await pilot.pause()
        await pilot.press("m")
        await settle(pilot, app)
        new = app.game_screen.session.setup
        assert new.seats == (old.seats[1], old.seats[0])
        assert new.seed != old.seed and new.secret  # a new secret deal


async def test_new_game_screen_starts_the_chosen_game():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        # Tab to the seed field: mode, opponent, variant, starts, seed
        app.screen.query_one("#seed").focus()
        await pilot.press("4", "2", "enter")
        await settle(pilot, app)
        assert app.game_screen.session.setup.seed == 42
        assert sorted(map(str, app.game_screen.session.setup.seats)) == ["human", "random"]


async def test_the_new_game_form_opens_fresh_after_a_cancel_and_after_a_bad_seed():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        form.query_one("#variant").value = "firefly"
        form.query_one("#seed").focus()
        await pilot.press("x", "enter")
        await pilot.pause()
        assert "whole number" in str(form.query_one("#error").render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.game_screen
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.query_one("#variant").value == "base"
        assert app.screen.query_one("#seed").value == ""
        assert str(app.screen.query_one("#error").render()) == ""
        assert app.screen.query_one("#start").has_focus
        await pilot.press("enter")  # starts a game: the form's last answers are not reused
        await settle(pilot, app)
        assert app.game_screen.session.setup.variant == "base"
        assert app.game_screen.session.setup.secret


async def test_the_log_screen_shows_a_whole_games_log_first_line_to_last():
    """A whole game's log (the game is played from the deal; only its last turns by
    keys: the log screen is what is tested)."""
    from textual.widgets import RichLog

    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_near_the_end(pilot, app, random.Random(5))
        rng = random.Random(5)
        while not app.game_screen.play.obs.is_over:  # a whole game: a long log
            await pilot.press(*keys_for(app.game_screen, rng))
            await settle(pilot, app)
        if not isinstance(app.screen, type(app.game_screen)):
            await pilot.press("escape")  # the score sheet
            await pilot.pause()
        lines = app.game_screen.shown_log()
        assert len(lines) > 40
        await pilot.press("v")
        await pilot.pause()
        shown = "\n".join(strip.text.rstrip() for strip in app.screen.query_one(RichLog).lines)
        # Every line, in order; wrapping at 80 columns splits lines only between words.
        assert shown.split() == " ".join(lines).split()


async def test_help_opens_with_keys_and_rules_sections():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert 7 in app.screen.titles and "Encountering" in app.screen.titles[7]
        await pilot.press("7")
        await pilot.press("escape")
        assert app.screen is app.game_screen


async def test_too_small_terminal_says_how_big_to_make_it():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        assert gs.has_class("-too-small")
        assert "at least 80×24" in str(gs.query_one("#too-small").render())


async def test_themes_switch_live_and_ascii_mode_draws_plain_ascii():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test() as pilot:
        await settle(pilot, app)
        for name in ("light", "high-contrast", "ansi-16", "dark"):
            app.theme = name
            await pilot.pause()
        app.toggle_ascii()
        await pilot.pause()
        gs = app.game_screen
        for widget in ("#mine", "#theirs", "#display", "#hand", "#pool", "#prompt"):
            assert str(gs.query_one(widget).render()).isascii(), widget

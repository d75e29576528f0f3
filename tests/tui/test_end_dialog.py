"""The end dialog: its keys do what its buttons say, Enter closes it until a button is
picked and then presses the button that looks selected, and a rematch keeps the finished
game reviewable."""

from __future__ import annotations

import random
import re

from textual.widgets import Button

from solstis_tui.screens.end import EndScreen
from solstis_tui.screens.game import GameScreen
from solstis_tui.screens.review import ReviewScreen

from .conftest import analysed, make_app, play_by_keys, settle, start_near_the_end


async def _finish(pilot, app) -> EndScreen:
    """From near the game's end, play the person's side by keys until the end dialog
    shows (the dialog is what these tests are about: a whole game by keys is tested in
    test_play.py)."""
    await start_near_the_end(pilot, app, random.Random(1))
    await play_by_keys(pilot, app, random.Random(1))
    await settle(pilot, app)
    assert isinstance(app.screen, EndScreen)
    return app.screen


async def _fresh_dialog(pilot, app, chosen: list) -> EndScreen:
    """A new end dialog over the finished game whose choice lands in ``chosen``."""
    gs = app.game_screen
    app.push_screen(EndScreen(gs.session, gs.play.obs), chosen.append)
    await pilot.pause()
    assert isinstance(app.screen, EndScreen)
    return app.screen


def _look(button: Button) -> frozenset:
    """Every style the button is drawn with (its label's text left out)."""
    return frozenset(seg.style for strip in button.render_lines(button.size.region)
                     for seg in strip if seg.style is not None)


def _selected_looking(screen: EndScreen) -> list[str]:
    """The buttons drawn unlike the ordinary look shared by most of them."""
    looks = {b.id: _look(b) for b in screen.query(Button)}
    common = max(looks.values(), key=list(looks.values()).count)
    return [bid for bid, look in looks.items() if look != common]


async def _run_command(pilot, app, title: str) -> None:
    """Type ``title`` into the command palette and run the command it finds first."""
    from textual.command import CommandPalette
    from textual.widgets import OptionList

    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(app.screen, CommandPalette)
    await pilot.press(*["space" if c == " " else c for c in title.lower()])
    options = app.screen.query_one(OptionList)
    for _ in range(100):  # the palette searches in the background
        await pilot.pause()
        if options.option_count and title in str(options.get_option_at_index(0).prompt):
            break
    assert options.option_count and title in str(options.get_option_at_index(0).prompt), \
        f"the command palette offers no {title!r}"
    await pilot.press("down", "enter")
    await pilot.pause()


async def test_r_opens_the_review_of_the_finished_game_and_keeps_its_analysis(data_dir):
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await _finish(pilot, app)
        finished = app.game_screen.session
        on_board = {c.title for c in app.get_system_commands(app.game_screen)}
        assert "Review game" in on_board and "Hint" not in on_board  # what acts now
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert _moves(app.screen) == _made(finished)
        await analysed(pilot, app.screen)
        (record,) = (data_dir / "records").glob("*.solstis")
        assert record.with_name(record.name + ".analysis.json").is_file()


async def test_each_buttons_key_does_what_the_button_says():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await _finish(pilot, app)
        await pilot.press("escape")  # back to the board
        await pilot.pause()
        chosen: list = []
        dialog = await _fresh_dialog(pilot, app, chosen)
        labels = {b.id: str(b.label) for b in dialog.query(Button)}
        app.pop_screen()
        assert labels["review"] == "Review (r)"
        for bid, label in labels.items():
            match = re.search(r"\((\w)\)$", label)
            assert match, f"the button {label!r} names no key"
            chosen.clear()
            await _fresh_dialog(pilot, app, chosen)
            await pilot.press(match.group(1))
            await pilot.pause()
            assert chosen == [bid], f"{match.group(1)!r} chose {chosen}, the button says {label}"


async def test_m_starts_a_rematch_with_the_seats_swapped_on_a_new_secret_deal():
    """With the same deal and seats swapped, the person would know the bot's opening hand
    (their own last game) and what lies in the piles."""
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await _finish(pilot, app)
        old_session = app.game_screen.session
        old = old_session.setup
        await pilot.press("m")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        new_session = app.game_screen.session
        new = new_session.setup
        assert new.seats == (old.seats[1], old.seats[0])
        assert new.seed != old.seed and new.secret, "a rematch is a new secret deal"
        assert "secret deal" in app.game_screen.play.top_bar()
        replay = type(old_session)(old)  # the finished game's deal, from its start
        assert replay.game.observation(0).hand != new_session.game.observation(0).hand, \
            "the bot holds the person's opening hand of the last game"
        assert not new_session.game.is_over


async def test_s_replays_the_same_deal_with_the_seats_swapped():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await _finish(pilot, app)
        old = app.game_screen.session.setup
        await pilot.press("s")
        await settle(pilot, app)
        new = app.game_screen.session.setup
        assert new.seats == (old.seats[1], old.seats[0]) and new.seed == old.seed
        assert not app.game_screen.session.game.is_over


async def test_the_finished_game_stays_reviewable_after_a_rematch():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await _finish(pilot, app)
        finished = app.game_screen.session
        await pilot.press("m")
        await settle(pilot, app)
        assert app.game_screen.session is not finished
        await _run_command(pilot, app, "Review last game")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert _moves(app.screen) == _made(finished)
        await analysed(pilot, app.screen)


def _moves(review: ReviewScreen) -> list[str]:
    return list(review.board.record.moves)


def _made(session) -> list[str]:
    return [str(mv) for _, mv, auto in session.game.history if not auto]


async def test_enter_and_esc_close_the_score_sheet_and_start_nothing():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await _finish(pilot, app)
        finished = app.game_screen.session
        assert _selected_looking(dialog) == [], "a button looks selected before any is picked"
        assert "Enter or Esc: back to the board" in str(dialog.query_one("#keys").render())
        for key in ("enter", "escape"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is app.game_screen, f"{key} left {app.screen!r} open"
            assert app.game_screen.session is finished and finished.game.is_over
            await pilot.press("enter")  # "Enter: score sheet" opens it again
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)


async def test_enter_presses_the_one_button_that_looks_selected():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await _finish(pilot, app)
        await pilot.press("escape")
        await pilot.pause()
        for moves in (["right"], ["right", "right"], ["left"], ["tab", "tab", "tab"]):
            chosen: list = []
            dialog = await _fresh_dialog(pilot, app, chosen)
            await pilot.press(*moves)
            await pilot.pause()
            selected = _selected_looking(dialog)
            assert len(selected) == 1, f"buttons that look selected: {selected}"
            assert dialog.focused is not None and dialog.focused.id == selected[0]
            await pilot.press("enter")
            await pilot.pause()
            assert chosen == selected


async def test_u_in_the_score_dialog_takes_back_the_last_decision():
    """The game-over line lists u; it works with the score dialog open too."""
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await _finish(pilot, app)
        assert "u undo" in str(app.screen.query_one("#keys").render())
        await pilot.press("u")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert not app.game_screen.session.game.is_over


async def test_once_the_game_is_over_t_hint_leaves_the_footer_and_t_says_the_review_judges():
    from .test_footer_keys import footer_keys

    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        assert footer_keys(app).get("t") == "Hint"  # while the game is played
        await _finish(pilot, app)
        await pilot.press("escape")  # the board under the score sheet
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert "t" not in footer_keys(app)
        await pilot.press("t")
        await pilot.pause()
        assert app.screen.play.error.startswith("the game is over: r reviews")
        await pilot.press("1")  # a key that does nothing says so, not "wait: it is You's"
        await pilot.pause()
        assert app.screen.play.error == "the game is over: that key does nothing now"

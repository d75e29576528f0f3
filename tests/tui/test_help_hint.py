"""Help opens at the rules of the pending decision; a hint is whole and stays until you decide."""

from __future__ import annotations

import pytest

from solstis_tui.core import Decision
from solstis_tui.screens.help import HelpScreen, RulesViewer

from .conftest import ask_hint, make_app, settle
from .positions import save_position


async def open_help(pilot) -> HelpScreen:
    await pilot.press("question_mark")
    screen = pilot.app.screen
    assert isinstance(screen, HelpScreen)
    await pilot.pause()
    await pilot.pause()
    return screen


def heading_at_top(screen: HelpScreen) -> str:
    """The title of the section at the top of the viewer ('' between two)."""
    number = screen.query_one(RulesViewer).section_at_top()
    if number == -1:
        return "Keys"
    return screen.titles.get(number, "") if number is not None else ""


async def test_help_opens_at_the_rules_of_the_pending_decision_with_its_keys():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = await open_help(pilot)
        assert screen.start_section == 3
        assert "A turn" in heading_at_top(screen)
        now = str(screen.query_one("#now").render())
        assert "play a tile from your hand" in now and "§3 A turn" in now
        assert "Keys: 1 to 3 or ←→ pick a tile · Enter plays it" in now
        assert "Click: pick, again: confirm" in now
        await pilot.press("k")  # the full key list
        await pilot.pause()
        assert screen.query_one(RulesViewer).scroll_y == 0
        assert heading_at_top(screen) == "Keys"
        await pilot.press("5")
        await pilot.pause()
        assert "Rainbows" in heading_at_top(screen)
        await pilot.press("e")  # past §10: the Evil Spirit and scoring have keys too
        await pilot.pause()
        assert heading_at_top(screen) == "11. Evil Spirit, base game"
        await pilot.press("s")
        await pilot.pause()
        viewer = screen.query_one(RulesViewer)
        top = viewer.query_one("#section-12").virtual_region.y  # the last: at the end
        assert viewer.scroll_y <= top < viewer.scroll_y + viewer.scrollable_content_region.height
        assert "1–9, e, s: rules" in now  # the base game has no §10 (Firefly)
        await pilot.press("escape")
        assert app.screen is app.game_screen


async def test_help_for_a_rainbow_opens_at_the_rainbow_rules():
    save_position({Decision.PLACE_RAINBOW})
    app = make_app(resume=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        screen = await open_help(pilot)
        assert "Rainbows" in heading_at_top(screen)
        assert "Keys: arrows/hjkl move" in str(screen.query_one("#now").render())


def prompt_lines(app) -> list[str]:
    return str(app.game_screen.query_one("#prompt").render()).splitlines()


async def test_hint_is_shown_whole_at_80_columns_and_stays_until_you_decide():
    app = make_app(seats=("human", "random"), seed=3, hint_spec="greedy")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        await ask_hint(pilot, app)
        hint = gs.play.hint_text
        assert hint.startswith("Hint: ") and "—" in hint and len(hint) > 78  # must wrap
        prompt = gs.query_one("#prompt")
        lines = prompt_lines(app)  # headline, the hint (wrapped), the keys
        assert prompt.size.width == 78 and prompt.size.height == len(lines)
        hint_lines = lines[1:-1]
        assert len(hint_lines) >= 1 and all(len(line) <= 78 for line in hint_lines)
        assert " ".join(hint_lines) == " ".join(hint.split())
        await pilot.press("right", "right", "tab", "2")  # moving about keeps the hint
        assert " ".join(hint.split()) in " ".join(" ".join(prompt_lines(app)).split())
        await pilot.press("question_mark", "escape")  # so does a look at the help
        assert "Hint:" in " ".join(prompt_lines(app))
        await pilot.press("1", "enter")  # deciding clears it
        await settle(pilot, app)
        assert "Hint:" not in " ".join(prompt_lines(app)) and gs.play.hint_text == ""


async def test_escape_dismisses_a_hint():
    app = make_app(seats=("human", "random"), seed=3, hint_spec="greedy")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await ask_hint(pilot, app)
        assert "Hint:" in " ".join(prompt_lines(app))
        await pilot.press("escape")
        assert "Hint:" not in " ".join(prompt_lines(app))
        assert app.game_screen.session.game.decision is Decision.PLAY


async def test_help_is_built_once_and_opens_again_at_the_new_decisions_rules():
    """'?' took 0.6-0.9 s: the help is now kept, so a second '?' has nothing to build."""
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        first = await open_help(pilot)
        await pilot.press("s")
        await pilot.press("escape")
        await pilot.pause()
        again = await open_help(pilot)
        assert again is first and "A turn" in heading_at_top(again)
        await pilot.press("escape")
        app.show_help(Decision.PLACE_RAINBOW, "arrows/hjkl move")
        await pilot.pause()
        await pilot.pause()
        assert app.screen is first and "Rainbows" in heading_at_top(first)
        assert "Keys: arrows/hjkl move" in str(first.query_one("#now").render())
        app.show_help()  # the palette's Rules and keys: the key list
        await pilot.pause()
        assert heading_at_top(first) == "Keys" and "Now:" not in str(
            first.query_one("#now").render())


@pytest.mark.prepares_screens
async def test_the_rules_are_read_for_help_before_the_first_question_mark():
    """The help's slow part (parsing the rules) is done in a thread after the first frame,
    so the first '?' opens as quickly as the next ones."""
    from solstis_tui.screens import help as help_module

    help_module.parsed.cache_clear()
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        await app.workers.wait_for_complete()
        sections = help_module.sections_for("base")
        assert help_module.parsed.cache_info().currsize >= len(sections)
        assert app.screen is app.game_screen  # nothing was opened


async def prepared(pilot, app) -> None:
    """Wait (a guard, not the expectation) until idle time has built the screens."""
    for _ in range(300):
        await pilot.pause(0.02)
        if {"help", "new-game"} <= app.laid_out:
            return


@pytest.mark.prepares_screens
async def test_help_and_the_new_game_form_are_built_in_idle_time_while_a_bot_thinks():
    """The first '?' (160-235 ms) and 'n' (74-374 ms) while a bot thought were slower than
    the next: both screens are now composed and laid out off screen after start-up."""
    from textual.widgets import Select

    app = make_app(seats=("tests.tui.bots:SlowBot", "human"), seed=3, variant="beginner")
    async with app.run_test(size=(80, 24)) as pilot:
        await prepared(pilot, app)
        assert app.game_screen.play.turns.pacing.thinking_since is not None  # the bot is thinking
        assert app.screen is app.game_screen  # nothing shows
        help_screen, form = app.help_screen, app.get_screen("new-game")
        assert help_screen.variant == "beginner"
        viewer = help_screen.query_one(RulesViewer)
        assert viewer.query_one("#section-12").size.height > 0  # laid out, not only built
        assert viewer.virtual_size.height > help_screen.size.height
        assert form.query(Select) and form.region.width == 80
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen is help_screen  # the very screen built in idle time
        await pilot.press("escape", "n")
        await pilot.pause()
        assert app.screen is form
        await pilot.press("escape", "q")
        await pilot.pause()


async def test_help_opened_while_a_bot_thinks_says_the_decision_is_the_bots():
    app = make_app(seats=("tests.tui.bots:SlowBot", "human"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):  # a guard: the bot's turn comes first
            await pilot.pause()
            if app.game_screen.play.turns.pacing.thinking_since is not None:
                break
        bot = app.game_screen.session.name(0)
        screen = await open_help(pilot)
        now = str(screen.query_one("#now").render()).splitlines()[0]
        assert now.startswith(f"Now: {bot} is to play a tile")
        assert "your" not in now
        await pilot.press("escape", "q")
        await pilot.pause()

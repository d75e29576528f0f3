"""``solstis learn``: both chapters played to the end by keys, every step's text and the
game after every step checked; wrong moves explained and refused; leave and resume; the
first-run offer; 80x24, --ascii and every theme."""

from __future__ import annotations

import dataclasses
import json
import re
import textwrap
from collections.abc import Iterator
from unittest import mock

import pytest

from solstis_tui.app import SolstisApp
from solstis_tui.core import Move, Spirit
from solstis_tui.core.board import parse_cell
from solstis_tui.local.seats import Seat
from solstis_tui.local.session import Setup
from solstis_tui.screens.game import GameScreen
from solstis_tui.screens.tutorial import TutorialScreen
from solstis_tui.screens.welcome import WelcomeScreen
from solstis_tui.tutorial.chapters import BASE, CHAPTERS, FIREFLY
from solstis_tui.tutorial.session import TutorialSession

from ..online.helpers import until
from .conftest import keys_for_move, settle
from .test_ascii_everywhere import screen_text

SIZE = (80, 24)


def tutorial_app(chapter: str = "base", **kwargs) -> SolstisApp:
    kwargs.setdefault("pace", 0.0)
    return SolstisApp(tutorial=chapter, **kwargs)


def lesson(app) -> str:
    return str(app.screen.query_one("#lesson").render())


def cells(names) -> set[int]:
    return {parse_cell(n) for n in names}


def my_land(session: TutorialSession, player: int = 0) -> set[int]:
    return set(session.game.observation(player).panoramas[player].land)


#: What must hold once the base chapter's step (by its index) is done.
BASE_CHECKS = {
    2: lambda s: my_land(s) == cells(["1-2", "2-2"]),
    5: lambda s: my_land(s) == cells(["1-2", "2-2", "2-1", "2-3"])
    and any(t == parse_cell("5-5") for t, _ in s.game.observation(0).display),
    8: lambda s: set(s.game.observation(0).panoramas[0].rainbows) == cells(["1-1"]),
    10: lambda s: [sp for sp, _ in s.game.observation(0).panoramas[0].spirits] == [Spirit.FROG],
    14: lambda s: set(s.game.observation(0).panoramas[0].rainbows) == cells(["1-1", "1-4"])
    and s.game.observation(0).evil_player == 0,
    18: lambda s: s.game.observation(0).evil_player == 1,
    19: lambda s: parse_cell("4-2") in my_land(s),
    20: lambda s: s.game.is_over and s.game.winner == 0
    and (s.game.score(0).total, s.game.score(1).total) == (17, 11),
}


def walk(chapter) -> Iterator[TutorialSession]:
    """The chapter played through the session's API alone: each step's move, or Enter, and
    the Tutor's script in between; the session as each step begins (the same session, on
    to the last step)."""
    session = TutorialSession.start(chapter)
    while True:
        step = session.current
        tutor_first = step.move is None and step.after_tutor
        tutor_turn = not session.human_to_play and not session.game.is_over
        if (tutor_first or step.move is not None) and tutor_turn:
            tutor = session.game.to_play
            session.apply(session.bot(tutor).choose(session.observation(tutor)))
            continue
        yield session
        if session.last_step:
            return
        if step.move is None:
            session.acknowledge()
        else:
            session.apply(Move.parse(step.move))


def intended_positions(chapter) -> dict[int, str]:
    """The game (``to_json``) as each step begins (``walk``)."""
    return {session.step: session.game.to_json() for session in walk(chapter)}


def named_keys(say: str) -> list[str]:
    """The keys a lesson tells the player to press ("press 1, then Enter", "(C, then
    Enter", "Press d"); [] when it leaves the keys to the prompt."""
    found = re.search(r"(?:[Pp]ress |\()([1-9A-Za-z]), then Enter", say)
    if found:
        return [found.group(1).lower(), "enter"]
    if re.search(r"[Pp]ress d\b", say):
        return ["d"]
    if "(Enter;" in say:
        return ["enter"]
    return []


async def play_chapter(pilot, app, checks=None, upto: int | None = None) -> list[str]:
    """Play the chapter on screen by keys, asserting each step's text and, after each
    step, that its move was made (and ``checks``); returns the lessons shown."""
    shown = []
    screen = app.screen
    session: TutorialSession = screen.tutorial
    steps = session.chapter.steps
    end = len(steps) - 1 if upto is None else upto
    intended = intended_positions(session.chapter)
    while session.step < end:
        await settle(pilot, app)
        i = session.step
        step = steps[i]
        assert lesson(app) == step.say, f"step {i}"
        assert session.game.to_json() == intended[i], f"step {i} began in another position"
        panel = app.screen.query_one("#lesson")
        need = len(textwrap.wrap(step.say, panel.size.width, break_on_hyphens=False))
        seen = panel.content_region.intersection(app.screen.query_one("#left").region)
        assert seen.height >= need, f"step {i}: the lesson is cut at {app.size}"
        shown.append(lesson(app))
        if step.move is None:
            await pilot.press("enter")
        else:
            move = Move.parse(step.move)
            keys = named_keys(step.say) or keys_for_move(screen, move)
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            mine = [mv for p, mv, auto in session.game.history if p == 0 and not auto]
            assert mine[-1] == move, f"step {i}: {keys} did not make {step.move}"
        await pilot.pause()
        prompt = app.screen.query_one("#prompt").render()
        assert session.step == i + 1, f"step {i} did not end: {prompt}"
        if checks and i in checks:
            assert checks[i](session), f"the game after step {i} is not the intended one"
    await settle(pilot, app)
    if upto is None:  # the Tutor played its script, move for move
        tutor = [str(mv) for p, mv, auto in session.game.history if p == 1 and not auto]
        assert tutor == list(session.chapter.tutor)
    return shown


async def test_the_base_chapter_plays_to_the_end_by_keys(data_dir):
    app = tutorial_app()
    async with app.run_test(size=SIZE) as pilot:
        shown = await play_chapter(pilot, app, BASE_CHECKS)
        assert len(shown) == len(BASE.steps) - 1
        assert lesson(app) == BASE.steps[-1].say
        assert "17 stars to 11" in lesson(app)
        assert not (data_dir / "tutorial.json").exists() or \
            "place" not in json.loads((data_dir / "tutorial.json").read_text())
        await pilot.press("enter")  # the last step offers a real game against random
        await pilot.pause()
        screen = app.screen
        assert type(screen) is GameScreen
        assert Seat("random") in screen.session.setup.seats


async def test_the_base_chapter_leads_to_the_firefly_chapter(data_dir):
    """f on the base chapter's last step, resumed there (the chapter by keys is the test
    above)."""
    from solstis_tui.tutorial import progress

    *_, last = walk(BASE)
    progress.save(last)
    app = tutorial_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert app.screen.tutorial.last_step and lesson(app) == BASE.steps[-1].say
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, TutorialScreen)
        assert app.screen.tutorial.chapter is FIREFLY


async def test_the_firefly_chapter_plays_to_the_end_by_keys():
    app = tutorial_app("firefly")
    checks = {
        1: lambda s: s.game.decision is not None and s.game.decision.name == "SQUARE",
        2: lambda s: s.game.observation(0).panoramas[0].fireflies == (parse_cell("1-2"),),
        3: lambda s: s.game.observation(0).evil_player == 1,
    }
    async with app.run_test(size=SIZE) as pilot:
        await play_chapter(pilot, app, checks)
        assert lesson(app) == FIREFLY.steps[-1].say
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.session.setup.variant == "firefly"


async def test_a_wrong_move_is_explained_and_changes_nothing():
    app = tutorial_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")  # past the welcome
        session = app.screen.tutorial
        before = session.game.to_json()
        await pilot.press("2", "enter")  # 5-5: legal, but not this step's move
        await pilot.pause()
        prompt = str(app.screen.query_one("#prompt").render())
        assert BASE.steps[1].why in prompt
        assert session.step == 1 and session.game.to_json() == before
        await pilot.press("u")  # no undo, said so
        await pilot.pause()
        assert "no undo in the tutorial" in str(app.screen.query_one("#prompt").render())
        await pilot.press("1", "enter")  # the right one still works
        await pilot.pause()
        assert session.step == 2


async def test_a_tutorial_left_part_way_resumes_where_it_was(data_dir):
    app = tutorial_app()
    async with app.run_test(size=SIZE) as pilot:
        await play_chapter(pilot, app, upto=9)
        history = app.screen.tutorial.game.history
        await pilot.press("q")
    again = tutorial_app()
    async with again.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot, again)
        session = again.screen.tutorial
        assert session.step == 9 and session.game.history == history
        assert lesson(again) == BASE.steps[9].say
        await until(lambda: "Resumed the tutorial at step 10" in screen_text(again), pilot)
    fresh = tutorial_app(restart_tutorial=True)
    async with fresh.run_test(size=SIZE) as pilot:
        await settle(pilot, fresh)
        assert fresh.screen.tutorial.step == 0 and not fresh.screen.tutorial.game.history


def first_run_app() -> SolstisApp:
    return SolstisApp(Setup(seed=3, seats=("human", "random")), offer_continue=True, pace=0)


async def test_the_first_run_offers_the_tutorial_once(data_dir):
    app = first_run_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, WelcomeScreen)
        await pilot.press("s")  # one key skips
        await pilot.pause()
        assert type(app.screen) is GameScreen
    assert json.loads((data_dir / "tutorial.json").read_text())["offered"] is True
    again = first_run_app()
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert type(again.screen) is GameScreen  # never asked again


async def test_the_first_run_offer_opens_the_tutorial():
    app = first_run_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TutorialScreen)
        assert lesson(app) == BASE.steps[0].say


@pytest.mark.parametrize("theme", ["dark", "light", "high-contrast", "ansi-16"])
async def test_the_tutorial_fits_80x24_in_ascii_in_every_theme(theme):
    app = tutorial_app(ascii_mode=True, theme_name=theme)
    async with app.run_test(size=SIZE) as pilot:
        shown = await play_chapter(pilot, app, upto=6)
        text = screen_text(app)
        assert all(ord(ch) < 127 for ch in text), sorted({c for c in text if ord(c) > 126})
        assert BASE.steps[6].say.split(":")[0] in text.replace("\n", " ")
        assert len(shown) == 6


def test_every_lesson_fits_three_lines_at_80_columns():
    for chapter in CHAPTERS.values():
        for i, step in enumerate(chapter.steps):
            lines = textwrap.wrap(step.say, 78, break_on_hyphens=False)
            assert len(lines) <= 3, (chapter.name, i, lines)
            sentences = [t for t in re.split(r"(?<=[.!?]) ", step.say)
                         if not t.startswith(("Press Enter", "Enter:"))]
            assert len(sentences) <= 2, (chapter.name, i, sentences)


def marked(widget, view) -> set[str]:
    """The pieces of ``widget``'s drawing that carry the lesson's mark."""
    from solstis_tui.widgets.view import palette_of

    mark = palette_of(widget).mark
    text = widget.draw(view)
    return {text.plain[span.start:span.end] for span in text.spans
            if getattr(span.style, "underline", False)
            and getattr(span.style, "bgcolor", None) == mark.bgcolor}


async def test_each_step_highlights_the_tiles_and_cells_it_names():
    app = tutorial_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        hand, display = screen.query_one("#hand"), screen.query_one("#display")
        view = screen.view
        assert "1-2" in marked(hand, view) and "5-5" not in marked(hand, view)
        assert {"2-2", "4-2"} <= marked(display, view)
        assert "2-3" not in marked(display, view)
        await play_chapter(pilot, app, upto=8)  # "put the rainbow on 1-1"
        mine = screen.query_one("#mine")
        pieces = marked(mine, screen.view)
        assert pieces and all(p.strip() for p in pieces)
        assert [p.strip() for p in pieces] == ["◇◇"], pieces  # 1-1 only


async def test_a_second_chance_shows_the_drawn_tile_as_drawn():
    app = tutorial_app()
    async with app.run_test(size=SIZE) as pilot:
        await play_chapter(pilot, app, upto=5)  # 5-5 captured nothing; 2-1 was drawn
        hand = str(app.screen.query_one("#hand").render())
        assert "drew 2-1" in hand and "played" not in hand, hand


async def test_the_tutorial_plays_where_nothing_can_be_saved(data_dir, monkeypatch):
    """A file sits where the data folder should be: the chapter plays on, unkept."""
    data_dir.parent.mkdir(exist_ok=True)
    blocker = data_dir.parent / "blocker"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(blocker / "data"))
    app = tutorial_app("firefly")
    async with app.run_test(size=SIZE) as pilot:
        await play_chapter(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen) is GameScreen


@pytest.mark.parametrize("place", [
    {"chapter": "base", "step": 1e400, "moves": []},        # not a step number
    {"chapter": "base", "step": 9, "moves": []},            # a step the moves never reached
    {"chapter": "base", "step": 2, "moves": ["play 5-5"]},  # a move the steps never asked
    {"chapter": "base", "step": 2, "moves": ["play 1-2"], "chapter_version": "an old one"},
    "not a place",
])
async def test_a_saved_place_that_does_not_fit_starts_the_chapter_over(data_dir, place):
    from solstis_tui.tutorial import progress

    if isinstance(place, dict):  # saved by this version of the chapter, unless it says not
        place = {"chapter_version": progress.fingerprint(BASE), **place}
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "tutorial.json").write_text(json.dumps({"offered": True, "place": place}))
    app = tutorial_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        session = app.screen.tutorial
        assert session.step == 0 and not session.game.history
        assert lesson(app) == BASE.steps[0].say
    fitting = TutorialSession.start(BASE, [Move.parse("play 1-2")], 2)
    progress.save(fitting)
    assert progress.resume(BASE) is not None  # the same place, saved by this version, fits


async def test_restart_forgets_the_place_left(data_dir):
    from solstis_tui.tutorial import progress

    progress.save(TutorialSession.start(BASE, [Move.parse("play 1-2")], 2))
    app = tutorial_app(restart_tutorial=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("q")
    assert progress.resume(BASE) is None


async def test_the_practice_game_asks_before_it_replaces_a_saved_game(data_dir):
    from solstis_tui.local import saves
    from solstis_tui.local.session import Session
    from solstis_tui.screens.resume import ContinueScreen

    saved = Session(Setup(seed=11, seats=("human", "minimax")))
    saves.save(saved)
    app = tutorial_app("firefly")
    async with app.run_test(size=SIZE) as pilot:
        await play_chapter(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ContinueScreen)
        await pilot.press("c")  # keep the saved game
        await settle(pilot, app)
        assert app.game_screen.session.setup.seed == 11


async def test_clicks_and_the_palette_do_not_get_past_the_tutorial():
    app = tutorial_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        screen.play.click_pick(("item", 0))  # a double click on a read step: no step passes
        screen.play.click_pick(("item", 0))
        assert screen.tutorial.step == 0
        assert "Review game" not in {c.title for c in app.get_system_commands(screen)}
        over = dataclasses.replace(screen.play.obs, is_over=True)
        with mock.patch.object(type(screen.play), "obs", new=over):  # a tutorial game ended
            assert "Review game" not in {c.title for c in app.get_system_commands(screen)}
        await pilot.press("r")
        await pilot.pause()
        assert app.screen is screen and "review is for real games" in screen.play.error

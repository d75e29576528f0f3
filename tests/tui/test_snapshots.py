"""Snapshots (pytest-textual-snapshot): update with ``pytest tests/tui --snapshot-update``."""

from __future__ import annotations

import random

from .conftest import keys_for, make_app, play_by_keys, settle


async def _a_few_moves(pilot) -> None:
    app = pilot.app
    rng = random.Random(2)
    for _ in range(6):
        await settle(pilot, app)
        await pilot.press(*keys_for(app.game_screen, rng))
    await settle(pilot, app)


def test_main_screen_80x24(snap_compare):
    assert snap_compare(make_app(seed=3), terminal_size=(80, 24), run_before=_a_few_moves)


def test_main_screen_120x40(snap_compare):
    assert snap_compare(make_app(seed=3), terminal_size=(120, 40), run_before=_a_few_moves)


def test_main_screen_160x48_large_tiles(snap_compare):
    assert snap_compare(make_app(seed=3), terminal_size=(160, 48), run_before=_a_few_moves)


def test_main_screen_ascii_ansi16(snap_compare):
    app = make_app(seed=3, ascii_mode=True, theme_name="ansi-16")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_a_few_moves)


def test_end_screen(snap_compare):
    async def play(pilot):
        await play_by_keys(pilot, pilot.app, random.Random(1))
        await settle(pilot, pilot.app)

    assert snap_compare(make_app(seed=3), terminal_size=(100, 30), run_before=play)


def test_help_screen(snap_compare):
    assert snap_compare(make_app(seed=3), terminal_size=(100, 30),
                        press=["question_mark", "_"])


def test_new_game_screen(snap_compare):
    assert snap_compare(make_app(seed=3), terminal_size=(80, 24), press=["n", "_"])


def test_too_small_message(snap_compare):
    assert snap_compare(make_app(seed=3), terminal_size=(60, 20))


def test_tutorial_rainbow_step_80x24(snap_compare):
    """The lesson panel, the highlighted cell and the prompt of a tutorial step."""
    from solstis_tui.app import SolstisApp

    from .test_tutorial import play_chapter

    async def to_the_rainbow(pilot):
        await play_chapter(pilot, pilot.app, upto=8)

    app = SolstisApp(tutorial="base", pace=0.0)
    assert snap_compare(app, terminal_size=(80, 24), run_before=to_the_rainbow)


def _board_app(**kwargs):
    from solstis_tui.app import SolstisApp
    from solstis_tui.coach.analysis import TINY
    from tests.review_game import finished_record

    return SolstisApp(review=finished_record(), review_effort=TINY, review_workers=1,
                      autosave=False, **kwargs)


async def _to_a_mistake(pilot) -> None:
    """The analysis done, the board at the first labelled decision."""
    from .conftest import analysed

    await analysed(pilot, pilot.app.screen)
    await pilot.press("n")
    await pilot.pause()


def test_review_board_80x24(snap_compare):
    assert snap_compare(_board_app(), terminal_size=(80, 24), run_before=_to_a_mistake)


def test_review_board_160x48_large_tiles_and_the_decision_list(snap_compare):
    assert snap_compare(_board_app(), terminal_size=(160, 48), run_before=_to_a_mistake)


def test_review_board_ascii_ansi16(snap_compare):
    app = _board_app(ascii_mode=True, theme_name="ansi-16")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_to_a_mistake)

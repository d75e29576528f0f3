"""The mouse: a click picks a tile, a pile, a spirit choice or a cell; a second click confirms."""

from __future__ import annotations

import pytest

from solstis_tui.core import Decision, Move, MoveKind
from solstis_tui.widgets.panorama import LARGE, SMALL, Geometry, cell_offset, square_offset

from .conftest import make_app, settle
from .positions import save_position


def prompt_of(app) -> str:
    return str(app.game_screen.query_one("#prompt").render())


def made(app) -> list[Move]:
    """The decisions made so far (automatic ones left out)."""
    return [mv for _, mv, auto in app.game_screen.session.game.history if not auto]


async def click_text(pilot, selector: str, needle: str, line: int = 0) -> None:
    """Click the first character of ``needle`` in a one-cell-padded board widget."""
    widget = pilot.app.screen.query_one(selector)
    text = str(widget.render()).splitlines()[line]
    assert needle in text, (needle, text)
    assert await pilot.click(widget, offset=(1 + text.index(needle), line))
    await pilot.pause()


async def click_cell(pilot, side: str, cell: int, geo: Geometry = SMALL, line: int = 0) -> None:
    """Click ``cell`` (on ``line`` of a tile more than one line tall)."""
    x, y = cell_offset(cell, geo)
    assert await pilot.click(f"#{side}", offset=(1 + x, y + line))
    await pilot.pause()


async def click_square(pilot, side: str, square: int, geo: Geometry = SMALL) -> None:
    x, y = square_offset(square, geo)
    assert await pilot.click(f"#{side}", offset=(1 + x, y))
    await pilot.pause()


#: (terminal size, tile size the board should draw at it)
SIZES = [((80, 24), SMALL), ((160, 48), LARGE)]


async def resumed(pilot, app):
    await settle(pilot, app)
    gs = app.game_screen
    assert app.screen is gs and gs.session.human_to_play
    return gs


async def test_click_a_hand_tile_picks_it_and_a_second_click_plays_it():
    app = make_app(seats=("human", "random"), seed=312)
    async with app.run_test(size=(80, 24)) as pilot:
        gs = await resumed(pilot, app)
        assert [it.label for it in gs.view.items] == ["2-2", "4-7", "4-9"]
        await click_text(pilot, "#hand", "2:4-7")
        assert gs.play.choice.selected == 1 and made(app) == []  # picked, not played
        assert "4-7 captures" in prompt_of(app)
        await click_text(pilot, "#hand", "2:4-7")
        await settle(pilot, app)
        assert made(app)[0] == Move.parse("play 4-7")


async def test_a_keyboard_pick_is_not_confirmed_by_one_click():
    app = make_app(seats=("human", "random"), seed=312)
    async with app.run_test(size=(80, 24)) as pilot:
        gs = await resumed(pilot, app)
        await pilot.press("3")
        await click_text(pilot, "#hand", "3:4-9")  # picks it (already picked): no play yet
        assert made(app) == [] and gs.play.choice.selected == 2
        await pilot.press("enter")  # Enter confirms a clicked pick too
        await settle(pilot, app)
        assert made(app)[0].kind is MoveKind.PLAY


async def test_click_a_display_pile_to_capture_and_a_pile_too_early_explains():
    app = make_app(seats=("human", "random"), seed=312)
    async with app.run_test(size=(80, 24)) as pilot:
        gs = await resumed(pilot, app)
        await click_text(pilot, "#display", "C:1-2")
        assert "piles are picked only" in prompt_of(app) and made(app) == []
        await click_text(pilot, "#hand", "1:2-2")
        await click_text(pilot, "#hand", "1:2-2")  # 2-2 captures 1-2 or 2-8: a choice
        assert gs.session.game.decision is Decision.CAPTURE
        await click_text(pilot, "#display", "C:1-2")
        assert gs.session.game.decision is Decision.CAPTURE and gs.play.choice.selected == 2
        await click_text(pilot, "#display", "C:1-2")
        await settle(pilot, app)
        assert made(app)[:2] == [Move.parse("play 2-2"), Move.parse("capture 1-2")]


async def test_click_a_spirit_choice():
    def line_spirit(session):
        return any(mv.kind is MoveKind.TAKE for mv in session.game.legal_moves())

    session = save_position({Decision.ENCOUNTER}, check=line_spirit)
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        gs = await resumed(pilot, app)
        assert gs.view.zone == "spirits"
        take = next(i for i, it in enumerate(gs.view.items) if it.label.startswith("Take"))
        label = f"{take + 1}:{gs.view.items[take].label}"
        move = gs.view.items[take].move
        before = len(made(app))
        await click_text(pilot, "#pool", label)
        assert gs.play.choice.selected == take and len(made(app)) == before
        await click_text(pilot, "#pool", label)
        await settle(pilot, app)
        assert made(app)[before] == move
    assert session.game.decision is Decision.ENCOUNTER


@pytest.mark.parametrize(("size", "geo"), SIZES)
async def test_click_a_cell_of_your_panorama_for_a_rainbow(size, geo):
    session = save_position({Decision.PLACE_RAINBOW},
                            check=lambda s: len(s.game.legal_moves()) > 1)
    app = make_app(resume=True)
    async with app.run_test(size=size) as pilot:
        gs = await resumed(pilot, app)
        assert gs.query_one("#mine").geo == geo
        target = max(gs.view.targets)
        assert gs.play.choice.cursor != target
        before = len(made(app))
        await click_cell(pilot, "theirs", target, geo)
        assert "your own panorama" in prompt_of(app)
        await click_cell(pilot, "mine", target, geo, line=geo.height - 1)
        assert gs.play.choice.cursor == target and len(made(app)) == before
        await click_cell(pilot, "mine", target, geo)
        await settle(pilot, app)
        assert made(app)[before] == Move(MoveKind.RAINBOW, target)
    assert session.game.decision is Decision.PLACE_RAINBOW


@pytest.mark.parametrize(("size", "geo"), SIZES)
async def test_click_a_square_for_the_spirit(size, geo):
    save_position({Decision.SQUARE}, check=lambda s: len(s.game.legal_moves()) > 1)
    app = make_app(resume=True)
    async with app.run_test(size=size) as pilot:
        gs = await resumed(pilot, app)
        square = max(gs.view.targets)
        before = len(made(app))
        await click_square(pilot, "mine", square, geo)
        assert gs.play.choice.cursor == square and len(made(app)) == before
        await click_square(pilot, "mine", square, geo)
        await settle(pilot, app)
        assert made(app)[before] == Move(MoveKind.SQUARE, square)


async def test_click_the_opponents_panorama_for_the_viper_and_the_evil_spirit():
    for decision, kind in ((Decision.VIPER, MoveKind.VIPER), (Decision.EVIL, MoveKind.EVIL)):
        save_position({decision}, variant="firefly")
        app = make_app(resume=True, variant="firefly")
        async with app.run_test(size=(80, 24)) as pilot:
            gs = await resumed(pilot, app)
            assert gs.view.zone == "theirs"
            cell = max(gs.view.targets)
            before = len(made(app))
            await click_cell(pilot, "mine", cell)
            assert "panorama" in prompt_of(app) and len(made(app)) == before
            await click_cell(pilot, "theirs", cell)
            assert gs.play.choice.cursor == cell
            await click_cell(pilot, "theirs", cell)
            await settle(pilot, app)
            assert made(app)[before] == Move(kind, cell), decision


async def test_cover_a_spirit_by_clicking_it_on_the_holders_panorama():
    save_position({Decision.COVER})
    app = make_app(resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        gs = await resumed(pilot, app)
        holder = gs.view.obs.context[0]
        side = "mine" if holder == gs.view.me else "theirs"
        spirit, square = gs.view.obs.panoramas[holder].spirits[-1]
        before = len(made(app))
        await click_square(pilot, side, square)
        assert gs.view.items[gs.play.choice.selected].value == int(spirit)
        await click_square(pilot, side, square)
        await settle(pilot, app)
        assert made(app)[before] == Move(MoveKind.COVER, int(spirit))

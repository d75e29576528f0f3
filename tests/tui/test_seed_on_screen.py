"""What the screen says about the seed: a chosen seed is shown as not secret;
a secret one (drawn by the program) is never shown, since it gives the whole deal away."""

from __future__ import annotations

import random

from solstis_tui.app import SolstisApp
from solstis_tui.cli import build_parser, setup_from_args
from solstis_tui.local.session import random_setup
from solstis_tui.screens.resume import ContinueScreen

from .conftest import keys_for, make_app, settle


def top_bar(app: SolstisApp) -> str:
    return str(app.game_screen.query_one("#topbar").render())


async def play_a_little(pilot, app: SolstisApp) -> None:
    rng = random.Random(1)
    for _ in range(3):
        await settle(pilot, app)
        await pilot.press(*keys_for(app.game_screen, rng))
    await settle(pilot, app)


async def test_a_chosen_seed_is_shown_as_not_secret_at_80_columns():
    app = make_app(seats=("human", "random"), seed=42)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        bar = top_bar(app)
        assert "seed 42 (chosen, not secret)" in bar
        assert bar.rstrip().endswith("Random bot")  # the whole bar fits in 80 columns


async def test_a_secret_seed_is_never_shown(data_dir):
    setup = setup_from_args(build_parser().parse_args(["--opponent", "random"]))
    assert setup.secret and setup.seed.bit_length() > 64
    app = SolstisApp(setup, pace=0.0, hint_spec="random")
    async with app.run_test(size=(120, 40)) as pilot:
        await play_a_little(pilot, app)
        bar = top_bar(app)
        assert "secret deal" in bar and "seed" not in bar and str(setup.seed) not in bar
    # Nor when the saved game is offered again (a hot-seat opponent could read it there).
    again = make_app(offer_continue=True)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ContinueScreen)
        assert "seed" not in again.screen.summary
        assert str(setup.seed) not in again.screen.summary
        await pilot.press("c")
        await settle(pilot, again)
        assert again.game_screen.session.setup == setup
        assert "secret deal" in top_bar(again) and "seed" not in top_bar(again)


async def test_a_chosen_seed_is_offered_again_with_its_seed(data_dir):
    app = make_app(seats=("human", "random"), seed=42)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_a_little(pilot, app)
    again = SolstisApp(random_setup("random"), pace=0.0, offer_continue=True)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ContinueScreen)
        assert "seed 42" in again.screen.summary

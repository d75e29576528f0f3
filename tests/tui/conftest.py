"""Shared helpers for the Pilot tests: a fresh save directory and a key-pressing player."""

from __future__ import annotations

import contextlib
import random

import pytest
from textual.worker import WorkerCancelled

from solstis_tui.app import SolstisApp
from solstis_tui.coach.analysis import TINY
from solstis_tui.local.session import Setup
from solstis_tui.play import zones as choices
from solstis_tui.screens.game import GameScreen


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """Every test saves into its own empty directory."""
    path = tmp_path / "data"
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(path))
    return path


@pytest.fixture(autouse=True)
def a_terminal(monkeypatch):
    """pytest's own standard input and output are no terminal: ``solstis`` would refuse to
    start; the tests that mean it say so."""
    from solstis_tui import cli

    monkeypatch.setattr(cli, "has_terminal", lambda: True)


def make_app(seats=("human", "random"), seed=3, variant="base", **kwargs) -> SolstisApp:
    kwargs.setdefault("pace", 0.0)
    kwargs.setdefault("hint_spec", "random")
    # The analysis board's judge: tiny, on this process (tests never wait for the real one).
    kwargs.setdefault("review_effort", TINY)
    kwargs.setdefault("review_workers", 1)
    kwargs.setdefault("hint_effort", TINY)  # hints ask the judge: a tiny effort in tests
    return SolstisApp(Setup(variant=variant, seed=seed, seats=seats), **kwargs)


async def ask_hint(pilot, app: SolstisApp) -> str:
    """Press t and wait for the hint: its text as the game screen holds it."""
    await pilot.press("t")
    await app.workers.wait_for_complete()
    await pilot.pause()
    return app.game_screen.play.hint_text


async def settle(pilot, app: SolstisApp) -> None:
    """Wait until no bot is thinking and no worker runs."""
    for _ in range(2000):
        gs = app.game_screen
        busy = gs is None or gs.play.turns.pacing.busy \
            or any(w.group == "bot" and not w.is_finished for w in app.workers)
        if not busy:
            return
        # An exclusive worker replaced by a newer one is cancelled: that is normal.
        with contextlib.suppress(WorkerCancelled):
            await app.workers.wait_for_complete()
        await pilot.pause()
    raise AssertionError("the app never settled")


def keys_for(screen: GameScreen, rng: random.Random) -> list[str]:
    """The keys a person would press to make a random legal choice of the pending decision
    (drawn as ``coverage_scan.simulate`` draws it)."""
    view = screen.view
    assert view is not None and view.zone is not None, "no decision of a person is pending"
    if view.zone in ("mine", "theirs"):
        targets = sorted(view.targets)
        move = choices.cell_move(view.obs.decision, targets[rng.randrange(len(targets))])
    else:
        move = view.items[rng.choice([i for i, it in enumerate(view.items) if it.legal])].move
    return keys_for_move(screen, move)


def keys_for_move(screen: GameScreen, move) -> list[str]:
    """The keys a person would press to make ``move``: a number or pile letter and Enter,
    Tab to a cell and Enter, or the shortest way round the list with the arrow keys."""
    view = screen.view
    assert view is not None and view.zone is not None, "no decision of a person is pending"
    if view.zone in ("mine", "theirs"):
        targets = sorted(view.targets)
        k = targets.index(move.arg)
        cursor = screen.play.choice.cursor
        start = targets.index(cursor) if cursor in targets else 0
        forward = (k - start) % len(targets)
        backward = len(targets) - forward
        if forward <= backward:
            return ["tab"] * forward + ["enter"]
        return ["shift+tab"] * backward + ["enter"]
    i = next(i for i, item in enumerate(view.items) if item.move == move)
    if view.zone == "display":
        return [chr(ord("A") + i), "enter"]
    if i < 9:
        return [str(i + 1), "enter"]
    return ["right"] * ((i - view.selected) % len(view.items)) + ["enter"]


#: Land tiles left in the pile where ``start_near_the_end`` hands over: a few turns, with
#: decisions of the person's among them.
LEFT = 6


async def start_near_the_end(pilot, app: SolstisApp, rng: random.Random) -> None:
    """Play the app's deal on at random, both seats, until a few turns are left (``LEFT``
    land tiles in the pile), and go on from there in a new session. For
    tests of what comes at a game's end: the game and its record are whole, from the
    deal, and the last decisions are the person's keys."""
    from solstis_tui.core import Game
    from solstis_tui.local.session import Session

    setup = app.session.setup
    game = Game.new(seed=setup.seed, options=setup.options)
    while True:
        trial = game.copy()
        trial.play(rng.choice(trial.legal_moves()))
        if trial.is_over or len(trial.pile) < LEFT:
            break  # stop before the few last turns
        game = trial
    app.start_session(Session(setup, position=game))
    while not app.game_screen.is_mounted:  # its first step comes once it is up
        await pilot.pause()
    await pilot.pause()
    await settle(pilot, app)


async def play_by_keys(pilot, app: SolstisApp, rng: random.Random, limit: int = 400,
                       seen: set | None = None) -> None:
    """Play the person's decisions with key presses until the game ends."""
    from solstis_tui.screens.passkb import PassScreen

    for _ in range(limit):
        await settle(pilot, app)
        gs = app.game_screen
        if gs.session.game.is_over:
            return
        if isinstance(app.screen, PassScreen):
            await pilot.press("s")
            continue
        assert app.screen is gs, f"unexpected screen {app.screen!r}"
        if seen is not None:
            seen.add(gs.session.game.decision)
        before = len(gs.session.game.history)
        await pilot.press(*keys_for(gs, rng))
        await settle(pilot, app)
        game = gs.session.game
        assert len(game.history) > before or game.is_over or gs.play.error == "", gs.play.error
    raise AssertionError("the game did not end")


async def open_review(pilot, app: SolstisApp):
    """Press ``r`` on the finished game and wait until the analysis board has its analysis;
    returns the board's screen."""
    from solstis_tui.screens.review import ReviewScreen

    await pilot.press("r")
    await pilot.pause()
    assert isinstance(app.screen, ReviewScreen)
    return await analysed(pilot, app.screen)


async def analysed(pilot, review):
    """Wait until the analysis board ``review`` has its analysis (or says it stopped)."""
    for _ in range(200):
        with contextlib.suppress(WorkerCancelled):
            await review.app.workers.wait_for_complete()
        await pilot.pause()
        if review.board.notes or review.board.failed:
            break
    assert review.board.notes and not review.board.failed, review.board.failed
    return review

"""End-phase passes and an end with tiles still in hand are said on the status line, not
only in the log."""

from __future__ import annotations

import random

from solstis_tui.core import Decision, MoveKind
from solstis_tui.local import saves
from solstis_tui.local.seats import PERSON
from solstis_tui.local.session import Session, Setup

from .conftest import make_app, settle
from .positions import save_position


def prompt(app) -> str:
    return str(app.game_screen.query_one("#prompt").render())


def passed_since_my_last_decision(session: Session) -> bool:
    for player, mv, auto in reversed(session.game.history):
        if not auto and player == 0:
            return False
        if auto and mv.kind is MoveKind.PASS:
            return True
    return False


async def test_a_pass_by_itself_is_on_the_status_line():
    session = save_position({Decision.PLAY}, check=passed_since_my_last_decision)
    passer = next(p for p, mv, auto in reversed(session.game.history)
                  if auto and mv.kind is MoveKind.PASS)
    app = make_app(resume=True)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot, app)
        name = app.game_screen.session.name(passer)
        assert f"{name} passed: no tile in hand could capture" in prompt(app)


async def test_an_end_with_tiles_in_hand_says_why():
    for seed in range(200):
        session = Session(Setup(seed=seed, seats=(PERSON, "random")))
        rng = random.Random(seed)
        while not session.game.is_over:
            session.apply(rng.choice(session.game.legal_moves()))
        squirrel = any(e.kind == "squirrel" for e in session.game.log)  # says it otherwise
        if session.game.end_reason != "fireflies" and any(session.game.hands) \
                and not squirrel:
            break
    saves.save(session)
    app = make_app(resume=True)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot, app)
        assert "Neither player could capture: tiles left in hand score nothing." \
            in prompt(app)

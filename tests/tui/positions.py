"""Saved positions for the Pilot tests: a game where the person must make a given decision.

Both seats are played with seeded random legal moves (no UI, so it is quick) until seat 1
(the person) faces one of the wanted decision kinds; the game is then saved where the app
looks, and the app opens it with ``resume=True``.
"""

from __future__ import annotations

import random

from solstis_tui.core import Decision
from solstis_tui.local import saves
from solstis_tui.local.seats import PERSON
from solstis_tui.local.session import Session, Setup


def find_position(wanted: set[Decision], variant: str = "base", seeds: int = 300,
                  check=None) -> Session:
    """A session (you vs the random bot) in which you face a decision of ``wanted``."""
    for seed in range(seeds):
        session = Session(Setup(variant=variant, seed=seed, seats=(PERSON, "random")))
        rng = random.Random(seed)
        while not session.game.is_over:
            game = session.game
            if game.to_play == 0 and game.decision in wanted and \
                    (check is None or check(session)):
                return session
            session.apply(rng.choice(game.legal_moves()))
    raise AssertionError(f"no game reaches {sorted(d.name for d in wanted)}")


def save_position(wanted: set[Decision], variant: str = "base", check=None) -> Session:
    """Like ``find_position``, and saved as the autosave the app resumes."""
    session = find_position(wanted, variant, check=check)
    saves.save(session)
    return session

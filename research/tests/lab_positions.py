"""Seeded positions for the lab's tests: a copy of tests/ai/conftest.py's ``positions``
(the shipped tests' helper; research/ does not import the shipped test suite)."""

from __future__ import annotations

import random

from solstis_tui.core import Game, Options


def positions(variant: str, count: int, seed: int = 0) -> list[Game]:
    """``count`` positions of ``variant`` with a real choice (two or more legal moves),
    reached by random play from seeded deals, spread over whole games."""
    rand = random.Random(seed)
    found: list[Game] = []
    deal = 0
    while len(found) < count:
        g = Game.new(seed=1000 * seed + deal, options=Options.for_variant(variant))
        deal += 1
        while not g.is_over and len(found) < count:
            if len(g.legal_moves()) > 1 and rand.random() < 0.25:
                found.append(g.copy())
            g.play(rand.choice(g.legal_moves()))
    return found

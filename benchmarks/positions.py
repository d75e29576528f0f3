"""Positions for the speed benchmarks: decisions with a real choice, spread over whole games
of heuristic self-play."""

from __future__ import annotations

import random

from solstis_tui.ai.policy import best_move
from solstis_tui.core import Game, Options


def sample_positions(count: int, seed: int, variant: str) -> list[Game]:
    """``count`` positions with more than one legal move, about one in eight decisions of
    games where the heuristic plays with 20% random moves."""
    rand = random.Random(seed)
    out: list[Game] = []
    deal = 0
    while len(out) < count:
        g = Game.new(seed * 10_007 + deal, Options.for_variant(variant))
        deal += 1
        while not g.is_over and len(out) < count:
            if len(g.legal_moves()) > 1 and rand.random() < 0.12:
                out.append(g.copy())
            g.play(best_move(g, rand, 0.2))
    return out

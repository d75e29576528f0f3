"""Checks that hold in every reachable position of every game."""

from __future__ import annotations

from collections import Counter

from solstis_tui.core import Game, Spirit
from solstis_tui.core.board import CELLS, bits, squares_cells
from solstis_tui.core.determinize import unseen_spirits
from solstis_tui.core.observation import in_transit
from solstis_tui.core.spirits import spirit_set


def land_places(game: Game) -> Counter:
    """How many places hold each land tile (should be exactly one each)."""
    places: Counter = Counter()
    places.update(game.pile)
    places.update(game.face_up)
    places.update(d for d in game.face_down if d >= 0)
    for p in (0, 1):
        places.update(game.hands[p])
        places.update(bits(game.land[p]))
    places.update(bits(game.removed))
    places.update(in_transit(game))
    return places


def check_invariants(game: Game) -> None:
    """Every land tile and rainbow in exactly one place; spirits accounted for."""
    places = land_places(game)
    assert sorted(places) == sorted(CELLS), "a land tile is missing or unknown"
    assert all(n == 1 for n in places.values()), f"tiles in two places: {places}"
    rainbows = (game.rainbow_supply + game.rainbows_out
                + sum(r.bit_count() for r in game.rainbow_cells))
    assert rainbows == 12
    for p in (0, 1):
        assert not game.land[p] & game.rainbow_cells[p], "a cell holds a tile and a rainbow"
        squares = game.fireflies[p] | sum(1 << sq for _, sq in game.spirits[p])
        assert game.occupied_squares[p] == squares, (
            "occupied squares disagree with spirits and fireflies")
        assert game.blocked[p] == squares_cells(squares), "blocked cells are wrong"
        assert len(game.hands[p]) <= game.hand_size[p]
    if not game.is_over:
        assert game.legal_moves(), "no legal move before the end"
        obs = game.observation(game.to_play)
        assert sorted(unseen_spirits(obs)) == sorted(game.spirit_pile)
    total = Counter(game.spirit_pile) + Counter(game.spirit_line)
    for p in (0, 1):
        total.update(s for s, _ in game.spirits[p])
    assert all(n == 1 for n in total.values()), "a spirit in two places"
    allowed = set(spirit_set(game.options.firefly, game.options.beginner))
    assert set(total) <= allowed
    if game.options.firefly:
        flies = game.firefly_supply + sum(f.bit_count() for f in game.fireflies)
        assert flies == 7
        assert max(f.bit_count() for f in game.fireflies) <= 4
    assert Spirit.EVIL not in game.spirit_line

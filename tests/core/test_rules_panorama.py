"""rules.md §4-§6: putting tiles into a panorama, rainbows and squares."""

from __future__ import annotations

import pytest

from solstis_tui.core import Decision
from solstis_tui.core.board import CELLS, NAMES

from .positions import (
    auto_moves,
    events,
    hand,
    land,
    line,
    moves,
    play,
    position,
    rainbows,
    removed,
    spirits,
)

P1 = {"hand": ["4-6", "4-8", "3-10"]}


# ---------------------------------------------------------------------- §4
def test_s4_land_tile_goes_to_its_own_cell():
    game = position(p0={"hand": ["3-4", "5-5", "1-1"]}, p1=P1, display=[["3-7", None]])
    play(game, "play 3-4")
    assert land(game, 0) == {"3-4", "3-7"} and land(game, 1) == set()


def test_s4_free_rainbow_is_displaced_with_a_choice():
    """§4: 3-7 arrives on p0's free rainbow; p0 chooses where the rainbow goes (§5 cells:
    empty and next to p0's tiles), then 3-7 takes its cell. The captured 3-7 goes in
    before the played 3-4 (§3 step 2), so 3-4 is not yet there to be a neighbour."""
    game = position(p0={"hand": ["3-4", "5-5", "1-1"], "rainbows": ["3-7"]}, p1=P1,
                    display=[["3-7", None]])
    play(game, "play 3-4")
    assert game.decision is Decision.MOVE_RAINBOW and game.to_play == 0
    assert sorted(moves(game)) == sorted(f"shift {c}" for c in ["2-7", "4-7", "3-6", "3-8"])
    play(game, "shift 2-7")
    assert land(game, 0) == {"3-4", "3-7"}
    assert rainbows(game, 0) == {"2-7"}
    assert game.rainbow_supply == 11, "the rainbow moved; none came from the supply"
    assert game.to_play == 1


@pytest.mark.parametrize(
    ("tiles", "spirit_square"),
    [(["1-1", "1-2", "2-1"], "1-1"),   # the rainbow is the square's upper-right cell
     (["1-2", "1-3", "2-3"], "1-2")],  # ... its upper-left cell
)
def test_s4_blocked_rainbow_removes_the_land_tile(tiles, spirit_square):
    """§4: a spirit sits on a square containing the rainbow's cell 2-2: the captured 2-2
    is removed from the game and the rainbow stays."""
    game = position(p0={"hand": ["2-5", "6-4", "6-5"], "land": tiles, "rainbows": ["2-2"],
                        "spirits": [["frog", spirit_square]]},
                    p1=P1, display=[["2-2", None]])
    play(game, "play 2-5")
    assert "2-2" in removed(game)
    assert land(game, 0) == set(tiles) | {"2-5"}
    assert rainbows(game, 0) == {"2-2"}
    assert game.decision is Decision.PLAY and game.to_play == 1


def test_s4_displaced_rainbow_with_no_legal_cell_goes_to_the_box():
    """§4: p0's panorama is full (36 land tiles and all 12 rainbows); 1-1 and 1-5 arrive on
    free rainbows that have nowhere to go, so both rainbows leave the game (the captured
    1-5 first, §3 step 2)."""
    rainbow_cells = ["1-1", "1-5", "6-4", "6-5", "6-6", "6-7", "5-3", "5-4", "5-5", "5-6",
                     "5-7", "5-8"]
    full = [NAMES[c] for c in CELLS if NAMES[c] not in rainbow_cells]
    game = position(p0={"hand": ["1-1"], "land": full, "rainbows": rainbow_cells},
                    p1={"hand": []}, display=[["1-5", None]])
    assert game.rainbow_supply == 0
    play(game, "play 1-1")
    assert {"1-1", "1-5"} <= land(game, 0)
    assert rainbows(game, 0) == set(rainbow_cells) - {"1-1", "1-5"}
    assert game.rainbows_out == 2 and game.rainbow_supply == 0
    assert [NAMES[e[2]] for e in events(game, "rainbow_out")] == ["1-5", "1-1"]


# ---------------------------------------------------------------------- §5
def test_s5_rainbow_goes_next_to_your_tiles():
    """§5: a new rainbow takes an empty cell sharing a side with a land tile or rainbow."""
    game = position(p0={"hand": ["2-8", "5-5", "1-1"], "land": ["3-3"], "rainbows": ["3-4"]},
                    p1=P1, display=[["6-5", None]], pile_top=["4-9"])
    play(game, "play 2-8")
    assert game.decision is Decision.PLACE_RAINBOW
    assert sorted(moves(game)) == sorted(
        f"rainbow {c}" for c in ["2-3", "4-3", "3-2", "2-4", "4-4", "3-5"])
    play(game, "rainbow 4-4")
    assert rainbows(game, 0) == {"3-4", "4-4"}


# ---------------------------------------------------------------------- §6
def test_s6_square_formed_by_a_rainbow():
    """§6: the second-chance rainbow on 2-2 completes 1-1/1-2/2-1/2-2: a spirit is met."""
    game = position(p0={"hand": ["3-5", "5-5", "1-9"], "land": ["1-1", "1-2", "2-1"]},
                    p1=P1, display=[["6-7", None]], pile_top=["4-9"],
                    spirit_top=["frog", "wolf"])
    play(game, "play 3-5", "rainbow 2-2")
    assert game.decision is Decision.KEEP, "the only way to meet a spirit: draw two"
    assert sorted(moves(game)) == ["keep frog", "keep wolf"]
    play(game, "keep frog")
    assert spirits(game, 0) == {"frog": "1-1"}
    assert line(game) == ["wolf"]
    assert "square 1-1" in auto_moves(game)
    assert game.to_play == 1


def test_s6_displaced_rainbow_re_placed_forms_a_square():
    """§6: the displaced rainbow moved to 2-7 completes 1-6/1-7/2-6/2-7."""
    game = position(p0={"hand": ["3-4", "5-5", "1-9"], "land": ["1-6", "1-7", "2-6"],
                        "rainbows": ["3-7"]},
                    p1=P1, display=[["3-7", None]], spirit_top=["frog", "wolf"])
    play(game, "play 3-4", "shift 2-7")
    assert game.decision is Decision.KEEP
    play(game, "keep wolf")
    assert spirits(game, 0) == {"wolf": "1-6"}
    assert rainbows(game, 0) == {"2-7"}


def test_s6_land_tile_replacing_a_free_rainbow_inside_a_complete_square_forms_it():
    """§6: square 1-1 is complete with a free rainbow on 2-2 and no spirit; the captured
    2-2 replaces the rainbow (moved to 3-2) and the square counts as formed this turn."""
    game = position(p0={"hand": ["2-5", "5-5", "1-9"], "land": ["1-1", "1-2", "2-1"],
                        "rainbows": ["2-2"]},
                    p1=P1, display=[["2-2", None]], spirit_top=["frog", "wolf"])
    play(game, "play 2-5")
    assert game.decision is Decision.MOVE_RAINBOW
    play(game, "shift 3-2")
    assert game.decision is Decision.KEEP
    play(game, "keep frog")
    assert spirits(game, 0) == {"frog": "1-1"}
    assert land(game, 0) == {"1-1", "1-2", "2-1", "2-2", "2-5"}
    assert rainbows(game, 0) == {"3-2"}


def test_s6_one_spirit_though_two_squares_and_the_other_stays_empty_for_good():
    """§6/§7: capturing 2-2 with 1-2 completes squares 1-1 and 1-2; one spirit only, on
    the square p0 picks. Next p0 turn a new square 2-1 forms: 1-2 is not offered again."""
    game = position(p0={"hand": ["1-2", "3-1", "6-6"], "land": ["1-1", "2-1", "1-3", "2-3"]},
                    p1={"hand": ["6-7", "4-8", "4-9"]},
                    display=[["2-2", None], ["3-2", None], ["6-4", None]],
                    pile_top=["5-5", "5-6"], spirit_top=["frog", "wolf", "bee", "bird"])
    play(game, "play 1-2", "capture 2-2", "keep frog")
    assert game.decision is Decision.SQUARE
    assert sorted(moves(game)) == ["square 1-1", "square 1-2"]
    play(game, "square 1-1")
    assert spirits(game, 0) == {"frog": "1-1"}
    assert line(game) == ["wolf"]
    assert game.to_play == 1
    play(game, "play 6-7")  # p1 captures 6-4
    assert land(game, 1) == {"6-7", "6-4"}
    play(game, "play 3-1")  # p0 captures 3-2: square 2-1 forms
    assert game.decision is Decision.ENCOUNTER
    assert sorted(moves(game)) == ["draw", "take wolf"]
    play(game, "draw", "keep bee")
    assert spirits(game, 0) == {"frog": "1-1", "bee": "2-1"}
    assert auto_moves(game)[-1] == "square 2-1"
    assert sorted(line(game)) == ["bird", "wolf"]
    assert land(game, 0) == {"1-1", "1-2", "1-3", "2-1", "2-2", "2-3", "3-1", "3-2"}


def test_s6_spirit_effect_placements_never_form_squares_in_the_base_game():
    """§6: the Eagle puts 2-2 from the pile into p0's panorama, completing 1-1/1-2/2-1/2-2:
    no second spirit, no encounter."""
    game = position(p0={"hand": ["5-5", "6-6", "6-7"],
                        "land": ["4-4", "4-5", "5-4", "1-1", "1-2", "2-1"]},
                    p1=P1, display=[["5-7", None]], pile_top=["2-2", "3-9"],
                    spirit_top=["eagle", "frog"])
    play(game, "play 5-5", "keep eagle")
    assert spirits(game, 0) == {"eagle": "4-4"}
    assert "2-2" in land(game, 0)
    assert hand(game, 0) == ["3-9", "6-6", "6-7"]
    assert line(game) == ["frog"]
    assert game.to_play == 1 and game.decision is Decision.PLAY


def test_s6_fish_rainbow_never_forms_a_square_in_the_base_game():
    """§6: the Fish's rainbow on 2-2 completes square 1-1: no encounter comes of it."""
    game = position(p0={"hand": ["5-5", "6-6", "6-7"],
                        "land": ["4-4", "4-5", "5-4", "1-1", "1-2", "2-1"]},
                    p1=P1, display=[["5-7", None]], pile_top=["3-9"],
                    spirit_top=["fish", "frog"])
    play(game, "play 5-5", "keep fish")
    assert game.decision is Decision.PLACE_RAINBOW
    play(game, "rainbow 2-2")
    assert spirits(game, 0) == {"fish": "4-4"}
    assert rainbows(game, 0) == {"2-2"}
    assert game.to_play == 1 and game.decision is Decision.PLAY


def test_s4_deer_tile_bound_for_a_blocked_rainbow_is_removed():
    """§4 applies whatever brought the tile: the Deer's 1-9 lands on a rainbow under the
    Frog's square 1-8, so 1-9 leaves the game."""
    game = position(p0={"hand": ["5-5", "1-9", "2-10"],
                        "land": ["4-4", "4-5", "5-4", "1-8", "2-8", "2-9"],
                        "rainbows": ["1-9"], "spirits": [["frog", "1-8"]]},
                    p1=P1, display=[["5-7", None]], spirit_top=["deer", "wolf"])
    play(game, "play 5-5", "keep deer", "deer 1-9")
    assert "1-9" in removed(game)
    assert rainbows(game, 0) == {"1-9"}
    assert "1-9" not in land(game, 0)
    assert game.to_play == 1


def test_s4_squirrel_tile_on_a_free_rainbow_displaces_it_at_game_end():
    """§4 with the end-game Squirrel: 5-5 lands on p0's free rainbow, p0 moves it first."""
    game = position(p0={"hand": ["5-5"], "land": ["1-1", "1-2", "2-1", "2-2"],
                        "rainbows": ["5-5"], "spirits": [["squirrel", "1-1"]]},
                    p1={"hand": ["6-7"]}, empty_pile=True)
    assert not game.is_over
    assert game.decision is Decision.MOVE_RAINBOW and game.to_play == 0
    assert "shift 5-6" in moves(game) and "shift 3-1" in moves(game)
    play(game, "shift 3-1")
    assert game.is_over
    assert "5-5" in land(game, 0)
    assert rainbows(game, 0) == {"3-1"}

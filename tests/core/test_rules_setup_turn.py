"""rules.md §1-§3: material, setup and the steps of a turn, from crafted positions."""

from __future__ import annotations

import json

import pytest

from solstis_tui.core import Decision, Game, Options, Spirit
from solstis_tui.core.board import CELLS, SQUARES, parse_cell

from .positions import (
    auto_moves,
    display,
    events,
    hand,
    land,
    moves,
    play,
    position,
    rainbows,
)


# ---------------------------------------------------------------------- §1 material
def test_s1_panorama_has_48_cells_and_33_squares():
    assert len(CELLS) == 48
    assert len(SQUARES) == 33
    # Row 6 holds columns 4-7 only, row 4 columns 2-9.
    with pytest.raises(ValueError):
        parse_cell("6-3")
    with pytest.raises(ValueError):
        parse_cell("4-1")
    assert parse_cell("6-7") in CELLS and parse_cell("4-9") in CELLS


# ---------------------------------------------------------------------- §2 setup
@pytest.mark.parametrize(
    ("options", "spirits"),
    [(Options(), 15), (Options(beginner=True), 14), (Options(firefly=True), 19)],
)
@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_s2_setup_counts(options, spirits, seed):
    """§2: 6 display piles (face-down under face-up), 3 + 3 hidden hand, 30 in the pile."""
    game = Game.new(seed=seed, options=options)
    assert len(game.face_up) == 6
    assert all(d >= 0 for d in game.face_down), "each pile has a face-down tile beneath"
    assert [len(h) for h in game.hands] == [3, 3]
    assert len(game.pile) == 30
    everywhere = game.face_up + game.face_down + game.hands[0] + game.hands[1] + game.pile
    assert sorted(everywhere) == sorted(CELLS), "all 48 tiles, each exactly once"
    assert len(game.spirit_pile) == spirits and len(game.spirit_line) == 0
    assert (Spirit.EVIL in game.spirit_pile) is (not options.beginner)
    assert tuple(game.land) == (0, 0) and tuple(game.rainbow_cells) == (0, 0)
    assert game.rainbow_supply == 12
    assert game.to_play == 0 and game.decision is Decision.PLAY
    assert game.firefly_supply == 7


def test_s2_same_seed_same_deal():
    a, b = Game.new(seed=99), Game.new(seed=99)
    assert a.to_json() == b.to_json()
    assert Game.new(seed=98).to_json() != a.to_json()


# ---------------------------------------------------------------------- §3.1 play
def test_s3_any_hand_tile_may_be_played_outside_the_end_phase():
    """§3.1: capturing or not, every hand tile is a legal play."""
    game = position(p0={"hand": ["3-4", "5-5", "1-1"]}, p1={"hand": ["2-2", "2-3", "2-4"]},
                    display=[["3-7", None]])
    assert sorted(moves(game)) == ["play 1-1", "play 3-4", "play 5-5"]


# ---------------------------------------------------------------------- §3.2 capture
def test_s3_capture_choice_among_row_and_column_matches():
    """§3.2: 3-4 may capture 3-7 (same row) or 5-4 (same column), not 2-2; player chooses."""
    game = position(p0={"hand": ["3-4", "5-5", "1-1"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=[["3-7", None], ["5-4", None], ["2-2", None]])
    play(game, "play 3-4")
    assert game.decision is Decision.CAPTURE
    assert sorted(moves(game)) == ["capture 3-7", "capture 5-4"]
    play(game, "capture 5-4")
    assert land(game, 0) == {"3-4", "5-4"}
    assert display(game) == [("3-7", None), ("2-2", None)]
    assert game.to_play == 1


def test_s3_single_capture_is_forced_and_automatic():
    """§3.2: if one tile can be captured it must be: the engine captures it at once."""
    game = position(p0={"hand": ["3-4", "5-5", "1-1"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=[["3-7", None], ["2-2", None]])
    play(game, "play 3-4")
    assert land(game, 0) == {"3-4", "3-7"}
    assert auto_moves(game) == ["capture 3-7"]
    assert display(game) == [("2-2", None)]
    assert not events(game, "second"), "a capture means no second chance"


def test_s3_captured_tile_goes_in_before_the_played_one():
    """§3 step 2: the captured tile enters the panorama first, then the played one (more in
    test_rules_s3_capture_order.py)."""
    game = position(p0={"hand": ["3-4", "5-5", "1-1"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=[["3-7", None]])
    play(game, "play 3-4")
    placed = [e[2] for e in events(game, "place")]
    assert placed == [parse_cell("3-7"), parse_cell("3-4")]


def test_s3_face_down_tile_flips_and_is_not_captured_by_the_same_capture():
    """§3.2: 3-9 lies under 3-7; capturing 3-7 with 3-4 turns 3-9 up, and 3-9 stays in
    the display although it shares row 3 with the played tile."""
    game = position(p0={"hand": ["3-4", "5-5", "1-1"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=[["3-7", "3-9"], ["6-5", None]])
    play(game, "play 3-4")
    assert land(game, 0) == {"3-4", "3-7"}
    assert display(game) == [("3-9", None), ("6-5", None)]
    assert game.to_play == 1


# ---------------------------------------------------------------------- §3.3 second chance
def test_s3_second_chance_captures_the_just_discarded_tile():
    """§3.3: 2-2 captures nothing and joins the display; the drawn 2-8 captures it."""
    game = position(p0={"hand": ["2-2", "5-5", "1-1"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=[["6-4", None]], pile_top=["2-8", "4-4"])
    play(game, "play 2-2")
    assert land(game, 0) == {"2-2", "2-8"}
    assert display(game) == [("6-4", None)]
    assert game.rainbow_cells[0] == 0 and game.rainbow_supply == 12
    assert hand(game, 0) == ["1-1", "4-4", "5-5"], "refilled with the next pile tile"


def test_s3_second_chance_offers_a_choice_when_it_captures_several():
    """§3.3: the drawn tile captures 'as above', so with two targets the player chooses."""
    game = position(p0={"hand": ["2-2", "5-5", "1-1"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=[["5-8", None]], pile_top=["2-8", "4-4"])
    play(game, "play 2-2")
    assert game.decision is Decision.CAPTURE
    assert sorted(moves(game)) == ["capture 2-2", "capture 5-8"]
    play(game, "capture 5-8")
    assert land(game, 0) == {"2-8", "5-8"}
    assert display(game) == [("2-2", None)]


def test_s3_double_miss_gives_a_rainbow():
    """§3.3: played and drawn tiles both miss: both join the display, a rainbow follows.
    An empty panorama takes the rainbow on any cell (§5)."""
    game = position(p0={"hand": ["3-3", "5-5", "1-1"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=[["6-5", None]], pile_top=["4-9", "1-10"])
    play(game, "play 3-3")
    assert display(game) == [("6-5", None), ("3-3", None), ("4-9", None)]
    assert game.decision is Decision.PLACE_RAINBOW and game.to_play == 0
    assert len(moves(game)) == 48
    play(game, "rainbow 2-7")
    assert rainbows(game, 0) == {"2-7"} and land(game, 0) == set()
    assert game.rainbow_supply == 11
    assert hand(game, 0) == ["1-1", "1-10", "5-5"]
    assert game.to_play == 1


def test_s3_no_rainbow_left_means_none_gained():
    """§1/§3.3: with the rainbow supply empty, a double miss gives nothing."""
    game = position(p0={"hand": ["3-3", "5-5", "1-1"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=[["6-5", None]], pile_top=["4-9", "1-10"],
                    rainbow_supply=0, rainbows_out=12)
    play(game, "play 3-3")
    assert game.rainbow_cells[0] == 0
    assert events(game, "no_rainbow") == [("no_rainbow", 0)]
    assert game.to_play == 1 and game.decision is Decision.PLAY


def test_s3_no_second_chance_with_an_empty_land_pile():
    """§3.3: with an empty land pile there is no second chance and no rainbow.

    (In a real game a turn that starts with an empty pile is an end-phase turn where only
    capturing tiles are played, so this crafts the engine state of a non-end-phase turn
    whose pile is empty.)"""
    data = json.loads(position(p0={"hand": ["3-3", "5-5"]}, p1={"hand": ["3-8", "2-5"]},
                               display=[["6-5", None]], empty_pile=True).to_json())
    data["state"]["end_phase"] = False
    game = Game.from_json(json.dumps(data))
    assert sorted(moves(game)) == ["play 3-3", "play 5-5"]
    play(game, "play 3-3")
    assert display(game) == [("6-5", None), ("3-3", None)]
    assert not events(game, "second")
    assert game.rainbow_cells[0] == 0 and game.rainbow_supply == 12
    assert hand(game, 0) == ["5-5"], "no refill from an empty pile"
    assert game.to_play == 1 and not game.is_over


# ---------------------------------------------------------------------- §3.5 refill
def test_s3_refill_draws_the_top_of_the_land_pile():
    """§3.5: after a capture the hand holds 2; one tile is drawn back up to 3."""
    game = position(p0={"hand": ["3-4", "5-5", "1-1"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=[["3-7", None]], pile_top=["6-6", "6-7"])
    before = len(game.pile)
    play(game, "play 3-4")
    assert hand(game, 0) == ["1-1", "5-5", "6-6"]
    assert len(game.pile) == before - 1
    assert game.pile[-1] == parse_cell("6-7"), "6-7 is the new top"


# ---------------------------------------------------------------------- §3 display
def test_s3_display_grows_past_six_piles():
    """§3.3: each missed tile opens a new face-up pile of its own, beyond 6 piles."""
    six = [["6-4", "1-2"], ["6-5", "1-3"], ["6-6", "1-4"], ["6-7", "1-5"], ["5-7", "1-6"],
           ["5-8", "1-7"]]
    game = position(p0={"hand": ["3-3", "2-1", "2-2"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=six, pile_top=["4-9", "1-10"])
    play(game, "play 3-3", "rainbow 3-4")
    assert len(display(game)) == 8
    assert display(game)[-2:] == [("3-3", None), ("4-9", None)]


def test_s3_emptied_pile_disappears_and_flipped_pile_stays():
    """§3.3: a pile whose only tile is captured is gone; one with a tile beneath stays."""
    game = position(p0={"hand": ["3-4", "5-5", "1-1"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=[["6-5", None], ["3-7", None], ["5-4", "2-9"], ["6-6", None]])
    play(game, "play 3-4", "capture 3-7")
    assert display(game) == [("6-5", None), ("5-4", "2-9"), ("6-6", None)]
    play(game, "play 2-5")  # 2-5 captures 6-5 (column 5): that pile empties too
    assert land(game, 1) == {"2-5", "6-5"}
    assert display(game) == [("5-4", "2-9"), ("6-6", None)]
    play(game, "play 5-5")  # captures 5-4 (row 5); 2-9 is turned up in its place
    assert display(game) == [("2-9", None), ("6-6", None)]


def test_s3_turn_passes_to_the_opponent():
    game = position(p0={"hand": ["3-4", "5-5", "1-1"]}, p1={"hand": ["2-3", "2-5", "2-6"]},
                    display=[["3-7", None]])
    play(game, "play 3-4")
    assert game.to_play == 1 and game.decision is Decision.PLAY
    assert [e[1] for e in events(game, "turn")] == [0, 1]

"""rules.md §8 (the end of the game) and §12 (scoring)."""

from __future__ import annotations

from solstis_tui.core import Decision
from solstis_tui.core.events import EndReason

from .positions import auto_moves, events, hand, land, moves, play, position


# ---------------------------------------------------------------------- §8 end phase
def test_s8_end_phase_turn_plays_only_a_capturing_tile_and_does_not_refill():
    game = position(p0={"hand": ["3-4", "5-5", "1-9"]}, p1={"hand": ["6-6", "2-2"]},
                    display=[["3-7", None], ["6-7", None]], empty_pile=True)
    assert game.end_phase
    assert moves(game) == ["play 3-4"]
    play(game, "play 3-4")
    assert land(game, 0) == {"3-4", "3-7"}
    assert hand(game, 0) == ["1-9", "5-5"], "no refill in the end phase"
    assert not events(game, "second") and not events(game, "draw")


def test_s8_end_phase_pass_while_the_opponent_can_still_capture():
    """p0 cannot capture and passes; p1 captures twice (p0's second turn is a forced pass)
    and the game ends once the display holds nothing anyone can capture."""
    game = position(p0={"hand": ["5-5", "1-8"]}, p1={"hand": ["3-1", "3-2"]},
                    display=[["3-7", None], ["3-9", None]], empty_pile=True)
    assert moves(game) == ["pass"]
    play(game, "pass")
    assert not game.is_over and game.to_play == 1
    assert sorted(moves(game)) == ["play 3-1", "play 3-2"]
    play(game, "play 3-1", "capture 3-7")
    assert auto_moves(game)[-3:] == ["pass", "play 3-2", "capture 3-9"]
    assert land(game, 1) == {"3-1", "3-2", "3-7", "3-9"}
    assert hand(game, 0) == ["1-8", "5-5"]
    assert game.is_over and game.end_reason is EndReason.NORMAL


def test_s8_game_ends_the_moment_neither_player_can_capture():
    """p0 takes the last capturable tile: p1 (holding 6-6 and 1-1) gets no turn at all."""
    game = position(p0={"hand": ["3-4", "5-5"]}, p1={"hand": ["6-6", "1-1"]},
                    display=[["3-7", None]], empty_pile=True)
    play(game, "play 3-4")
    assert game.is_over and game.end_reason is EndReason.NORMAL
    assert [e[1] for e in events(game, "turn")] == [0]
    assert hand(game, 1) == ["1-1", "6-6"]
    assert game.legal_moves() == [] and game.decision is None


def test_s8_drawing_the_last_tile_ends_the_game_after_that_turn():
    """The second chance takes the last land tile; nobody can capture: the game is over
    at the end of this turn, with no refill."""
    game = position(p0={"hand": ["3-3", "5-5"]}, p1={"hand": ["6-6"]},
                    display=[["1-10", None]], pile=["4-9"])
    assert not game.end_phase
    play(game, "play 3-3")
    assert game.decision is Decision.PLACE_RAINBOW
    play(game, "rainbow 2-2")
    assert len(game.pile) == 0
    assert hand(game, 0) == ["5-5"]
    assert game.is_over


def test_s8_game_goes_on_when_the_pile_empties_but_someone_can_capture():
    """p1 holds 3-1 and 4-2, which capture 3-3 and 4-9: p1's end-phase turn follows."""
    game = position(p0={"hand": ["3-3", "5-5"]}, p1={"hand": ["6-6", "3-1", "4-2"]},
                    display=[["1-10", None]], pile=["4-9"])
    play(game, "play 3-3", "rainbow 2-2")
    assert not game.is_over
    assert game.to_play == 1 and game.end_phase
    assert sorted(moves(game)) == ["play 3-1", "play 4-2"]


# ---------------------------------------------------------------------- §12 scoring
def test_s12_rulebook_example_scores_exactly_12():
    """§12: 9-cell section with one rainbow (8), one of two fires lit (1), the Evil
    Spirit covering the Bee (0), a Marmot (1), a Butterfly with one lit fire (1 + 1)."""
    section = ["1-1", "1-2", "1-3", "2-2", "3-2", "3-3", "4-2", "4-3"]
    game = position(
        p0={"hand": ["6-6"], "land": [*section, "5-8"], "rainbows": ["2-3"],
            "spirits": [["marmot", "1-2"], ["bee", "2-2"], ["butterfly", "3-2"]]},
        p1={"hand": ["6-7"]}, empty_pile=True, evil={"player": 0})
    assert game.decision is Decision.COVER and game.to_play == 1
    play(game, "cover bee")
    assert game.is_over
    s = game.score(0)
    assert s.biggest_section == 8
    assert s.lit_fires == 1
    assert s.spirits == 2
    assert s.bonuses == {"Butterfly": 1}
    assert s.fireflies == 0
    assert s.total == 12
    assert game.winner == 0


def score_of(p0: dict):
    return position(p0=p0, p1={"hand": ["6-7"]}).score(0)


def test_s12_biggest_section_counts_land_tiles_only():
    s = score_of({"land": ["1-1", "1-2", "2-1"], "rainbows": ["2-2", "3-1"]})
    assert s.biggest_section == 3


def test_s12_biggest_section_tie_goes_to_more_land_tiles():
    """Two 4-cell sections: 3 land + 1 rainbow (lower on the board) and 4 land."""
    s = score_of({"land": ["1-1", "1-2", "2-1", "5-4", "5-5", "6-4", "6-5"],
                  "rainbows": ["2-2"]})
    assert s.biggest_section == 4


def test_s12_biggest_section_is_the_one_with_most_cells():
    """5 cells (3 land + 2 rainbows) beat 4 land tiles: the biggest scores 3."""
    s = score_of({"land": ["1-1", "1-2", "2-1", "5-4", "5-5", "6-4", "6-5"],
                  "rainbows": ["2-2", "3-1"]})
    assert s.biggest_section == 3


COLUMN5 = ["1-5", "2-5", "3-5", "4-5", "5-5"]


def test_s12_shared_summit_fire_needs_both_6_5_and_6_6():
    only_65 = score_of({"land": [*COLUMN5, "6-5"]})
    assert only_65.lit_fires == 1
    both = score_of({"land": [*COLUMN5, "6-5", "6-6"]})
    assert both.lit_fires == 3, "6-5, 6-6 and the fire across their border"
    only_66 = score_of({"land": [*COLUMN5, "6-6"], "rainbows": ["6-5"]})
    assert only_66.lit_fires == 1, "a rainbow on 6-5 carries no fire"
    apart = score_of({"land": ["6-5", "6-6"]})
    assert apart.lit_fires == 0 and apart.unlit_fires == 3


def test_s12_lit_fire_needs_a_path_to_row_1_rainbows_included():
    cut = score_of({"land": ["2-2", "3-2", "4-2"]})
    assert cut.lit_fires == 0
    joined = score_of({"land": ["2-2", "3-2", "4-2"], "rainbows": ["1-2"]})
    assert joined.lit_fires == 1
    assert joined.total == 3 + 1


def end_game(p0_land: list, p1_land: list):
    game = position(p0={"hand": ["6-6"], "land": p0_land},
                    p1={"hand": ["6-7"], "land": p1_land}, empty_pile=True)
    assert game.is_over
    return game


def test_s12_highest_total_wins():
    game = end_game(["1-1", "1-2", "1-3"], ["3-1", "3-2"])
    assert (game.score(0).total, game.score(1).total) == (3, 2)
    assert game.winner == 0
    game = end_game(["1-1"], ["3-1", "3-2"])
    assert game.winner == 1


def test_s12_equal_totals_share_the_win():
    game = end_game(["1-1", "1-2"], ["3-1", "3-2"])
    assert game.score(0).total == game.score(1).total == 2
    assert game.winner is None
    assert game.end_reason is EndReason.NORMAL

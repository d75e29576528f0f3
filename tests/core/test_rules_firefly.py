"""rules.md §10 and the Firefly spirits of §9 (Cow, Phoenix, Viper, Renard)."""

from __future__ import annotations

import json

import pytest

from solstis_tui.core import Decision, EndReason, Game, InvalidPosition, Options, Spirit
from solstis_tui.core.board import CELLS, NAMES, parse_cell
from solstis_tui.core.events import EffectLost

from .positions import (
    auto_moves,
    fireflies,
    hand,
    land,
    moves,
    play,
    position,
    rainbows,
    removed,
    spirits,
)

FF = {"firefly": True}
P1 = {"hand": ["4-6", "4-8", "6-6"]}
SQUARE = ["2-7", "2-8", "3-7"]  # 3-8 completes square 2-7 (capturing 3-10)


def ff_position(**kw) -> Game:
    return position(options=FF, **kw)


def meeting(spirit: str, *, other: str = "frog", p0: dict | None = None, p1: dict | None = None,
            display: list | None = None, **kw) -> Game:
    """Firefly: p0 plays 3-8, captures 3-10, completes square 2-7 and keeps ``spirit``."""
    p0 = dict(p0 or {})
    p0["land"] = SQUARE + p0.get("land", [])
    p0.setdefault("hand", ["3-8", "1-5", "1-6"])
    game = ff_position(p0=p0, p1=p1 or P1, display=[["3-10", None]] + (display or []),
                       spirit_top=[spirit, other], **kw)
    play(game, "play 3-8")
    if game.decision is Decision.CAPTURE:
        play(game, "capture 3-10")
    if game.decision is Decision.KEEP:
        play(game, f"keep {spirit}")
    else:  # the other one was the Evil Spirit: nothing to choose
        assert other == "evil" and f"keep {spirit}" in auto_moves(game)
    return game


# ---------------------------------------------------------------------- setup
def test_s10_firefly_with_beginner_mode_is_rejected():
    with pytest.raises(InvalidPosition, match="Evil Spirit"):
        Options(firefly=True, beginner=True)
    data = json.loads(Game.new(seed=1, options=Options(firefly=True)).to_json())
    data["options"]["beginner"] = True
    with pytest.raises(InvalidPosition):
        Game.from_json(json.dumps(data))


def test_s10_setup_adds_four_spirits_and_seven_fireflies():
    game = Game.new(seed=3, options=Options(firefly=True))
    assert {Spirit.COW, Spirit.PHOENIX, Spirit.VIPER, Spirit.RENARD} <= set(game.spirit_pile)
    assert len(game.spirit_pile) == 19 and Spirit.EVIL in game.spirit_pile
    assert game.firefly_supply == 7


# ---------------------------------------------------------------------- squares
def test_s10_two_squares_in_one_turn_take_a_spirit_and_a_firefly():
    game = ff_position(p0={"hand": ["1-2", "6-6", "6-7"], "land": ["1-1", "2-1", "1-3", "2-3"]},
                       p1={"hand": ["4-6", "4-8"]}, display=[["2-2", None]],
                       spirit_top=["frog", "wolf"])
    play(game, "play 1-2", "keep frog")
    assert sorted(moves(game)) == ["square 1-1", "square 1-2"]
    play(game, "square 1-2")
    assert spirits(game, 0) == {"frog": "1-2"}
    assert fireflies(game, 0) == {"1-1"}
    assert game.firefly_supply == 6
    assert game.to_play == 1


def test_s10_fourth_firefly_ends_the_game_at_once_before_the_evil_spirit_moves():
    """p0 owns 2 fireflies and hosts the Evil Spirit on 3-4. 2-2 + 3-2 complete squares
    1-1, 2-1 and 2-2: the Eagle goes on one and its effect brings 5-6 (§10: the effect
    resolves before the fireflies), then fireflies go on the two others: the 4th firefly
    wins at once. The Evil Spirit stays where it is, p1's stars do not matter."""
    p0 = {"hand": ["2-2", "6-6", "6-7"],
          "land": ["1-1", "1-2", "2-1", "2-3", "3-1", "3-3",
                   "5-4", "5-5", "6-4", "6-5", "4-7", "4-8", "5-7", "5-8"],
          "fireflies": ["5-4", "4-7"]}
    p1 = {"hand": ["4-6"], "land": [f"{r}-{c}" for r in (1, 2) for c in range(4, 11)]}
    game = ff_position(p0=p0, p1=p1, display=[["3-2", None]], pile_top=["5-6"],
                       evil={"player": 0, "cell": "3-4"}, spirit_top=["eagle", "fish"])
    pile_before = len(game.pile)
    play(game, "play 2-2", "keep eagle")
    assert sorted(moves(game)) == ["square 1-1", "square 2-1", "square 2-2"]
    play(game, "square 1-1")
    assert game.is_over
    assert game.end_reason is EndReason.FIREFLIES
    assert game.winner == 0
    assert fireflies(game, 0) == {"5-4", "4-7", "2-1", "2-2"}
    assert (game.evil_player, game.evil_cell) == (0, parse_cell("3-4"))
    assert len(game.pile) == pile_before - 1 and "5-6" in land(game, 0), "the Eagle acted"
    assert game.legal_moves() == []
    s0, s1 = game.score(0), game.score(1)
    assert s1.total > s0.total > 0
    assert s0.spirits == 1


def test_s10_rainbow_blocked_by_a_firefly_removes_the_land_tile():
    game = ff_position(p0={"hand": ["2-5", "6-4", "6-5"], "land": ["1-1", "1-2", "2-1"],
                           "rainbows": ["2-2"], "fireflies": ["1-1"]},
                       p1=P1, display=[["2-2", None]])
    play(game, "play 2-5")
    assert "2-2" in removed(game)
    assert rainbows(game, 0) == {"2-2"}
    assert land(game, 0) == {"1-1", "1-2", "2-1", "2-5"}


@pytest.mark.parametrize("spirit", ["eagle", "fish"])
def test_s10_square_completed_by_a_spirit_effect_gets_a_firefly(spirit):
    """The Eagle's 2-2 (from the pile) or the Fish's rainbow on 2-2 completes 1-1."""
    game = meeting(spirit, p0={"land": ["1-1", "1-2", "2-1"]}, pile_top=["2-2", "6-4"])
    if spirit == "fish":
        play(game, "rainbow 2-2")
    assert fireflies(game, 0) == {"1-1"}
    assert spirits(game, 0) == {spirit: "2-7"}
    assert game.to_play == 1


def test_s10_displaced_rainbow_during_an_effect_gets_a_firefly():
    """The Eagle brings 3-3 onto p0's free rainbow; the rainbow moves to 2-2, which
    completes square 1-1: a firefly goes there."""
    game = meeting("eagle", p0={"land": ["1-1", "1-2", "2-1"], "rainbows": ["3-3"]},
                   pile_top=["3-3", "6-4"])
    assert game.decision is Decision.MOVE_RAINBOW
    play(game, "shift 2-2")
    assert fireflies(game, 0) == {"1-1"}
    assert "3-3" in land(game, 0)


def test_s10_squirrel_placements_get_no_firefly():
    game = ff_position(p0={"hand": ["2-3"], "land": ["1-1", "1-2", "1-3", "2-1", "2-2"],
                           "spirits": [["squirrel", "1-1"]]},
                       p1={"hand": ["6-7"]}, empty_pile=True)
    assert game.is_over and game.end_reason is EndReason.NORMAL
    assert "2-3" in land(game, 0)
    assert fireflies(game, 0) == set()


# ---------------------------------------------------------------------- scoring
def test_s10_fireflies_connected_to_row_1_score():
    game = ff_position(p0={"land": ["1-1", "1-2", "2-1", "2-2", "5-4", "5-5", "6-4", "6-5"],
                           "fireflies": ["1-1", "5-4"]}, p1=P1)
    s = game.score(0)
    assert s.fireflies == 1
    assert s.total == 4 + 0 + 0 + 1  # biggest section 4, 6-4/6-5 fires unlit


def test_s10_phoenix_counts_every_firefly_owned():
    game = ff_position(p0={"land": [f"{r}-{c}" for r in (1, 2) for c in range(1, 5)]
                           + ["5-4", "5-5", "6-4", "6-5"],
                           "spirits": [["phoenix", "1-2"]], "fireflies": ["1-1", "5-4"]},
                       p1=P1)
    s = game.score(0)
    assert s.bonuses == {"Phoenix": 2}
    assert s.fireflies == 1


def test_s10_cow_counts_land_tiles_of_the_second_biggest_section():
    """Sections: 6 land; 3 land + a rainbow (4 cells); 2 land. The second is 4 cells: 3."""
    game = ff_position(p0={"land": ["1-1", "1-2", "1-3", "2-1", "2-2", "2-3",
                                    "5-4", "5-5", "6-4", "3-8", "3-9"],
                           "rainbows": ["6-5"], "spirits": [["cow", "1-1"]]}, p1=P1)
    assert game.score(0).bonuses == {"Cow": 3}
    alone = ff_position(p0={"land": ["1-1", "1-2", "2-1", "2-2"],
                            "spirits": [["cow", "1-1"]]}, p1=P1)
    assert alone.score(0).bonuses == {"Cow": 0}


# ---------------------------------------------------------------------- Viper
def test_s9_viper_takes_the_only_isolated_tile():
    """p1's 1-1/1-2 touch each other and 1-9 touches a rainbow: only 4-5 is isolated."""
    p1 = {"hand": ["4-6", "4-8"], "land": ["4-5", "1-1", "1-2", "1-9"], "rainbows": ["1-10"]}
    game = meeting("viper", p1=p1)
    assert "4-5" in land(game, 0)
    assert land(game, 1) == {"1-1", "1-2", "1-9"}
    assert "viper 4-5" in auto_moves(game)


def test_s9_viper_chooses_among_isolated_tiles():
    p1 = {"hand": ["4-6", "4-8"], "land": ["4-5", "6-6", "1-1", "1-2"]}
    game = meeting("viper", p1=p1)
    assert game.decision is Decision.VIPER
    assert sorted(moves(game)) == ["viper 4-5", "viper 6-6"]
    play(game, "viper 6-6")
    assert "6-6" in land(game, 0) and "6-6" not in land(game, 1)


def test_s9_viper_is_lost_without_an_isolated_tile():
    p1 = {"hand": ["4-6", "4-8"], "land": ["1-1", "1-2", "1-9"], "rainbows": ["1-10"]}
    game = meeting("viper", p1=p1)
    assert EffectLost(0, Spirit.VIPER) in game.log
    assert land(game, 1) == {"1-1", "1-2", "1-9"}
    assert land(game, 0) == set(SQUARE) | {"3-8", "3-10"}


# ---------------------------------------------------------------------- Renard
def test_s9_renard_reveals_the_hand_and_forces_the_next_play():
    game = meeting("renard")
    assert game.decision is Decision.RENARD and game.to_play == 0
    known = tuple(parse_cell(t) for t in ["4-6", "4-8", "6-6"])
    assert game.observation(0).opponent_known == known
    assert game.observation(1).opponent_known == ()
    assert game.observation(1).known_by_opponent == known
    assert sorted(moves(game)) == ["renard 4-6", "renard 4-8", "renard 6-6"]
    n = len(game.history)
    play(game, "renard 6-6")
    assert game.observation(0).must_play[1] is None, "used up by p1's turn"
    # p1's only legal play is 6-6, so the engine plays it at once for p1.
    assert [(p, str(m), a) for p, m, a in game.history[n:n + 2]] == [
        (0, "renard 6-6", False), (1, "play 6-6", True)]
    assert "6-6" not in hand(game, 1)


def test_s9_renard_is_lost_against_an_empty_hand():
    game = meeting("renard", p1={"hand": []})
    assert EffectLost(0, Spirit.RENARD) in game.log
    assert not [e for e in game.log if e.kind in ("reveal", "renard")]


def test_s9_renard_in_the_end_phase_forced_tile_cannot_capture_so_they_pass():
    """End phase: p0 forces 6-6 on p1, who then passes although 3-1 could capture 3-9.
    Only that one turn is restricted: p0 passes, then p1 captures 3-9 with 3-1."""
    game = meeting("renard", p1={"hand": ["3-1", "6-6"]}, display=[["3-9", None]],
                   empty_pile=True)
    play(game, "renard 6-6")
    tail = [(p, str(m)) for p, m, _ in game.history[-5:]]
    assert tail == [(0, "renard 6-6"), (1, "pass"), (0, "pass"), (1, "play 3-1"),
                    (1, "capture 3-9")]
    assert {"3-1", "3-9"} <= land(game, 1)
    assert hand(game, 1) == ["6-6"]


# ---------------------------------------------------------------------- Evil Spirit
def test_s10_drawn_evil_spirit_goes_into_the_opponents_panorama():
    game = meeting("frog", other="evil", p1={"hand": ["4-6", "4-8"], "land": ["4-5"]})
    assert spirits(game, 0) == {"frog": "2-7"}
    assert game.decision is Decision.EVIL and game.to_play == 0
    assert sorted(moves(game)) == ["evil 3-5", "evil 4-4", "evil 4-6", "evil 5-5"]
    play(game, "evil 4-4")
    assert (game.evil_player, NAMES[game.evil_cell]) == (1, "4-4")
    for viewer in (0, 1):
        view = game.observation(viewer).panoramas[1]
        assert view.forbidden == parse_cell("4-4")
    assert game.to_play == 1


def test_s10_evil_spirit_with_an_empty_opponent_panorama_goes_anywhere():
    game = meeting("frog", other="evil", p1={"hand": ["4-6", "4-8"]})
    assert len(moves(game)) == len(CELLS)


def test_s10_forbidden_cell_takes_no_rainbow():
    game = ff_position(p1={"hand": ["2-9", "5-5", "1-1"], "land": ["3-4"]},
                       p0={"hand": ["4-6"]}, to_play=1, evil={"player": 1, "cell": "3-3"},
                       display=[["6-5", None]], pile_top=["4-7"])
    play(game, "play 2-9")
    assert game.decision is Decision.PLACE_RAINBOW and game.to_play == 1
    assert sorted(moves(game)) == ["rainbow 2-4", "rainbow 3-5", "rainbow 4-4"]


def test_s10_land_tile_bound_for_the_forbidden_cell_is_removed():
    game = ff_position(p1={"hand": ["3-6", "5-5", "1-1"], "land": ["3-4"]},
                       p0={"hand": ["4-6"]}, to_play=1, evil={"player": 1, "cell": "3-3"},
                       display=[["3-3", None]])
    play(game, "play 3-6")
    assert "3-3" in removed(game)
    assert land(game, 1) == {"3-4", "3-6"}
    assert (game.evil_player, NAMES[game.evil_cell]) == (1, "3-3")


def test_s10_host_moves_the_evil_spirit_on_after_its_next_encounter():
    """p0 hosts it on 3-6; after meeting the Frog p0 moves it into p1's panorama and 3-6
    is free again."""
    game = meeting("frog", other="wolf", evil={"player": 0, "cell": "3-6"},
                   p1={"hand": ["4-6", "4-8"], "land": ["4-5"]})
    assert game.decision is Decision.EVIL and game.to_play == 0
    play(game, "evil 5-5")
    assert (game.evil_player, NAMES[game.evil_cell]) == (1, "5-5")
    assert game.observation(1).panoramas[0].forbidden is None


def test_s10_evil_spirit_has_no_end_game_penalty():
    game = ff_position(p0={"hand": ["6-6"], "land": ["1-1", "1-2", "2-1", "2-2"],
                           "spirits": [["bee", "1-1"]]},
                       p1={"hand": ["6-7"]}, empty_pile=True, evil={"player": 0, "cell": "3-1"})
    assert game.is_over, "no cover decision in Firefly"
    s = game.score(0)
    assert s.covered is None and s.spirits == 1
    assert s.total == 4 + 1


def test_s10_fourth_firefly_from_a_spirit_effect_ends_the_game_at_once():
    """p0 owns 3 fireflies; the Eagle's 2-2 completes square 1-1: 4th firefly, game over
    at once (no refill)."""
    p0 = {"land": ["1-1", "1-2", "2-1", "5-4", "5-5", "6-4", "6-5", "4-4", "4-5",
                   "3-4", "3-5"],
          "fireflies": ["5-4", "4-4", "3-4"]}
    game = meeting("eagle", p0=p0, pile_top=["2-2", "6-7"])
    assert game.is_over and game.end_reason is EndReason.FIREFLIES and game.winner == 0
    assert fireflies(game, 0) == {"5-4", "4-4", "3-4", "1-1"}
    assert hand(game, 0) == ["1-5", "1-6"], "no refill after the game ended"

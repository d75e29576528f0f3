"""rules.md §7 (encountering spirits) and §9 (every base-game spirit)."""

from __future__ import annotations

from solstis_tui.core import Decision, Spirit
from solstis_tui.core.board import NAMES, parse_cell
from solstis_tui.core.events import EffectLost, EndReason, NoSpirit, RainbowLost

from .positions import (
    events,
    hand,
    land,
    line,
    moves,
    other_spirits,
    play,
    position,
    rainbows,
    spirit_pile,
    spirits,
)

P1 = {"hand": ["4-6", "4-8", "3-10"]}
SQUARE = ["4-4", "4-5", "5-4"]  # 5-5 completes square 4-4


def meeting(spirit: str, *, other: str = "frog", p0: dict | None = None, p1: dict | None = None,
            display: list | None = None, **kw):
    """p0 plays 5-5, captures 5-7, completes square 4-4, draws ``spirit`` and ``other``
    and keeps ``spirit`` (it goes on 4-4 at once, the only formed square)."""
    p0 = dict(p0 or {})
    p0["land"] = SQUARE + p0.get("land", [])
    p0.setdefault("hand", ["5-5", "1-9", "2-10"])
    game = position(p0=p0, p1=p1 or P1, display=[["5-7", None]] + (display or []),
                    spirit_top=[spirit, other], **kw)
    play(game, "play 5-5")
    assert game.decision is Decision.KEEP
    play(game, f"keep {spirit}")
    return game


def lost(game, spirit: Spirit) -> bool:
    return EffectLost(0, spirit) in game.log


# ---------------------------------------------------------------------- §7 encounters
def test_s7_draw_two_keep_one_other_goes_face_up_to_the_line():
    game = meeting("bee", other="wolf")
    assert spirits(game, 0) == {"bee": "4-4"}
    assert line(game) == ["wolf"]
    assert len(game.spirit_pile) == 13
    assert game.to_play == 1


def test_s7_take_any_one_spirit_from_the_line():
    game = position(p0={"hand": ["5-5", "1-9", "2-10"], "land": SQUARE}, p1=P1,
                    display=[["5-7", None]], spirit_line=["bee", "bird"],
                    spirit_top=["frog", "wolf"])
    play(game, "play 5-5")
    assert game.decision is Decision.ENCOUNTER
    assert sorted(moves(game)) == ["draw", "take bee", "take bird"]
    play(game, "take bird")
    assert spirits(game, 0) == {"bird": "4-4"}
    assert line(game) == ["bee"]
    assert spirit_pile(game)[:2] == ["frog", "wolf"], "the pile is untouched"


def test_s7_pile_with_one_spirit_draws_it():
    game = position(p0={"hand": ["5-5", "1-9", "2-10"], "land": SQUARE}, p1=P1,
                    display=[["5-7", None]], options={"beginner": True},
                    spirit_pile=["frog"], spirit_line=other_spirits("frog", beginner=True))
    play(game, "play 5-5", "draw")
    assert spirits(game, 0) == {"frog": "4-4"}
    assert len(game.spirit_pile) == 0 and len(line(game)) == 13
    assert game.to_play == 1


def test_s7_empty_pile_means_you_must_take_from_the_line():
    game = position(p0={"hand": ["5-5", "1-9", "2-10"], "land": SQUARE}, p1=P1,
                    display=[["5-7", None]], options={"beginner": True},
                    spirit_pile=[], spirit_line=other_spirits(beginner=True))
    play(game, "play 5-5")
    assert game.decision is Decision.ENCOUNTER
    assert "draw" not in moves(game)
    assert len(moves(game)) == 14 and all(m.startswith("take ") for m in moves(game))
    play(game, "take wolf")
    assert spirits(game, 0) == {"wolf": "4-4"}


def test_s7_both_empty_means_nothing_is_encountered():
    """§7: every spirit sits in p1's panorama; p0 forms a square and meets nothing."""
    rows = [NAMES[r * 10 + c] for r in range(3) for c in range(10)]
    squares = [f"1-{c}" for c in range(1, 10)] + [f"2-{c}" for c in range(1, 6)]
    placed = [list(x) for x in zip(other_spirits(beginner=True), squares, strict=True)]
    game = position(p0={"hand": ["5-5", "6-6", "6-7"], "land": SQUARE},
                    p1={"hand": ["4-6", "4-8"], "land": rows, "spirits": placed},
                    display=[["5-7", None]], options={"beginner": True})
    assert len(game.spirit_pile) == 0 and len(game.spirit_line) == 0
    play(game, "play 5-5")
    assert land(game, 0) == set(SQUARE) | {"5-5", "5-7"}
    assert spirits(game, 0) == {}
    assert NoSpirit(0) in game.log
    assert game.to_play == 1 and game.decision is Decision.PLAY


# ---------------------------------------------------------------------- §9 plain spirits
def test_s9_fish_places_a_rainbow():
    game = meeting("fish")
    assert game.decision is Decision.PLACE_RAINBOW and game.to_play == 0
    assert "rainbow 3-4" in moves(game) and "rainbow 1-1" not in moves(game)
    play(game, "rainbow 3-4")
    assert rainbows(game, 0) == {"3-4"}
    assert game.rainbow_supply == 11
    assert game.to_play == 1


def test_s9_fish_is_lost_when_no_rainbow_is_left():
    game = meeting("fish", rainbow_supply=0, rainbows_out=12)
    assert game.rainbow_cells[0] == 0
    assert RainbowLost(0) in game.log
    assert spirits(game, 0) == {"fish": "4-4"}, "the Fish still scores"
    assert game.to_play == 1


def test_s9_deer_puts_a_hand_tile_in_and_the_refill_draws_two():
    game = meeting("deer", pile_top=["6-4", "6-5", "6-6"])
    assert game.decision is Decision.DEER
    assert sorted(moves(game)) == ["deer 1-9", "deer 2-10"]
    play(game, "deer 1-9")
    assert "1-9" in land(game, 0)
    assert hand(game, 0) == ["2-10", "6-4", "6-5"]
    assert game.pile[-1] == parse_cell("6-6"), "6-6 is now on top (two were drawn)"
    assert game.to_play == 1


def test_s9_deer_is_lost_with_an_empty_hand():
    game = meeting("deer", p0={"hand": ["5-5"]}, pile_top=["6-4", "6-5", "6-6"])
    assert lost(game, Spirit.DEER)
    assert land(game, 0) == set(SQUARE) | {"5-5", "5-7"}
    assert hand(game, 0) == ["6-4", "6-5", "6-6"]


def test_s9_eagle_puts_the_top_land_tile_into_the_panorama():
    game = meeting("eagle", pile_top=["6-4", "6-5"])
    assert "6-4" in land(game, 0)
    assert hand(game, 0) == ["1-9", "2-10", "6-5"]
    assert game.to_play == 1


def test_s9_eagle_is_lost_with_an_empty_pile():
    """End phase (empty pile): 5-5 still captures; the Eagle has nothing to take."""
    game = meeting("eagle", empty_pile=True)
    assert lost(game, Spirit.EAGLE)
    assert land(game, 0) == set(SQUARE) | {"5-5", "5-7"}


def test_s9_bear_draws_now_and_hand_size_becomes_four():
    game = meeting("bear", pile_top=["6-4", "6-5", "6-6", "2-9", "1-8"])
    assert game.hand_size[0] == 4
    assert hand(game, 0) == ["1-9", "2-10", "6-4", "6-5"], "Bear draws 6-4, refill 6-5"
    # p1: 4-6 misses, the second chance 6-6 captures it.
    play(game, "play 4-6")
    assert land(game, 1) == {"4-6", "6-6"}
    # p0: 1-9 misses, 1-8 captures it; the refill goes back up to four.
    play(game, "play 1-9")
    assert land(game, 0) >= {"1-8", "1-9"}
    assert len(hand(game, 0)) == 4


def test_s9_fly_takes_a_random_opponent_tile_and_they_draw_one():
    game = meeting("fly", pile_top=["6-4", "6-5"])
    taken = land(game, 0) - set(SQUARE) - {"5-5", "5-7"}
    assert len(taken) == 1
    (tile,) = taken
    assert tile in {"4-6", "4-8", "3-10"}
    assert set(hand(game, 1)) == ({"4-6", "4-8", "3-10"} - {tile}) | {"6-4"}
    assert hand(game, 0) == ["1-9", "2-10", "6-5"]


def test_s9_fly_is_lost_when_the_opponent_hand_is_empty():
    game = meeting("fly", p1={"hand": []}, pile_top=["6-4", "6-5"])
    assert lost(game, Spirit.FLY)
    assert not events(game, "fly")
    assert land(game, 0) == set(SQUARE) | {"5-5", "5-7"}


def test_s9_beetle_takes_any_face_up_tile_and_flips_the_one_beneath():
    """3-9 shares neither row nor column with anything played: the Beetle takes it."""
    game = meeting("beetle", display=[["3-9", "2-8"], ["6-6", None]])
    assert game.decision is Decision.BEETLE
    assert sorted(moves(game)) == ["beetle 3-9", "beetle 6-6"]
    play(game, "beetle 3-9")
    assert "3-9" in land(game, 0)
    assert [NAMES[u] for u in game.face_up] == ["2-8", "6-6"]
    assert all(d < 0 for d in game.face_down)


def test_s9_beetle_is_lost_with_an_empty_display():
    game = meeting("beetle")
    assert len(game.face_up) == 0
    assert lost(game, Spirit.BEETLE)


def test_s9_marmot_gives_another_whole_turn_after_the_refill():
    game = meeting("marmot", pile_top=["2-9", "2-7", "6-6"])
    assert game.to_play == 0 and game.decision is Decision.PLAY
    assert hand(game, 0) == ["1-9", "2-9", "2-10"], "the refill came before the extra turn"
    assert [e[1] for e in events(game, "turn")] == [0, 0]
    play(game, "play 2-9")  # misses; the second chance 2-7 captures it
    assert land(game, 0) >= {"2-7", "2-9"}
    assert game.to_play == 1, "only one extra turn"


# ---------------------------------------------------------------------- §9 blue spirits
ROWS12 = [f"{r}-{c}" for r in (1, 2) for c in range(1, 7)]  # squares 1-1 .. 1-5


def scored(p0: dict, **kw):
    game = position(p0=p0, p1={"hand": ["4-6"]}, **kw)
    return game.score(0)


def test_s9_every_uncovered_spirit_scores_one_star():
    s = scored({"land": ROWS12, "spirits": [["fish", "1-1"], ["marmot", "1-3"]]})
    assert s.spirits == 2 and s.bonuses == {}
    assert s.total == 12 + 2


def test_s9_bee_counts_uncovered_plain_spirits():
    s = scored({"land": ROWS12, "spirits": [["bee", "1-1"], ["fish", "1-2"],
                                            ["deer", "1-3"], ["frog", "1-4"]]})
    assert s.bonuses["Bee"] == 2
    assert s.spirits == 4


FIRES = ["1-1", "1-2", "2-1", "2-2", "3-2", "4-2", "5-8", "6-4"]  # 4-2 lit, 5-8 & 6-4 not


def test_s9_ladybug_counts_unlit_fires():
    s = scored({"land": FIRES, "spirits": [["ladybug", "1-1"]]})
    assert s.lit_fires == 1
    assert s.bonuses == {"Ladybug": 2}


def test_s9_butterfly_counts_lit_fires_again():
    s = scored({"land": FIRES, "spirits": [["butterfly", "1-1"]]})
    assert s.lit_fires == 1 and s.bonuses == {"Butterfly": 1}
    assert s.total == 6 + 1 + 1 + 1


def test_s9_wolf_counts_sections_rainbows_connect_and_lone_tiles_count():
    """Square 1-1 joined to 2-4 through the rainbow 2-3 is one section; 5-5 is another."""
    s = scored({"land": ["1-1", "1-2", "2-1", "2-2", "2-4", "5-5"], "rainbows": ["2-3"],
                "spirits": [["wolf", "1-1"]]})
    assert s.sections == 2 and s.bonuses == {"Wolf": 2}
    s = scored({"land": ["1-1", "1-2", "2-1", "2-2", "2-4", "5-5"],
                "spirits": [["wolf", "1-1"]]})
    assert s.bonuses == {"Wolf": 3}


def test_s9_bird_counts_other_uncovered_blue_spirits():
    s = scored({"land": ROWS12, "spirits": [["bird", "1-1"], ["frog", "1-2"], ["wolf", "1-3"],
                                            ["bee", "1-4"], ["fish", "1-5"]]})
    assert s.bonuses["Bird"] == 3


def test_s9_frog_counts_rainbows():
    s = scored({"land": ["1-1", "1-2", "2-1"], "rainbows": ["2-2", "3-1", "5-5"],
                "spirits": [["frog", "1-1"]]})
    assert s.bonuses == {"Frog": 3}
    assert s.biggest_section == 3, "rainbows add size, not stars"


def test_s9_squirrel_puts_hand_tiles_in_at_game_end_without_spirits():
    """§9/§8: the game ends (empty pile, nothing to capture); the Squirrel puts 2-3 and
    6-6 into p0's panorama. 2-3 completes square 1-2, yet no spirit comes of it."""
    game = position(p0={"hand": ["2-3", "6-6"], "land": ["1-1", "1-2", "1-3", "2-1", "2-2"],
                        "spirits": [["squirrel", "1-1"]]},
                    p1={"hand": ["4-6"]}, empty_pile=True)
    spirits_left = len(game.spirit_pile)
    assert game.is_over and game.end_reason is EndReason.NORMAL
    assert land(game, 0) == {"1-1", "1-2", "1-3", "2-1", "2-2", "2-3", "6-6"}
    assert hand(game, 0) == []
    assert spirits(game, 0) == {"squirrel": "1-1"}
    assert len(game.spirit_pile) == spirits_left
    s = game.score(0)
    assert s.biggest_section == 6 and s.spirits == 1 and s.bonuses == {"Squirrel": 0}
    assert s.total == 7
    assert game.winner == 0

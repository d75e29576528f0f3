"""rules.md §11: the Evil Spirit in the base game."""

from __future__ import annotations

import pytest

from solstis_tui.core import Decision, Spirit
from solstis_tui.core.board import NAMES
from solstis_tui.core.events import EvilGiven, EvilKept, NoSpirit

from .positions import (
    events,
    hand,
    land,
    line,
    moves,
    other_spirits,
    play,
    position,
    spirits,
)

P1 = {"hand": ["4-6", "4-8", "3-10"]}
SQUARE = ["4-4", "4-5", "5-4"]  # 5-5 completes square 4-4 (capturing 5-7)
ROWS12 = [f"{r}-{c}" for r in (1, 2) for c in range(1, 7)]  # squares 1-1 .. 1-5


def square_turn(**kw):
    """p0 to play 5-5, which captures 5-7 and completes square 4-4."""
    p0 = {"hand": ["5-5", "1-9", "2-10"], "land": SQUARE}
    p0.update(kw.pop("p0", {}))
    return position(p0=p0, p1=kw.pop("p1", P1), display=[["5-7", None]], **kw)


def all_spirits_in_p1_panorama() -> dict:
    """p1's panorama: rows 1-3 with the 14 spirits other than the Evil Spirit on squares."""
    rows = [NAMES[r * 10 + c] for r in range(3) for c in range(10)]
    squares = [f"1-{c}" for c in range(1, 10)] + [f"2-{c}" for c in range(1, 6)]
    placed = [list(x) for x in zip(other_spirits(), squares, strict=True)]
    return {"hand": ["4-6", "4-8"], "land": rows, "spirits": placed}


def test_s11_drawn_evil_is_kept_and_the_other_spirit_hosted():
    game = square_turn(spirit_top=["evil", "frog"])
    play(game, "play 5-5")
    assert spirits(game, 0) == {"frog": "4-4"}
    assert game.evil_player == 0
    assert line(game) == [], "the Evil Spirit never goes to the line"
    assert game.observation(1).evil_player == 0
    assert EvilKept(0) in game.log
    assert game.to_play == 1


@pytest.mark.parametrize("how", ["draw", "take bee"])
def test_s11_holder_gives_it_to_the_opponent_on_the_next_encounter(how):
    """§11: the holder's next encounter, by drawing or by taking from the line."""
    game = square_turn(evil={"player": 0}, spirit_line=["bee"], spirit_top=["frog", "wolf"])
    play(game, "play 5-5", how)
    if how == "draw":
        play(game, "keep frog")
    assert len(spirits(game, 0)) == 1
    assert game.evil_player == 1
    assert EvilGiven(0) in game.log


def test_s11_holder_keeps_it_through_a_turn_without_encounter():
    game = position(p0={"hand": ["3-4", "1-9", "2-10"]}, p1=P1, display=[["3-7", None]],
                    evil={"player": 0})
    play(game, "play 3-4")
    assert land(game, 0) == {"3-4", "3-7"}
    assert game.evil_player == 0


def test_s11_opponent_encounter_does_not_move_it():
    game = square_turn(evil={"player": 1}, spirit_top=["frog", "wolf"])
    play(game, "play 5-5", "keep frog")
    assert game.evil_player == 1


def test_s11_holder_meeting_no_spirit_keeps_it():
    """Convention: with no spirit anywhere nothing is encountered, so nothing passes on."""
    game = square_turn(p0={"hand": ["5-5", "6-6", "6-7"]}, p1=all_spirits_in_p1_panorama(),
                       evil={"player": 0})
    play(game, "play 5-5")
    assert NoSpirit(0) in game.log
    assert game.evil_player == 0


def test_s11_only_the_evil_spirit_drawn_then_take_from_the_line():
    game = square_turn(spirit_pile=["evil"], spirit_line=other_spirits())
    play(game, "play 5-5", "draw")
    assert game.decision is Decision.ENCOUNTER, "the player still meets a spirit"
    assert "draw" not in moves(game) and "take bee" in moves(game)
    play(game, "take bee")
    assert spirits(game, 0) == {"bee": "4-4"}
    assert game.evil_player == 0
    assert len(game.spirit_pile) == 0 and "bee" not in line(game)


def test_s11_only_the_evil_spirit_drawn_and_empty_line_keeps_it_alone():
    game = square_turn(p0={"hand": ["5-5", "6-6", "6-7"]}, p1=all_spirits_in_p1_panorama(),
                       spirit_pile=["evil"])
    play(game, "play 5-5")
    assert spirits(game, 0) == {}
    assert game.evil_player == 0
    assert game.to_play == 1


# ---------------------------------------------------------------------- game end
def end_position(holder: int, holder_spirits: list, **kw):
    """The land pile is empty and nobody can capture: the game ends on load (§8)."""
    panoramas = [{"hand": ["6-6"]}, {"hand": ["6-7"]}]
    panoramas[holder].update({"land": ROWS12, "spirits": holder_spirits})
    for p, extra in kw.pop("players", {}).items():
        panoramas[p].update(extra)
    evil = kw.pop("evil", {"player": holder})
    return position(p0=panoramas[0], p1=panoramas[1], empty_pile=True, evil=evil, **kw)


def test_s11_end_cover_is_chosen_by_the_opponent():
    game = end_position(1, [["bee", "1-1"], ["fish", "1-2"]])
    assert not game.is_over
    assert game.decision is Decision.COVER
    assert game.to_play == 0, "p0 chooses what covers p1's spirit"
    assert sorted(moves(game)) == ["cover bee", "cover fish"]
    play(game, "cover fish")
    assert game.is_over
    s = game.score(1)
    assert s.covered == "Fish"
    assert s.spirits == 1 and s.bonuses == {"Bee": 0}, "a covered plain spirit: no Bee bonus"
    assert s.total == 12 + 1
    assert game.winner == 1


def test_s11_covered_spirit_loses_its_bonus_and_is_not_counted_by_bird():
    game = end_position(0, [["bird", "1-1"], ["frog", "1-2"], ["wolf", "1-3"]],
                        players={0: {"rainbows": ["3-1"]}})
    assert game.to_play == 1 and game.decision is Decision.COVER
    play(game, "cover frog")
    s = game.score(0)
    assert s.bonuses == {"Bird": 1, "Wolf": 1}
    assert s.spirits == 2
    assert game.covered[0] == Spirit.FROG


def test_s11_covered_squirrel_does_nothing():
    """The only spirit is the Squirrel, so the cover is automatic; 2-7 and 5-5 stay in
    hand instead of entering the panorama."""
    game = end_position(0, [["squirrel", "1-1"]], players={0: {"hand": ["2-7", "5-5"]}})
    assert game.is_over
    assert game.covered[0] == Spirit.SQUIRREL
    assert hand(game, 0) == ["2-7", "5-5"]
    assert land(game, 0) == set(ROWS12)
    assert game.score(0).spirits == 0 and game.score(0).bonuses == {}
    assert (1, "cover squirrel", True) in [(p, str(m), a) for p, m, a in game.history]


def test_s11_holder_with_no_spirit_loses_nothing():
    game = end_position(1, [["bee", "1-1"], ["fish", "1-2"]], evil={"player": 0})
    assert game.is_over, "no cover decision: the holder has nothing to cover"
    assert tuple(game.covered) == (-1, -1)
    assert game.score(1).spirits == 2 and game.score(1).bonuses == {"Bee": 1}
    assert not events(game, "cover")

"""rules.md §3 step 2: a capture puts the captured tile into the panorama first, then the
played (or drawn) tile, so a free rainbow displaced by the first may move to the second's
still-empty cell."""

from __future__ import annotations

from solstis_tui.core import Decision
from solstis_tui.core.board import NAMES
from solstis_tui.core.json_codec import event_to_json

from .positions import land, moves, play, position, rainbows

P1 = {"hand": ["4-6", "4-8", "5-4"]}


def _log_from(game, kind: str) -> list[tuple]:
    """The events from the last ``kind`` event on, cells by name."""
    log = game.log
    start = max(i for i, e in enumerate(log) if e.kind == kind)
    return [tuple(NAMES[x] if i >= 2 and isinstance(x, int) else x
                  for i, x in enumerate(event_to_json(e))) for e in log[start:]]


def test_s3_rainbow_displaced_by_the_captured_tile_may_take_the_played_tiles_cell():
    """p0's free rainbow is on 3-7; 3-6 captures 3-7. 3-7 goes in first: the rainbow may
    move to 3-6, still empty; 3-6 then displaces it once more."""
    game = position(p0={"hand": ["3-6", "5-5", "1-1"], "rainbows": ["3-7"]}, p1=P1,
                    display=[["3-7", None]])
    play(game, "play 3-6")
    assert game.decision is Decision.MOVE_RAINBOW
    assert sorted(moves(game)) == sorted(f"shift {c}" for c in ["2-7", "4-7", "3-6", "3-8"])
    play(game, "shift 3-6")
    assert game.decision is Decision.MOVE_RAINBOW, "the played 3-6 now finds the rainbow"
    assert land(game, 0) == {"3-7"}
    assert "shift 3-7" not in moves(game)
    play(game, "shift 2-6")
    assert land(game, 0) == {"3-6", "3-7"} and rainbows(game, 0) == {"2-6"}
    assert _log_from(game, "capture")[:3] == [
        ("capture", 0, "3-6", "3-7"), ("shift", 0, "3-7", "3-6"), ("shift", 0, "3-6", "2-6")]


def test_s3_rainbow_on_the_played_tiles_cell_cannot_go_to_the_captured_cell():
    """The rainbow is on 3-6, the played tile's cell: 3-7 is already in when 3-6 displaces
    it, so 3-7 is no longer a cell for it."""
    game = position(p0={"hand": ["3-6", "5-5", "1-1"], "rainbows": ["3-6"]}, p1=P1,
                    display=[["3-7", None]])
    play(game, "play 3-6")
    assert game.decision is Decision.MOVE_RAINBOW and land(game, 0) == {"3-7"}
    assert sorted(moves(game)) == sorted(
        f"shift {c}" for c in ["2-6", "4-6", "3-5", "2-7", "4-7", "3-8"])


def test_s3_second_chance_drawn_tile_goes_in_after_the_captured_one():
    """5-5 captures nothing; the drawn 3-6 captures 3-7, which lands on the free rainbow:
    the rainbow may move to 3-6, the drawn tile's still-empty cell."""
    game = position(p0={"hand": ["5-5", "1-1", "1-2"], "rainbows": ["3-7"]}, p1=P1,
                    display=[["3-7", None]], pile_top=["3-6"])
    play(game, "play 5-5")  # the capture with 3-6 is the only choice: applied at once
    assert game.decision is Decision.MOVE_RAINBOW
    assert "shift 3-6" in moves(game)
    play(game, "shift 4-7")
    assert land(game, 0) == {"3-6", "3-7"} and rainbows(game, 0) == {"4-7"}
    assert _log_from(game, "second")[:4] == [
        ("second", 0, "3-6"), ("capture", 0, "3-6", "3-7"), ("shift", 0, "3-7", "4-7"),
        ("place", 0, "3-6")]

"""rules.md §10, order within a Firefly encounter: the spirit takes its square, its plain
effect resolves completely, then the fireflies go on the other squares formed this turn
(those its placements formed included), then the Evil Spirit moves."""

from __future__ import annotations

from solstis_tui.core import Decision, Game

from .positions import fireflies, land, moves, play, position, rainbows, removed

# p0 plays 1-2 (capturing 1-9): it completes square 1-1 (free rainbow on 1-1) and square
# 1-2. The Fly goes on 1-2 and brings p1's only tile, 1-1, onto that rainbow. p0 hosts
# the Evil Spirit on 5-5, so p0 moves it once the encounter is over.
P0 = {"hand": ["1-2", "5-4", "5-6"], "land": ["2-1", "2-2", "1-3", "2-3", "3-1"],
      "rainbows": ["1-1"]}
P1 = {"hand": ["1-1"]}


def _fly_on_square_1_2() -> Game:
    game = position(p0=P0, p1=P1, display=[["1-9", None]], options={"firefly": True},
                    evil={"player": 0, "cell": "5-5"}, spirit_top=["fly", "frog"])
    play(game, "play 1-2", "keep fly")  # an empty line: the draw is automatic
    assert sorted(moves(game)) == ["square 1-1", "square 1-2"]
    play(game, "square 1-2")
    return game


def _kinds_from(game: Game, kind: str) -> list[str]:
    log = game.log
    start = max(i for i, e in enumerate(log) if e.kind == kind)
    return [e.kind for e in log[start:]]


def test_s10_fly_tile_displaces_a_rainbow_in_a_square_formed_this_turn():
    """Square 1-1 has no firefly yet when the Fly's 1-1 arrives: its rainbow is free, so
    p0 moves it (it is not blocked and the tile is not removed)."""
    game = _fly_on_square_1_2()
    assert game.decision is Decision.MOVE_RAINBOW and game.to_play == 0
    assert fireflies(game, 0) == set(), "the fireflies come after the effect"
    assert "1-1" not in removed(game)
    play(game, "shift 3-3")
    assert "1-1" in land(game, 0) and rainbows(game, 0) == {"3-3"}


def test_s10_fireflies_follow_the_effect_then_the_evil_spirit_moves():
    """The rainbow moved to 3-2 completes square 2-1 during the effect: it gets a firefly
    too, with 1-1, after the effect; then p0 moves the Evil Spirit."""
    game = _fly_on_square_1_2()
    play(game, "shift 3-2")
    assert fireflies(game, 0) == {"1-1", "2-1"}
    assert game.decision is Decision.EVIL and game.to_play == 0
    play(game, "evil 4-4")
    assert _kinds_from(game, "spirit")[:7] == [
        "spirit", "fly", "draw", "shift", "firefly", "firefly", "evil_placed"]


def test_s10_squares_waiting_for_a_firefly_survive_a_save():
    """Saved while the Fly's tile waits for the rainbow, the game plays on the same."""
    game = _fly_on_square_1_2()
    again = Game.from_json(game.to_json())
    for g in (game, again):
        play(g, "shift 3-2")
    assert fireflies(again, 0) == fireflies(game, 0) == {"1-1", "2-1"}
    assert again.to_json() == game.to_json()


def test_s10_a_save_from_before_this_order_still_loads_and_plays_on():
    """A save made mid-effect by the engine that placed fireflies before the effect has
    no queued step for them: the squares its effect completes get theirs at once."""
    game = position(p0={"hand": ["2-2", "5-5"], "land": ["1-1", "1-2", "2-1", "3-4", "3-5",
                                                         "4-4", "4-5"],
                        "spirits": [["deer", "3-4"]]},
                    p1={"hand": ["6-6", "6-7", "4-8"]}, options={"firefly": True},
                    state={"decision": "deer", "tasks": [["end_turn"], ["refill"]]})
    play(game, "deer 2-2")
    assert fireflies(game, 0) == {"1-1"}
    assert game.decision is Decision.PLAY and game.to_play == 1

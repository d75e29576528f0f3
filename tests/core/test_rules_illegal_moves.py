"""Illegal moves: ``play()`` raises IllegalMove with a reason a player understands and
leaves the game exactly as it was (the public API). One case per kind of message."""

from __future__ import annotations

import pytest

from solstis_tui.core import Decision, IllegalMove

from .positions import moves, play, position

P1 = {"hand": ["4-6", "4-8", "3-10"]}


# ---------------------------------------------------------------------- situations
def at_play():
    return position(p0={"hand": ["3-4", "5-5", "1-1"]}, p1=P1,
                    display=[["3-7", "3-9"], ["5-4", None], ["5-7", None]])


def at_capture():
    game = at_play()
    play(game, "play 3-4")
    assert game.decision is Decision.CAPTURE
    return game


def at_rainbow():
    game = position(p0={"hand": ["2-8", "5-5", "1-1"], "land": ["3-3"]}, p1=P1,
                    display=[["6-5", None]], pile_top=["4-9"])
    play(game, "play 2-8")
    assert game.decision is Decision.PLACE_RAINBOW
    return game


def at_shift():
    game = position(p0={"hand": ["3-4", "5-5", "1-1"], "rainbows": ["3-7"]}, p1=P1,
                    display=[["3-7", None]])
    play(game, "play 3-4")
    assert game.decision is Decision.MOVE_RAINBOW
    return game


SQUARE = ["4-4", "4-5", "5-4"]


def at_encounter(**kw):
    game = position(p0={"hand": ["5-5", "1-9", "2-10"], "land": SQUARE}, p1=P1,
                    display=[["5-7", None]], spirit_line=["frog"],
                    spirit_top=["bee", "wolf"], **kw)
    play(game, "play 5-5")
    assert game.decision is Decision.ENCOUNTER
    return game


def at_take_only():
    game = position(p0={"hand": ["5-5", "1-9", "2-10"], "land": SQUARE}, p1=P1,
                    display=[["5-7", None]], options={"beginner": True}, spirit_pile=[],
                    spirit_line=["frog", "bee", "wolf", "fish", "deer", "eagle", "bear",
                                 "fly", "beetle", "marmot", "ladybug", "squirrel", "bird",
                                 "butterfly"])
    play(game, "play 5-5")
    assert game.decision is Decision.ENCOUNTER
    return game


def at_keep():
    game = at_encounter()
    play(game, "draw")
    assert game.decision is Decision.KEEP
    return game


def at_square():
    game = position(p0={"hand": ["1-2", "6-6", "6-7"], "land": ["1-1", "2-1", "1-3", "2-3"]},
                    p1=P1, display=[["2-2", None]], spirit_top=["frog", "wolf"])
    play(game, "play 1-2", "keep frog")
    assert game.decision is Decision.SQUARE
    return game


def meeting(spirit, other="frog", **kw):
    p1 = kw.pop("p1", P1)
    game = position(p0={"hand": ["5-5", "1-9", "2-10"], "land": SQUARE}, p1=p1,
                    display=[["5-7", None], ["3-9", None], ["6-6", None]],
                    spirit_top=[spirit, other], **kw)
    play(game, "play 5-5", f"keep {spirit}")
    return game


def at_deer():
    game = meeting("deer")
    assert game.decision is Decision.DEER
    return game


def at_beetle():
    game = meeting("beetle")
    assert game.decision is Decision.BEETLE
    return game


def at_viper():
    game = meeting("viper", options={"firefly": True},
                   p1={"hand": ["4-6", "4-8"], "land": ["1-1", "1-2", "4-2", "6-4"]})
    assert game.decision is Decision.VIPER
    return game


def at_renard():
    game = meeting("renard", options={"firefly": True})
    assert game.decision is Decision.RENARD
    return game


def at_evil():
    game = meeting("frog", "wolf", options={"firefly": True}, evil={"player": 0, "cell": "3-3"},
                   p1={"hand": ["4-6", "4-8"], "land": ["4-2"]})
    assert game.decision is Decision.EVIL
    return game


def at_cover():
    game = position(p0={"hand": ["6-6"], "land": ["1-1", "1-2", "1-3", "2-1", "2-2", "2-3"],
                        "spirits": [["bee", "1-1"], ["wolf", "1-2"]]},
                    p1={"hand": ["6-7"]}, empty_pile=True, evil={"player": 0})
    assert game.decision is Decision.COVER
    return game


def at_end_phase():
    return position(p0={"hand": ["3-4", "5-5"]}, p1={"hand": ["1-1", "5-6"]},
                    display=[["3-7", None], ["2-2", None]], empty_pile=True)


def at_forced():
    return position(p0={"hand": ["3-4", "5-5", "1-1"], "must_play": "5-5"}, p1=P1,
                    display=[["3-7", None]], options={"firefly": True})


def at_over():
    game = position(p0={"hand": ["3-4"]}, p1={"hand": ["6-6"]}, display=[["3-7", None]],
                    empty_pile=True)
    play(game, "play 3-4")
    assert game.is_over
    return game


CASES = [
    (at_play, "play 6-6", ["6-6 is not in your hand"]),
    (at_play, "capture 3-7", ["you cannot capture now", "play a tile"]),
    (at_play, "pass", ["you cannot pass now"]),
    (at_forced, "play 3-4", ["Renard forces you to play 5-5"]),
    (at_end_phase, "play 5-5", ["5-5 cannot capture anything", "end phase"]),
    (at_capture, "capture 5-7", ["3-4 cannot capture 5-7", "neither row", "nor column"]),
    (at_capture, "capture 3-9", ["3-9 is not a face-up display tile"]),
    (at_capture, "capture 2-2", ["2-2 is not a face-up display tile"]),
    (at_capture, "play 5-5", ["you cannot play now", "capture"]),
    (at_rainbow, "rainbow 6-6", ["6-6 is not a legal cell", "next to a tile"]),
    (at_rainbow, "rainbow 3-3", ["3-3 is not a legal cell", "empty"]),
    (at_shift, "shift 1-1", ["1-1 is not a legal cell"]),
    (at_encounter, "take bee", ["the Bee is not in the spirit line"]),
    (at_take_only, "draw", ["you cannot draw now"]),
    (at_keep, "keep frog", ["the Frog is not among the drawn spirits"]),
    (at_square, "square 2-1", ["no square with lower-left cell 2-1 was formed this turn"]),
    (at_deer, "deer 6-6", ["6-6 is not in your hand"]),
    (at_beetle, "beetle 1-1", ["1-1 is not a face-up display tile"]),
    (at_viper, "viper 1-1", ["1-1 is not an isolated land tile"]),
    (at_renard, "renard 1-1", ["1-1 is not in your opponent's hand"]),
    (at_evil, "evil 6-6", ["6-6 is not a legal cell"]),
    (at_cover, "cover fish", ["the Fish is not among the holder's spirits"]),
    (at_over, "pass", ["the game is over"]),
    (at_play, "jump 3-4", ["unknown move 'jump'"]),
    (at_play, "play 9-9", ["'9-9' is not a land tile"]),
    (at_play, "play", ["'play' needs a tile"]),
    (at_play, "draw 3-4", ["'draw' takes nothing after it"]),
    (at_play, "", ["an empty move"]),
    (at_encounter, "take dragon", ["'dragon' is not a spirit"]),
]


@pytest.mark.parametrize(("situation", "text", "fragments"), CASES,
                         ids=[f"{s.__name__}:{t or 'empty'}" for s, t, _ in CASES])
def test_illegal_move_names_the_reason_and_changes_nothing(situation, text, fragments):
    game = situation()
    before = game.to_json()
    legal_before = moves(game)
    with pytest.raises(IllegalMove) as info:
        play(game, text)
    for fragment in fragments:
        assert fragment in str(info.value)
    assert game.to_json() == before
    assert moves(game) == legal_before


def test_illegal_non_move_object_is_rejected_without_change():
    game = at_play()
    before = game.to_json()
    with pytest.raises(IllegalMove, match="is not a move"):
        game.play("play 3-4")  # a string, not a Move
    assert game.to_json() == before


def test_illegal_move_is_a_value_error_and_the_game_goes_on():
    game = at_capture()
    with pytest.raises(ValueError):
        play(game, "capture 5-7")
    play(game, "capture 5-4")
    assert game.to_play == 1

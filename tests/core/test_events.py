"""The log's events read as the frozen dataclasses they were: equal by kind and fields,
hashable, printed and pickled as such, unchangeable, and the same in JSON."""

from __future__ import annotations

import pickle
import random

import pytest

from solstis_tui.core import Game, Options, Spirit
from solstis_tui.core.events import (
    EVENT_TYPES,
    Captured,
    Drew,
    EndReason,
    Event,
    Placed,
    Played,
)
from solstis_tui.core.json_codec import event_from_json, event_to_json
from solstis_tui.engine_build import STATUS

#: A value for every field name an event has.
VALUES: dict[str, object] = {
    "player": 1, "number": 7, "end_phase": True, "tile": 23, "target": 34, "cell": 45,
    "why": "blocked", "spirits": (Spirit.BEE, Spirit.FROG), "spirit": Spirit.COW,
    "square": 12, "tiles": (3, 14), "chooser": 0, "holder": 1,
    "reason": EndReason.RESIGNED, "winner": 0,
}


def every_kind() -> list[Event]:
    return [cls(*(VALUES[name] for name in cls.__match_args__))
            for cls in EVENT_TYPES.values()]


def played_log() -> list[Event]:
    game = Game.new(seed=5, options=Options(firefly=True))
    rand = random.Random(5)
    while not game.is_over:
        game.play(rand.choice(game.legal_moves()))
    return game.log


def test_an_event_equals_the_same_kind_with_the_same_fields_and_hashes_alike() -> None:
    for event in every_kind():
        again = type(event)(*(getattr(event, name) for name in event.__match_args__))
        assert again == event and hash(again) == hash(event)
        assert len({event, again}) == 1
    assert Played(0, 5) != Placed(0, 5)
    assert Played(0, 5) != Played(0, 6)
    assert Drew(0, 5).hidden() == Drew(0, None)


def test_an_event_prints_its_kind_and_fields() -> None:
    assert repr(Captured(0, 5, 6)) == "Captured(player=0, tile=5, target=6)"
    assert repr(Drew(1, None)) == "Drew(player=1, tile=None)"


def test_events_survive_pickling_and_json() -> None:
    for event in [*every_kind(), *played_log()]:
        copy = pickle.loads(pickle.dumps(event))
        assert copy == event and type(copy) is type(event)
        assert event_from_json(event_to_json(event)) == event
    assert event_to_json(Captured(0, 5, 6)) == ["capture", 0, 5, 6]


def test_positional_patterns_read_the_fields_in_their_json_order() -> None:
    match Captured(1, 5, 6):
        case Captured(player, tile, target):
            assert (player, tile, target) == (1, 5, 6)
        case _:
            pytest.fail("no match")


@pytest.mark.skipif(not STATUS.compiled, reason="the pure build does not check assignments")
def test_the_compiled_build_refuses_to_change_an_event() -> None:
    event = played_log()[0]
    with pytest.raises(AttributeError):
        event.player = 1  # type: ignore[misc]

"""The words the screens use for each decision: one for the person deciding and one told
of someone else, for every decision the engine can ask."""

from __future__ import annotations

from solstis_tui.core import Decision
from solstis_tui.words.moves import asked


def test_every_decision_is_asked_in_words_of_you_and_of_them() -> None:
    for decision in Decision:
        mine, theirs = asked(decision), asked(decision, of_you=False)
        assert mine and theirs, decision
        assert "your" not in theirs, f"{decision}: {theirs!r} speaks to the watcher"
    assert asked(Decision.PLAY) == "play a tile from your hand"
    assert asked(Decision.PLAY, of_you=False) == "play a tile from their hand"
    assert asked(None) == ""

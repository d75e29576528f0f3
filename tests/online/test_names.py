"""Names a stranger might pick to pass for someone else, or to spill over the screen."""

from __future__ import annotations

import pytest

from solstis_tui.host.names import BadName, normalize_name, without_controls


@pytest.mark.parametrize("raw", ["You", "you", " YOU ", "Minimax", "MCTS", "Expert", "Bot"])
def test_names_the_program_gives_cannot_be_taken(raw):
    with pytest.raises(BadName, match="the program uses itself"):
        normalize_name(raw)


@pytest.mark.parametrize("raw", ["\u0301\u0301abc", "e\u0301\u0302\u0303\u0304x"])
def test_stacked_or_leading_accents_are_refused(raw):
    with pytest.raises(BadName, match="accents"):
        normalize_name(raw)


@pytest.mark.parametrize("raw", ["Zoë", "Élodie", "Nguyễn", "Youssef", "Botan"])
def test_ordinary_names_with_accents_or_near_reserved_words_are_kept(raw):
    assert normalize_name(raw) == raw


def test_bidirectional_controls_from_the_wire_never_reach_the_screen():
    said = without_controls({"name": "x\u202eevil", "rows": ["\u2066a\u2069", "\x1b[2J"]})
    assert said == {"name": "x\ufffdevil", "rows": ["\ufffda\ufffd", "\ufffd[2J"]}

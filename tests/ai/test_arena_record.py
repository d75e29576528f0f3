"""An arena record read back from a file is data: a settings line nested deep or naming
thousands of bots, and numbers of thousands of digits, are refused with a ValueError
saying what is wrong, never another exception; the bots' specs it names are never made."""

from __future__ import annotations

import json

import pytest

from solstis_tui.ai import arena_record

GAMES = "pair,deal,first,winner,score0,score1,end\n0,0,0,0,52,40,normal\n"


def record(settings: str, games: str = GAMES) -> str:
    return f"{arena_record.MAGIC}\n# {settings}\n{games}"


def test_a_record_reads_back_its_games() -> None:
    settings, games = arena_record.loads(record(json.dumps({"bots": ["mcts", "greedy"]})))
    assert settings["bots"] == ["mcts", "greedy"]
    assert games[0]["bots"] == ["mcts", "greedy"] and games[0]["scores"] == [52, 40]


@pytest.mark.parametrize("text", [
    pytest.param(record("[" * 100_000), id="settings nested 100,000 deep"),
    pytest.param(record(json.dumps({"bots": [str(i) for i in range(1_000)]})),
                 id="1,000 bots"),
    pytest.param(record(json.dumps({"bots": [1, 2]})), id="bots that are not specs"),
    pytest.param(record(json.dumps({"bots": ["a", "b"]}),
                        GAMES.replace("0,0,0,0,52", "0," + "9" * 5000 + ",0,0,52")),
                 id="a deal of 5000 digits"),
])
def test_a_damaged_arena_record_is_refused_with_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="malformed"):
        arena_record.loads(text)

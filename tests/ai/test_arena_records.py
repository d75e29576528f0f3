"""``solstis arena --records DIR``: one record a game, in every variant, each of which
loads, replays in the engine and ends with the scores the arena reported for it.
(benchmarks/records_roundtrip.py does the same for 1,000 games.)"""

from __future__ import annotations

import json

import pytest

from solstis_tui.ai import arena
from solstis_tui.records import read


@pytest.mark.parametrize("variant", ["base", "beginner", "firefly"])
def test_every_arena_game_gets_a_record_that_replays_to_its_scores(tmp_path, variant):
    folder = tmp_path / "records"
    figures = tmp_path / "arena.json"
    assert arena.main(["--bots", "random,greedy", "--games", "8", "--variant", variant,
                       "--records", str(folder), "--json", str(figures)]) == 0
    games = json.loads(figures.read_text())["games"]
    assert len(games) == 8 == len(list(folder.iterdir()))
    for game in games:
        record = read(folder / (f"{variant}-{game['game_seed']}-{game['bots'][0]}-vs-"
                                f"{game['bots'][1]}.solstis"))
        assert [s.kind for s in record.seats] == game["bots"]
        assert list(record.scores) == game["scores"] and record.winner == game["winner"]
        assert record.variant == variant and record.end.value == game["end"]


def test_records_is_refused_when_its_folder_cannot_be_made(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(SystemExit):
        arena.main(["--bots", "random,greedy", "--games", "2",
                    "--records", str(blocker / "records")])
    assert "--records" in capsys.readouterr().err and blocker.read_text() == ""

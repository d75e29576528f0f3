"""benchmarks/bot_strength.py goes on from an interrupted run instead of starting over."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from .test_arena import count_games, interrupt_at_game

# benchmarks/ is a folder of scripts, not a package: its scripts import one another so.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bot_strength


def test_resume_plays_only_what_the_interrupted_run_did_not(tmp_path, monkeypatch) -> None:
    flags = ["--pairs", "greedy-random", "--games", "6", "--seed", "3"]
    part, full = tmp_path / "part.json", tmp_path / "full.json"
    interrupt_at_game(monkeypatch, 4)
    assert bot_strength.main([*flags, "--json", str(part)]) == 130
    finished = json.loads(part.read_text())["pairs"][0]["games"]
    assert len(finished) == 3
    monkeypatch.undo()
    started = count_games(monkeypatch)
    assert bot_strength.main([*flags, "--resume", str(part), "--json", str(full)]) == 0
    row = json.loads(full.read_text())["pairs"][0]
    assert len(started) == 3
    assert row["completed"] == 6 and not row["interrupted"]
    assert all(game in row["games"] for game in finished)


def test_resume_refuses_another_seed_or_file(tmp_path, monkeypatch) -> None:
    earlier = tmp_path / "earlier.json"
    assert bot_strength.main(["--pairs", "greedy-random", "--games", "2", "--seed", "3",
                              "--json", str(earlier)]) == 0
    started = count_games(monkeypatch)
    with pytest.raises(SystemExit, match="played with --seed 3, not 4"):
        bot_strength.main(["--pairs", "greedy-random", "--seed", "4", "--resume", str(earlier)])
    (tmp_path / "arena.json").write_text('{"games": []}')
    with pytest.raises(SystemExit, match=r"not a bot_strength\.py --json file"):
        bot_strength.main(["--pairs", "greedy-random", "--resume", str(tmp_path / "arena.json")])
    assert started == []


def test_resuming_into_the_same_file_keeps_the_pairs_not_yet_replayed(tmp_path,
                                                                       monkeypatch) -> None:
    """Two finished pairs given more games in the same file, interrupted during the first:
    the second pair's games are still in the file, ready for the next --resume."""
    both = ["--pairs", "greedy-random,mcts-random", "--calibrated", "2,5", "--seed", "3"]
    figures = tmp_path / "figures.json"
    assert bot_strength.main([*both, "--games", "2", "--json", str(figures)]) == 0
    interrupt_at_game(monkeypatch, 2)
    assert bot_strength.main([*both, "--games", "4", "--resume", str(figures),
                              "--json", str(figures)]) == 130
    pairs = {p["id"]: p for p in json.loads(figures.read_text())["pairs"]}
    assert len(pairs["greedy-random"]["games"]) == 3
    assert len(pairs["mcts-random"]["games"]) == 2


def test_resume_refuses_malformed_games_and_other_ladder_flags(tmp_path, monkeypatch) -> None:
    earlier = tmp_path / "earlier.json"
    assert bot_strength.main(["--pairs", "greedy-random", "--games", "2", "--seed", "3",
                              "--json", str(earlier)]) == 0
    started = count_games(monkeypatch)
    with pytest.raises(SystemExit, match=r"played with --time 0\.25, not 0\.5"):
        bot_strength.main(["--pairs", "greedy-random", "--seed", "3", "--time", "0.5",
                           "--resume", str(earlier)])
    data = json.loads(earlier.read_text())
    del data["pairs"][0]["games"][1]["scores"]
    earlier.write_text(json.dumps(data))
    with pytest.raises(SystemExit, match="game 2 of its list has no scores"):
        bot_strength.main(["--pairs", "greedy-random", "--seed", "3", "--resume", str(earlier)])
    assert started == []


def test_resume_will_not_write_over_games_it_leaves_out(tmp_path, monkeypatch) -> None:
    figures = tmp_path / "figures.json"
    assert bot_strength.main(["--pairs", "greedy-random", "--games", "4", "--seed", "3",
                              "--json", str(figures)]) == 0
    before = figures.read_text()
    started = count_games(monkeypatch)
    with pytest.raises(SystemExit, match="2 of its games are not part of this run"):
        bot_strength.main(["--pairs", "greedy-random", "--games", "2", "--seed", "3",
                           "--resume", str(figures), "--json", str(figures)])
    assert started == [] and figures.read_text() == before

"""benchmarks/search_speed.py --split times the very search plain ISMCTS makes."""

from __future__ import annotations

import sys
from pathlib import Path

from solstis_tui.ai.base import Budget
from solstis_tui.ai.baselines import PlainISMCTS
from solstis_tui.ai.search import RandomToEnd, RandomUCB, edge_key

from .conftest import positions

# benchmarks/ is a folder of scripts, not a package: its scripts import one another so.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import search_speed


def test_the_timed_search_visits_the_moves_plain_ismcts_visits() -> None:
    for g in positions("base", 3, seed=21):
        obs = g.observation(g.to_play)
        timed = search_speed.plain_search(obs, 5, search_speed.TimedTree(RandomUCB()),
                                          search_speed.TimedEvaluator(RandomToEnd()), 80)
        visits = {mv: timed.root.children[edge_key(obs.player, mv)].n
                  for mv in obs.legal_moves if edge_key(obs.player, mv) in timed.root.children}
        plain = PlainISMCTS(5).visits(obs, Budget(iterations=80))
        assert visits == {mv: n for mv, n in plain.items() if n}


def test_the_split_counts_time_in_each_part() -> None:
    observations = [g.observation(g.to_play) for g in positions("base", 2, seed=21)]
    split = search_speed.plain_split(observations, 40)
    assert list(split) == ["random playouts", "tree", "dealing and the rest"]
    assert all(seconds > 0 for seconds in split.values())

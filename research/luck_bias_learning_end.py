"""benchmarks/luck_bias.py with the judge as it was before the luck's end stopped teaching
the tree (``judge_tree.detach`` a no-op: the end's iterations update the tree's statistics), for a
comparison on the same seeds. Takes luck_bias.py's arguments."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solstis_tui.ai import judge_tree


def keep_learning(root: object, path: object) -> None:
    """The end's path stays the tree's own, so its results go into the tree."""


judge_tree.detach = keep_learning  # type: ignore[assignment]
sys.argv[0] = str(Path(__file__).resolve().parents[1] / "benchmarks" / "luck_bias.py")
runpy.run_path(sys.argv[0], run_name="__main__")

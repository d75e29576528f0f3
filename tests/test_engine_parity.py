"""The compiled build and the pure-Python build play identical games and make identical bot
decisions (tests/parity_probe.py says what is compared)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = Path(__file__).with_name("parity_probe.py")
#: Seeded random games per variant. 100 already reach every line, every branch and every
#: (variant, event kind) of solstis_tui/core that 1,000 reach (measured with coverage.py on
#: the pure build); twice that for a margin.
GAMES = 200


def start(pure: bool) -> subprocess.Popen[str]:
    env = {**os.environ, "SOLSTIS_PURE": "1" if pure else "0"}
    return subprocess.Popen([sys.executable, str(PROBE), str(GAMES)], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(run: subprocess.Popen[str]) -> dict[str, str]:
    out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    found: dict[str, str] = json.loads(out)
    return found


def test_both_builds_play_the_same_games_and_the_bots_decide_alike() -> None:
    pure_run, compiled_run = start(pure=True), start(pure=False)  # side by side
    pure, compiled = finish(pure_run), finish(compiled_run)
    if not compiled["engine"].startswith("compiled"):
        pytest.skip(f"no compiled build to compare with: {compiled['engine']}")
    assert pure["engine"].startswith("pure-Python")
    differ = [part for part in pure if part != "engine" and pure[part] != compiled[part]]
    assert differ == [], f"the builds differ in {differ}"
    assert {part.partition("/")[0] for part in pure} == {"engine", "games", "bots"}

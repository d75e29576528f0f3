"""A ``solstis`` command killed with ``kill -9`` while its worker processes run leaves no
process behind: ``solstis analyze --workers 2`` and ``solstis review`` while the judge
works, the app playing against the expert (its bot process and the expert's search
workers), and ``solstis arena --jobs 2`` with the expert (its game workers and their
search workers). On an SSH front end, where each player's review runs, a process left
behind would hold its memory until someone noticed. None of them starts multiprocessing's
resource tracker either (one more process that outlived its parent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from solstis_tui.ai.expert import usable_cores
from tests.process_tree import HAS_PROC, Scenario, kill_when_busy, scenarios

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="reads the process tree from /proc")

CASES = scenarios(usable_cores())


@pytest.mark.parametrize("scenario", CASES, ids=[case.name for case in CASES])
def test_killing_a_busy_command_leaves_no_process(tmp_path: Path, scenario: Scenario) -> None:
    killed = kill_when_busy(scenario, tmp_path)
    assert len(killed.workers) >= scenario.workers
    assert killed.gone_after is not None, (
        f"processes {killed.left} outlived the killed {scenario.name}")
    trackers = [pid for pid, line in killed.commands.items() if b"resource_tracker" in line]
    assert not trackers, f"{scenario.name} started a resource tracker"

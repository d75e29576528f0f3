"""How long a ``solstis`` command's worker processes outlive it after ``kill -9``.

    .venv/bin/python benchmarks/kill_cleanup.py --tries 3

Each scenario of ``tests/process_tree.py`` (``solstis analyze --workers 2``, ``solstis
review`` while it judges, the app against the expert, ``solstis arena --jobs 2`` with the
expert) is started ``--tries`` times and killed with SIGKILL at two moments: as soon as its
workers exist ("at start": they may still be starting, before they ask the kernel for the
parent-death signal) and once they run ("busy": past their start, computing). The figure
is the time from the kill to the moment the last process that was under the command has
ended (a zombie waiting for its reaper counts as ended: it holds no memory); the target
is under a second. Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests/process_tree.py is shared with the tests

from solstis_tui import engine_build  # noqa: E402
from solstis_tui.ai.expert import usable_cores  # noqa: E402
from tests.process_tree import HAS_PROC, kill_when_busy, scenarios  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tries", type=int, default=3, help="kills per scenario and moment")
    parser.add_argument("--only", help="run only the scenarios whose name has this text")
    args = parser.parse_args()
    if not HAS_PROC:
        print("kill_cleanup reads the process tree from /proc (Linux)")
        return 2
    console = Console()
    console.print(f"Engine: {engine_build.STATUS.line}; {usable_cores()} usable cores",
                  highlight=False)
    table = Table(title="ms from kill -9 to the last process gone")
    for col in ("command", "kill", "processes", "each try (ms)", "max (ms)"):
        table.add_column(col, justify="left" if col in ("command", "kill") else "right")
    for scenario in scenarios(usable_cores()):
        if args.only and args.only not in scenario.name:
            continue
        for moment, at_once in (("at start", True), ("busy", False)):
            times, counts, left = [], set(), []
            for _ in range(args.tries):
                with tempfile.TemporaryDirectory() as folder:
                    killed = kill_when_busy(scenario, Path(folder), at_once=at_once)
                counts.add(len(killed.processes))
                if killed.gone_after is None:
                    left.extend(killed.left)
                else:
                    times.append(1000 * killed.gone_after)
            shown = ", ".join(f"{t:.0f}" for t in times) + (
                f" (+{len(left)} left after 120 s)" if left else "")
            table.add_row(scenario.name, moment, "/".join(map(str, sorted(counts))), shown,
                          f"{max(times):.0f}" if times else "-")
            console.print(f"{scenario.name}, {moment}: {shown}", highlight=False)
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())

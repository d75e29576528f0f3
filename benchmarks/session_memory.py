"""Memory of SSH sessions: what each ``solstis online`` process holds, with many at once.

Run: python benchmarks/session_memory.py [--pairs 5]

A host runs on a Unix socket; ``--pairs`` pairs of ``solstis online`` sessions start in
pseudo-terminals (80x24), as sshd's forced command starts them: each types a name; the first
of a pair opens a friend table, the second joins it, and both wait at the board. Then, for
every session process, from /proc: the resident size (VmRSS), its peak (VmHWM), and the
proportional set size (Pss, smaps_rollup: shared pages divided among the processes sharing
them), which is what each further session costs a machine running many. Printed: median and
largest of each, and the machine's sessions per GiB by Pss and by RSS.

Prints figures; asserts nothing. Linux only (pty, /proc).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from app_startup import Term


def kib(pid: int, path: str, field: str) -> int:
    for line in Path(f"/proc/{pid}/{path}").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise ValueError(f"{field} not in /proc/{pid}/{path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sock = Path(tmp) / "host.sock"
        host = subprocess.Popen([sys.executable, "-m", "solstis_tui.cli", "host", "--socket",
                                 str(sock), "--data", str(Path(tmp) / "data")],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        sessions: list[Term] = []
        try:
            assert host.stdout is not None
            while b"listening" not in host.stdout.readline():
                pass
            for i in range(args.pairs):
                first, second = (Term(["online", "--socket", str(sock)]) for _ in "ab")
                sessions += [first, second]
                for term, name in ((first, f"Ann{i}"), (second, f"Bob{i}")):
                    term.wait_for(b"Your name", 60)
                    term.send(name.encode() + b"\r")
                    term.wait_for(b"resume code", 60)
                first.send(b"c")
                first.wait_for(b"New table", 60)
                first.send(b"s\r")  # a friend table, the first to play
                first.wait_for(b"Your decision", 60)
                second.send(b"r")  # the lobby shows new tables when refreshed
                second.wait_for(b"open", 60)
                second.send(b"\r")
                second.wait_for(b"Display", 60)  # the board
            figures = {"VmRSS": [kib(t.pid, "status", "VmRSS") for t in sessions],
                       "VmHWM": [kib(t.pid, "status", "VmHWM") for t in sessions],
                       "Pss": [kib(t.pid, "smaps_rollup", "Pss") for t in sessions]}
        finally:
            for term in sessions:
                term.close()
            host.terminate()
            host.wait(timeout=30)
    print(f"{len(sessions)} sessions at the board, each a `solstis online` process:")
    for field, values in figures.items():
        print(f"  {field:5s}: median {statistics.median(values) / 1024:.1f} MB, largest "
              f"{max(values) / 1024:.1f} MB")
    for field in ("Pss", "VmRSS"):
        print(f"  sessions per GiB by {field}: "
              f"{1024 * 1024 / statistics.median(figures[field]):.0f}")


if __name__ == "__main__":
    main()

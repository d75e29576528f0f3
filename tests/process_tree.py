"""Start a real ``solstis`` command, wait until its worker processes run, kill it with
SIGKILL, and watch its processes go: for the tests that say nothing outlives a killed
command, and ``benchmarks/kill_cleanup.py``, which times it.

The process tree is read from /proc (ppid of each process), so this runs on Linux only.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HAS_PROC = Path("/proc/self/stat").exists()

BOUND = 120.0
"""A guard against a hung test (seconds), never the expectation."""


def parents() -> dict[int, list[int]]:
    """Parent pid -> its children's pids, for every process now."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rpartition(")")[2].split()[1])
        tree.setdefault(ppid, []).append(int(entry.name))
    return tree


def descendants(pid: int) -> list[int]:
    """Every process under ``pid``, at any depth."""
    tree, found, todo = parents(), [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def workers_of(pid: int) -> list[int]:
    """The worker processes under ``pid`` (at any depth): ``ai/workers.py``'s, and
    multiprocessing's (the host's bot pool), not its resource tracker."""
    return [child for child in descendants(pid)
            if any(mark in command_line(child)
                   for mark in (b"solstis_tui.ai.worker_process import boot", b"spawn_main"))]


def threads(pid: int) -> int:
    """How many threads the process runs (0 once it is gone)."""
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


def cpu_seconds(pid: int) -> float:
    """The CPU time the process has used (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def booted(pid: int) -> bool:
    """A worker past its start: it watches its parent from a thread of its own (which it
    starts once the kernel's parent-death signal is asked for), or (a worker of another
    kind) it has computed for two seconds."""
    return threads(pid) >= 2 or cpu_seconds(pid) >= 2.0


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def solstis(*args: str) -> list[str]:
    """The ``solstis`` command of this interpreter's environment, with ``args``."""
    script = Path(sys.executable).parent / "solstis"
    if script.exists():
        return [str(script), *args]
    return [sys.executable, "-m", "solstis_tui.cli", *args]


def write_record(folder: Path) -> Path:
    """A finished game's record file in ``folder`` (greedy against random)."""
    from solstis_tui import records
    from tests.review_game import finished_record

    path = folder / f"game{records.SUFFIX}"
    path.write_text(records.dumps(finished_record()), encoding="utf-8")
    return path


@dataclass
class Scenario:
    """A command to kill: its arguments (given the folder to work in), whether it needs a
    terminal, and how many worker processes it has once it is busy."""

    name: str
    args: Callable[[Path], list[str]]
    workers: int
    terminal: bool = False


@dataclass
class Killed:
    """What one kill left: the processes under the command just before, and how long
    after the kill the last of them was gone (None: some outlived ``BOUND``)."""

    processes: list[int]
    workers: list[int]
    gone_after: float | None
    left: list[int] = field(default_factory=list)
    commands: dict[int, bytes] = field(default_factory=dict)
    """Each process's command line, read before the kill."""


def _drain(fd: int) -> None:
    """Read a terminal's output until it closes, so the app never waits to write."""
    with contextlib.suppress(OSError):
        while os.read(fd, 65536):
            pass


def _start(scenario: Scenario, folder: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SOLSTIS_DATA_DIR": str(folder / "data"), "HOME": str(folder),
           "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    args = scenario.args(folder)
    if not scenario.terminal:
        return subprocess.Popen(args, cwd=folder, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ours, theirs = pty.openpty()
    fcntl.ioctl(theirs, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    try:
        process = subprocess.Popen(args, cwd=folder, env=env, stdin=theirs, stdout=theirs,
                                   stderr=theirs, start_new_session=True)
    finally:
        os.close(theirs)
    threading.Thread(target=_drain, args=(ours,), daemon=True).start()
    return process


def kill_when_busy(scenario: Scenario, folder: Path, poll: float = 0.001,
                   at_once: bool = False) -> Killed:
    """Start the scenario's command, wait (up to ``BOUND``) until its workers run (past
    their start; or, ``at_once``, as soon as they exist), kill it with SIGKILL and wait
    (up to ``BOUND``) until every process that was under it is gone. AssertionError if
    the workers never came or the command ended first."""
    process = _start(scenario, folder)
    try:
        deadline = time.monotonic() + BOUND
        while True:
            workers = workers_of(process.pid)
            if len(workers) >= scenario.workers and (
                    at_once or all(booted(pid) for pid in workers)):
                break
            assert process.poll() is None, f"{scenario.name} ended by itself"
            assert time.monotonic() < deadline, f"{scenario.name}: its workers never came"
            time.sleep(0.01 if at_once else 0.05)
        everyone = descendants(process.pid)
        commands = {pid: command_line(pid) for pid in everyone}
        process.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        process.wait()
        deadline = killed + BOUND
        while left := [pid for pid in everyone if alive(pid)]:
            if time.monotonic() > deadline:
                for pid in left:  # clean up after a failure
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                return Killed(everyone, workers, None, left, commands)
            time.sleep(poll)
        return Killed(everyone, workers, time.monotonic() - killed, [], commands)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def scenarios(cores: int) -> list[Scenario]:
    """The commands whose children must die with them, on a machine with ``cores``
    usable cores. The bots think for ten minutes a decision, so that a worker left
    behind would still be searching when the test gives up on it."""
    return [
        Scenario("analyze --workers 2",
                 lambda d: solstis("analyze", "--workers", "2", str(write_record(d))), 2),
        Scenario("review (judging)", lambda d: solstis("review", str(write_record(d))),
                 max(2, cores), terminal=True),
        # The app's bot process, and the expert's search workers inside it.
        Scenario("app against the expert",
                 lambda d: solstis("--opponent", "expert@600s", "--first", "bot",
                                   "--seed", "3"),
                 1 + (cores - 1), terminal=True),
        # Two arena workers, each with the expert's search worker(s) inside it.
        Scenario("arena --jobs 2 (expert)",
                 lambda d: solstis("arena", "--bots", "expert,greedy", "--games", "2",
                                   "--jobs", "2", "--time", "600"),
                 2 * cores),
    ]

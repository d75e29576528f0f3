"""Figures for the application, measured in a real pseudo-terminal (80x24).

- start to first frame: from launching ``solstis`` to the board appearing (median of N);
- key latency while a bot searches: 'v' (open the log) pressed while the MCTS bot thinks,
  time until the log screen is on the terminal (p50 / p95);
- memory: peak resident size (VmHWM) of the app while two MCTS bots play (watch mode).

Run: ``.venv/bin/python benchmarks/app_startup.py [--runs 5] [--keys 20]``. Prints figures;
asserts nothing. Linux only (uses /proc and pty).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLSTIS = [sys.executable, "-m", "solstis_tui.cli"]


class Term:
    """The app running in a pseudo-terminal, with its output collected."""

    def __init__(self, args: list[str], cols: int = 80, rows: int = 24) -> None:
        env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows),
                   SOLSTIS_DATA_DIR=tempfile.mkdtemp(prefix="solstis-bench-"))
        self.started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # child
            os.chdir(ROOT)
            os.execve(sys.executable, SOLSTIS[:1] + SOLSTIS[1:] + args, env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.buffer = b""

    def wait_for(self, text: bytes, timeout: float = 20.0) -> float:
        """Seconds until ``text`` shows up in output not yet consumed; consumes it."""
        start = time.perf_counter()
        while True:
            idx = self.buffer.find(text)
            if idx >= 0:
                self.buffer = self.buffer[idx + len(text):]
                return time.perf_counter() - start
            left = timeout - (time.perf_counter() - start)
            if left <= 0:
                raise TimeoutError(f"{text!r} never appeared")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    raise TimeoutError("the app closed") from None
                self.buffer += chunk

    def drain(self, seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, end - time.perf_counter()))
            if ready:
                try:
                    self.buffer += os.read(self.fd, 65536)
                except OSError:
                    return
        self.buffer = b""

    def send(self, data: bytes) -> None:
        self.buffer = b""
        os.write(self.fd, data)

    def peak_rss_mb(self) -> float:
        status = Path(f"/proc/{self.pid}/status").read_text()
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def close(self) -> None:
        try:
            os.write(self.fd, b"q")
            deadline = time.perf_counter() + 3
            while time.perf_counter() < deadline:
                done, _ = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    break
                self.drain(0.05)
            else:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
        except (OSError, ChildProcessError):
            pass
        os.close(self.fd)


def first_frame(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        term = Term(["--seed", "3", "--opponent", "random", "--first", "you"])
        term.wait_for(b"Display")
        times.append(time.perf_counter() - term.started)
        term.close()
    return times


def key_latency(presses: int, key: bytes, shows: bytes, undo: bytes,
                opponent: str = "mcts") -> list[float]:
    """Seconds from pressing ``key`` (while two ``opponent`` bots play, so one is always
    searching) to ``shows`` on screen."""
    term = Term(["--seed", "3", "--opponent", opponent, "--watch", "--pace", "0"])
    return _press(term, presses, key, shows, undo)


def key_latency_while_thinking(presses: int, key: bytes, shows: bytes, undo: bytes,
                               tier: str = "expert") -> list[float]:
    """Seconds from pressing ``key`` to ``shows`` on screen while ``tier`` thinks about its
    first move (given 60 s for it, so it thinks through every press) and nothing else
    happens on the board."""
    term = Term(["--seed", "3", "--opponent", f"{tier}@60s", "--first", "bot"])
    return _press(term, presses, key, shows, undo)


def _press(term: Term, presses: int, key: bytes, shows: bytes, undo: bytes) -> list[float]:
    term.wait_for(b"Display")
    term.drain(1.0)
    times = []
    for _ in range(presses):
        term.send(key)
        times.append(term.wait_for(shows))
        term.drain(0.15)
        term.send(undo)
        term.drain(0.35)
    term.close()
    return times


def _report(label: str, lat: list[float]) -> None:
    lat = sorted(lat)
    p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))]
    print(f"{label}: p50 {statistics.median(lat) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
          f"max {lat[-1] * 1000:.0f} ms (n={len(lat)})")


def memory(seconds: float) -> float:
    term = Term(["--seed", "3", "--opponent", "mcts", "--watch", "--pace", "0"])
    term.wait_for(b"Display")
    term.drain(seconds)
    peak = term.peak_rss_mb()
    term.close()
    return peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="start-ups to time")
    parser.add_argument("--keys", type=int, default=20, help="key presses to time")
    parser.add_argument("--memory-seconds", type=float, default=15.0)
    args = parser.parse_args(argv)
    frames = first_frame(args.runs)
    print(f"start to first frame: median {statistics.median(frames) * 1000:.0f} ms "
          f"(min {min(frames) * 1000:.0f}, max {max(frames) * 1000:.0f}, n={len(frames)})")
    _report("key 'p' (pause) while MCTS searches -> on screen",
            key_latency(args.keys, b"p", b"PAUSED", b"p"))
    _report("key 'v' (open the log screen) while MCTS searches -> on screen",
            key_latency(args.keys, b"v", b"Game log", b"\x1b"))
    peak = memory(args.memory_seconds)
    print(f"peak memory while two MCTS bots play for {args.memory_seconds:.0f} s: "
          f"{peak:.0f} MB (VmHWM)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

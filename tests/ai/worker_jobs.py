"""Jobs for the worker tests (module-level, so that a worker process can find them)."""

from __future__ import annotations

import os
import time

from solstis_tui.ai.base import Cancelled
from solstis_tui.ai.workers import cancel_signal


def square(x: int) -> int:
    return x * x


def refuse(x: int) -> int:
    raise ValueError(f"{x} is not welcome")


def pid() -> int:
    return os.getpid()


def until_cancelled(bound: float = 120.0) -> str:
    """Loop until the job is cancelled (or ``bound`` seconds pass, a guard)."""
    signal, end = cancel_signal(), time.monotonic() + bound
    while time.monotonic() < end:
        if signal.is_set():
            raise Cancelled
        time.sleep(0.001)
    return "never cancelled"


def sleep(seconds: float) -> str:
    time.sleep(seconds)
    return "slept"


def slow_square(x: int) -> int:
    """Later items come back first."""
    time.sleep(0.05 * (5 - x) if x < 5 else 0)
    return x * x


def refuse_or_sleep(x: int) -> str:
    """Sleep ``x`` seconds if ``x`` is large, else refuse it."""
    if x > 10:
        return sleep(x)
    raise ValueError(f"{x} is not welcome")

"""Worker processes die with their parent, however the parent ends (a kill -9 included).

A worker asks for this first thing. On Linux the kernel sends it SIGKILL when its parent
goes (``PR_SET_PDEATHSIG`` through ``prctl``, ``kernel_signal``): nothing in the worker
has to run, so a search holding the interpreter cannot delay it. The kernel ties that
signal to the *thread* that started the worker, so a parent starts its workers from a
thread that lives as long as it does (``on_lasting_thread``). Everywhere, a watch thread
also waits on a pipe to the parent, which reads as closed once the parent is gone, and
ends the worker then (``watch``). ``workers.py`` starts its processes this way; the host's
fleet gateway asks for the signal itself (``kernel_signal``).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import os
import signal
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import wait
from typing import TypeVar

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

T = TypeVar("T")

_starter: concurrent.futures.ThreadPoolExecutor | None = None
_starter_lock = threading.Lock()


def on_lasting_thread(call: Callable[[], T]) -> T:
    """``call()`` (which starts a process) on the main thread, or on one long-lived thread
    when called elsewhere: a worker's parent-death signal then fires when the parent
    process ends, not when a short-lived thread that happened to start it does."""
    global _starter
    if threading.current_thread() is threading.main_thread():
        return call()
    with _starter_lock:
        if _starter is None:
            _starter = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="solstis-starter")
    return _starter.submit(call).result()


def kernel_signal() -> None:
    """Ask the kernel (Linux) to kill this process when the thread that started it ends."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def watch(sentinel: int) -> None:
    """End this process (at once, running nothing more) when ``sentinel`` (a descriptor
    or a Connection to the parent) reads as ready: the parent has closed it or died."""

    def wait_for_it() -> None:
        wait([sentinel])
        os._exit(1)

    threading.Thread(target=wait_for_it, name="solstis-parent-watch", daemon=True).start()

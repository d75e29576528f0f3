"""Worker processes die with their parent, however the parent ends (a kill -9 included).

A worker calls ``die_with_parent()`` first thing. On Linux the kernel sends it SIGKILL when
its parent goes (``PR_SET_PDEATHSIG`` through ``prctl``): nothing in the worker has to
run, so a search holding the interpreter cannot delay it. The kernel ties that signal to
the *thread* that started the worker, so a parent starts its workers from a thread that
lives as long as it does (``start``). Everywhere, a watch thread also waits on the pipe
multiprocessing keeps to the parent (``parent_process().sentinel``), which reads as closed
once the parent is gone, and ends the worker then.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import os
import signal
import sys
import threading
from multiprocessing import parent_process
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

_starter: concurrent.futures.ThreadPoolExecutor | None = None
_starter_lock = threading.Lock()


def start(process: BaseProcess) -> None:
    """``process.start()`` from the main thread, or from one long-lived thread when called
    elsewhere: a worker's parent-death signal then fires when the parent process ends, not
    when a short-lived thread that happened to start it does."""
    global _starter
    if threading.current_thread() is threading.main_thread():
        process.start()
        return
    with _starter_lock:
        if _starter is None:
            _starter = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="solstis-starter")
    _starter.submit(process.start).result()


def die_with_parent(kernel: bool = True) -> None:
    """Make this worker process end when its parent does. ``kernel`` False skips the
    parent-death signal (for a worker a short-lived thread may have started)."""
    parent = parent_process()
    if parent is None:
        return
    if kernel and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent.pid is not None and os.getppid() != parent.pid:
        os._exit(1)  # the parent died before the signal was asked for
    sentinel = parent.sentinel
    if sentinel is None:
        return

    def watch() -> None:
        wait([sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="solstis-parent-watch", daemon=True).start()

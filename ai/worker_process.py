"""What runs inside a worker process of ``workers.py``: its start (``BOOT``, then
``boot``), its loop of jobs, and the cancel signal a job reads (``cancel_signal``).

The cancel signal is a number in one page of memory the worker and its parent share (a
file in memory with no name, passed by descriptor): every job up to it is cancelled.
"""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import os
import tempfile
from multiprocessing import process, spawn
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from typing import Any, Final

from .clock import Cancelled
from .lifeline import watch

#: What a new worker's interpreter runs: the parent-death signal and the check that the
#: parent is still there come before anything else (the imports below take a while).
BOOT: Final = """\
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
if sys.platform.startswith("linux"):
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)
    except Exception:
        pass
if os.getppid() != {parent}:
    os._exit(1)
sys.path[:0] = {path!r}
from solstis_tui.ai.worker_process import boot
boot({conn}, {watch}, {mark}, {ended})
"""


class Mark:
    """A number in one page of memory that a worker and its parent share (by descriptor):
    every job up to it is cancelled."""

    def __init__(self, fd: int | None = None) -> None:
        if fd is None:
            fd = _shared_file()
            os.ftruncate(fd, mmap.PAGESIZE)
        self.fd = fd
        self.memory = mmap.mmap(fd, mmap.PAGESIZE)
        self.number = ctypes.c_int64.from_buffer(self.memory)

    @property
    def value(self) -> int:
        return int(self.number.value)

    @value.setter
    def value(self, number: int) -> None:
        self.number.value = number

    def forget_fd(self) -> None:
        """Close the descriptor (the memory stays mapped)."""
        with contextlib.suppress(OSError):
            os.close(self.fd)


def _shared_file() -> int:
    """A descriptor of a file in memory with no name."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("solstis-cancel")
    fd, name = tempfile.mkstemp(prefix="solstis-cancel-")
    os.unlink(name)
    return fd


_mark: Mark | None = None
"""In a worker: the shared cancel mark."""
_job = 0
"""In a worker: the number of the job running."""


class _JobCancel:
    """A job's cancel signal: set once the parent has cancelled this job (or a later one)."""

    __slots__ = ("job", "number")

    def __init__(self, mark: Mark, job: int) -> None:
        self.number, self.job = mark.number, job

    def is_set(self) -> bool:  # once per search iteration: kept short
        return bool(self.number.value >= self.job)


class _Never:
    __slots__ = ()

    def is_set(self) -> bool:
        return False


def cancel_signal() -> _JobCancel | _Never:
    """The running job's cancel signal (``is_set()``), for the search it runs. Outside a
    worker (a job run in the calling process) it is never set."""
    if _mark is None:
        return _Never()
    return _JobCancel(_mark, _job)


def in_worker() -> bool:
    """True in a worker process of this module."""
    return _mark is not None


def boot(conn_fd: int, watch_fd: int, mark_fd: int, ended_fd: int) -> None:
    """A new worker, once ``BOOT`` has made it die with its parent: watch the parent's
    pipe, take the parent's path and main module, run the initializer, answer jobs."""
    global _mark
    for fd in (conn_fd, watch_fd, mark_fd, ended_fd):  # ended_fd: left open till the end
        os.set_inheritable(fd, False)  # this worker's own workers get none of them
    watch(watch_fd)
    conn = Connection(conn_fd)
    me = process.current_process()
    me._inheriting = True  # type: ignore[attr-defined]  # a script without a main guard
    try:  # that starts a worker as it is imported here: RuntimeError, as with spawn
        spawn.prepare(conn.recv())  # sys.path, the working folder, the main module
        nice, initializer, initargs = conn.recv()
    except (EOFError, OSError):
        return
    finally:
        me._inheriting = False  # type: ignore[attr-defined]
    _mark = Mark(mark_fd)
    _mark.forget_fd()
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(nice)
    if initializer is not None:
        initializer(*initargs)
    _serve(conn)


def _serve(conn: Connection) -> None:
    """Answer jobs until the parent hangs up (or dies)."""
    global _job
    while True:
        try:
            job, fn, args = conn.recv()
        except (EOFError, OSError):
            return
        _job = job
        try:
            reply: tuple[int, str, Any] = (job, "ok", fn(*args))
        except Cancelled:
            reply = (job, "cancelled", None)
        except Exception as exc:  # the parent gets the reason in words, not the object
            reply = (job, "error", words(exc))
        try:
            data = ForkingPickler.dumps(reply)
        except Exception as exc:  # a result that does not pickle
            data = ForkingPickler.dumps((job, "error", words(exc)))
        try:
            conn.send_bytes(data)
        except OSError:
            return  # the parent hung up


def words(exc: BaseException) -> tuple[str, str]:
    """An error as (its type's name, its words)."""
    return type(exc).__name__, str(exc) or type(exc).__name__

"""Files written whole or not at all, and files kept aside instead of overwritten.

The app's saves, the host's tables and databases, and the arena's result files all write
through ``write_atomic``; whatever cannot be read is renamed aside with ``keep_aside``. The
user data directory (``data_dir``) and its small JSON files live here too. Standard library
only (platformdirs when asked where the data directory is)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import tempfile
import time
from pathlib import Path
from typing import Any

#: Set to a folder to keep the local app's files there (tests and the web edition do).
DATA_DIR_VARIABLE = "SOLSTIS_DATA_DIR"


def data_dir() -> Path:
    """Where the local app keeps its files (``$SOLSTIS_DATA_DIR``, else the platform's user
    data directory); created on the first write."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("solstis", appauthor=False))


def write_atomic(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, ``fsync`` and ``os.replace``:
    an interrupted write leaves the old file or the new one, never half of either."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class NotAFile(OSError):
    """What was to be read is not a regular file (a FIFO, a device, a folder, a socket);
    the message says which."""

    def __init__(self, message: str) -> None:
        super().__init__(errno.EINVAL, message)

    def __str__(self) -> str:
        return str(self.strerror)


def read_regular(path: Path | str, limit: int) -> bytes:
    """At most ``limit`` bytes of the regular file ``path`` (``limit + 1`` is read, so the
    caller sees a file that is too long). NotAFile, an OSError saying what it is, for a
    FIFO, a device, a folder or a socket, without waiting on it: the path is looked at
    before it is opened, opened without blocking and without becoming the controlling
    terminal, and looked at again once open (it may have been swapped in between)."""
    path = Path(path)
    _refuse_unless_regular(path, os.stat(path).st_mode)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        _refuse_unless_regular(path, os.fstat(fd).st_mode)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (a named pipe)"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def not_regular(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is when it is not a regular file ('a FIFO (a
    named pipe)', 'a device', ...); '' for a regular file."""
    if stat.S_ISREG(mode):
        return ""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _refuse_unless_regular(path: Path, mode: int) -> None:
    what = not_regular(mode)
    if what:
        raise NotAFile(f"{path} is {what}, not a file: only a regular file is read")


def keep_aside(path: Path, why: str = "corrupt") -> Path:
    """Rename a bad file (or one kept for another reason: ``why``) so it is never
    overwritten: ``name.<why>-<time>.ext``; returns the new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.{why}-{stamp}{path.suffix}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.stem}.{why}-{stamp}-{n}{path.suffix}")
        n += 1
    os.replace(path, target)
    return target


def read_small_json(name: str) -> dict[str, Any]:
    """The JSON object in file ``name`` of the data directory; {} when it is missing or
    unreadable (such files only hold what is cheap to lose: settings, tutorial places)."""
    try:
        data = json.loads((data_dir() / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_small_json(name: str, data: dict[str, Any]) -> None:
    """Write ``data`` to file ``name`` of the data directory (OSError if it cannot be)."""
    write_atomic(data_dir() / name, json.dumps(data, indent=1))

"""Files written whole or not at all, and files kept aside instead of overwritten.

The app's saves, the host's tables and databases, and the arena's result files all write
through ``write_atomic``; whatever cannot be read is renamed aside with ``keep_aside``. The
user data directory (``data_dir``) and its small JSON files live here too. Standard library
only (platformdirs when asked where the data directory is)."""

from __future__ import annotations

import contextlib
import json
import os
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

"""Opening the host's SQLite files (``ratings.db``, ``players.db``) one way: write-ahead
log, full sync, a schema version in ``user_version``. A file that is not such a database
is kept aside (``*.corrupt-<time>``) and the host refuses to start, saying why; a file that
cannot be opened just now (locked, no access) is left as it is."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from ..saves import keep_aside

BUSY_SECONDS = 3.0  # how long a write waits for another process's lock before failing


class Unreadable(Exception):
    """A database cannot be read; the message says why and where it was kept."""


def open_database(path: Path, schema: str, version: int, what: str, empty: str, *,
                  upgrades: Mapping[int, str] | None = None,
                  keep_bad: bool = True) -> sqlite3.Connection:
    """The database at ``path`` (created with ``schema`` if new; ``upgrades[v]`` takes a
    version-``v`` file one version on). Unreadable if it is not ``what`` ("a ratings
    database"): kept aside unless ``keep_bad`` is False; ``empty`` says what a fresh start
    begins with ("no ratings")."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        create_private(path)
        return _connect(path, schema, version, upgrades or {})
    except sqlite3.OperationalError as exc:  # locked, or no access: the file may be fine
        raise Unreadable(f"{path} cannot be opened now ({exc}); it was left as it "
                         "is") from None
    except (sqlite3.DatabaseError, ValueError) as exc:
        if not keep_bad:
            raise Unreadable(f"{path} is not {what} this host can read ({exc})") from None
        kept = keep_aside(path)
        wal = Path(f"{path}-wal")
        if wal.exists():
            keep_aside(wal)
        Path(f"{path}-shm").unlink(missing_ok=True)
        raise Unreadable(f"{path} is not {what} this host can read ({exc}); it was kept "
                         f"as {kept.name}. Restore it, or start again to begin with "
                         f"{empty}.") from None


def create_private(path: Path) -> bool:
    """Create ``path`` empty, mode 0600 whatever the umask, if it is missing (SQLite then
    gives its write-ahead log the same mode); True if it was made now."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    try:
        os.fchmod(fd, 0o600)
    finally:
        os.close(fd)
    return True


def _connect(path: Path, schema: str, version: int,
             upgrades: Mapping[int, str]) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                           timeout=BUSY_SECONDS)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        found = conn.execute("PRAGMA user_version").fetchone()[0]
        if found == 0:
            conn.executescript(f"BEGIN; {schema} PRAGMA user_version={version}; COMMIT;")
        while found != 0 and found < version and found in upgrades:
            conn.executescript(f"BEGIN; {upgrades[found]} PRAGMA user_version={found + 1};"
                               " COMMIT;")
            found += 1
        if found not in (0, version):
            raise ValueError(f"database version {found}, this host reads {version}")
    except BaseException:
        conn.close()
        raise
    return conn

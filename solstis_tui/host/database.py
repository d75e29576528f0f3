"""Opening the host's SQLite files (``ratings.db``, ``players.db``) one way: write-ahead
log, full sync, a schema version in ``user_version``, and a check at every start. A new
file is made whole under another name and linked into place: a crash while making it
leaves none or a whole one, never an empty file.

A damaged file is kept aside (``*.corrupt-<time>``, its write-ahead log too) and the host
refuses to start, saying why and naming the file; it never starts on a guess or empty.
Damaged means: not such a database, empty (0 bytes) where a database was, failing
``PRAGMA quick_check`` (bounded to ``CHECK_SECONDS``: a larger file is checked that long),
or missing writes. Every write transaction counts itself in the database (table
``stamp``) and, once committed, in a second place (``<file>-writes``); a database whose
count is behind that file lost acknowledged writes (its write-ahead log deleted after a
crash, or the file replaced by an older copy). A file that cannot be opened just now
(locked, no access) is left as it is."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..files import keep_aside

BUSY_SECONDS = 3.0  # how long a write waits for another process's lock before failing
CHECK_SECONDS = 2.0  # how long the check at start may read a large file
CHECK_STEPS = 10_000  # SQLite steps between two looks at that clock
STAMP = ("CREATE TABLE stamp (id INTEGER PRIMARY KEY CHECK (id = 0), writes INTEGER NOT NULL);"
         " INSERT INTO stamp VALUES (0, 0);")


class Unreadable(Exception):
    """A database cannot be read; the message says why and where it was kept."""


class Damaged(ValueError):
    """A database that opens but must not be used; the message says what is wrong."""


class Database(sqlite3.Connection):
    """A connection that knows its file's second count of writes (None: not counted)."""

    writes: Path | None = None


def open_database(path: Path, schema: str, version: int, what: str, empty: str, *,
                  upgrades: Mapping[int, str] | None = None,
                  keep_bad: bool = True, checked: bool = False) -> sqlite3.Connection:
    """The database at ``path`` (created with ``schema`` if new; ``upgrades[v]`` takes a
    version-``v`` file one version on), checked (unless ``checked``: just now, by this
    process). Unreadable if it is not ``what`` ("a ratings database") or is damaged: kept
    aside unless ``keep_bad`` is False; ``empty`` says what a fresh start begins with ("no
    ratings")."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    created = False
    try:
        created = _create(path, schema, version, stamped=keep_bad)
        if not created and path.stat().st_size == 0:
            raise Damaged("it is empty (0 bytes), where the host had made a database")
        conn = _connect(path, schema, version, upgrades or {})
        try:
            if not checked:
                check(conn)
            _check_writes(conn, path, created, write=keep_bad)
        except BaseException:
            conn.close()
            raise
        return conn
    except sqlite3.OperationalError as exc:  # locked, or no access: the file may be fine
        raise Unreadable(f"{path} cannot be opened now ({exc}); it was left as it "
                         "is") from None
    except (sqlite3.DatabaseError, ValueError) as exc:
        if created and keep_bad:  # nothing of the lost database to keep but its count
            path.unlink(missing_ok=True)
            for extra in (Path(f"{path}-wal"), Path(f"{path}-shm")):
                extra.unlink(missing_ok=True)
            count = writes_file(path)
            kept = f"; its count of writes was kept as {keep_aside(count).name}" if (
                count.exists()) else ""
            raise Unreadable(f"{path} is not {what} this host can read ({exc}){kept}. "
                             f"Restore the database, or start again to begin with "
                             f"{empty}.") from None
        raise refused(path, what, empty, exc, keep_bad) from None


def refused(path: Path, what: str, empty: str, exc: Exception,
            keep_bad: bool = True) -> Unreadable:
    """The Unreadable to raise for the damaged database at ``path``, once it and its
    write-ahead log and count of writes are kept aside (unless ``keep_bad`` is False)."""
    why = f"{path} is not {what} this host can read ({exc})"
    if not keep_bad:
        return Unreadable(why)
    kept = keep_aside(path)
    for extra in (Path(f"{path}-wal"), writes_file(path)):
        if extra.exists():
            keep_aside(extra)
    Path(f"{path}-shm").unlink(missing_ok=True)
    return Unreadable(f"{why}; it was kept as {kept.name}. Restore it, or start again to "
                      f"begin with {empty}.")


def check(conn: sqlite3.Connection, seconds: float = CHECK_SECONDS) -> None:
    """sqlite3.DatabaseError unless ``PRAGMA quick_check`` finds the file sound; a file
    too large to check in ``seconds`` is checked that far."""
    deadline = time.monotonic() + seconds
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), CHECK_STEPS)
    try:
        rows = conn.execute("PRAGMA quick_check(5)").fetchall()
    except sqlite3.OperationalError as exc:
        if "interrupt" not in str(exc):
            raise
        return
    finally:
        conn.set_progress_handler(None, 0)
    if rows != [("ok",)]:
        raise sqlite3.DatabaseError("damaged: " + "; ".join(str(row[0]) for row in rows))


def writes_file(path: Path) -> Path:
    """The second place that counts the writes to the database at ``path``."""
    return Path(f"{path}-writes")


def _check_writes(conn: sqlite3.Connection, path: Path, created: bool, write: bool) -> None:
    """Damaged if the database counts fewer writes than its ``-writes`` file; start
    counting (``write``) in a database that does not count yet."""
    stamped = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'stamp'").fetchone()
    if stamped is None and write:
        conn.executescript(f"BEGIN IMMEDIATE; {STAMP} COMMIT;")
        stamped = (1,)
    recorded = _read_count(writes_file(path))
    if write and stamped:
        create_private(writes_file(path))  # 0600 whatever the umask
    found = conn.execute("SELECT writes FROM stamp WHERE id = 0").fetchone()[0] if stamped else 0
    if recorded is not None and found < recorded:
        if created:
            raise Damaged(f"it was missing, but {writes_file(path).name} says {recorded} "
                          "writes were made to it")
        raise Damaged(f"it holds {found} of the {recorded} writes made to it: its "
                      f"write-ahead log {path.name}-wal was lost or the file is an older "
                      "copy")
    if isinstance(conn, Database) and stamped:
        conn.writes = writes_file(path)


def _read_count(path: Path) -> int | None:
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise Damaged(f"{path.name} cannot be read ({exc})") from None
    if not text:  # made, never written
        return None
    if not text.isdigit():
        raise Damaged(f"{path.name} does not hold a count of writes")
    return int(text)


def count_write(conn: sqlite3.Connection) -> int | None:
    """In a write transaction: count it in the database; the new count (None: this
    connection does not count). ``counted`` then notes it in the second place."""
    if not isinstance(conn, Database) or conn.writes is None:
        return None
    conn.execute("UPDATE stamp SET writes = writes + 1 WHERE id = 0")
    return int(conn.execute("SELECT writes FROM stamp WHERE id = 0").fetchone()[0])


def counted(conn: sqlite3.Connection, writes: int | None) -> None:
    """After a committed write transaction: note its count in the second place (no sync:
    it only has to outlive the process; after a power cut it may lag, never lead)."""
    if writes is None or not isinstance(conn, Database) or conn.writes is None:
        return
    with contextlib.suppress(OSError):  # a full disk: the next write tries again
        fd = os.open(conn.writes, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            os.pwrite(fd, f"{writes:020d}\n".encode(), 0)
        finally:
            os.close(fd)


@contextlib.contextmanager
def counted_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction (``BEGIN IMMEDIATE``), counted (``count_write``) and committed
    when the block ends, rolled back on any error; its count is then noted (``counted``)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        writes = count_write(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    counted(conn, writes)


def _create(path: Path, schema: str, version: int, stamped: bool) -> bool:
    """Make the database at ``path`` whole, if it is missing: built under another name
    (its schema, version and, if ``stamped``, its count of writes), then linked into
    place, so that a crash at any moment leaves no database or a whole one, never an empty
    file; True if it was made now. Another process's database made meanwhile is kept."""
    _clear_unfinished(path)
    if path.exists():
        return False
    new = path.with_name(f".{path.name}.new-{os.getpid()}")
    new.unlink(missing_ok=True)
    create_private(new)
    try:
        conn = _connect(new, schema, version, {})
        try:
            if stamped:
                conn.executescript(f"BEGIN IMMEDIATE; {STAMP} COMMIT;")
        finally:
            conn.close()  # the write-ahead log goes into the file and is removed
        try:
            os.link(new, path)
        except FileExistsError:
            return False
        except OSError:  # a filesystem without hard links: a rename, if still missing
            if path.exists():
                return False
            os.rename(new, path)
        with contextlib.suppress(OSError):  # the new name outlives a power cut
            fd = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        return True
    finally:
        for leftover in (new, Path(f"{new}-wal"), Path(f"{new}-shm")):
            leftover.unlink(missing_ok=True)


def _clear_unfinished(path: Path) -> None:
    """Remove what a process killed while making ``path`` left (``_create``)."""
    for leftover in path.parent.glob(f".{path.name}.new-*"):
        pid = leftover.name.removeprefix(f".{path.name}.new-").split("-")[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            leftover.unlink(missing_ok=True)
        except OSError:  # alive under another user: not ours to remove
            pass


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
                           timeout=BUSY_SECONDS, factory=Database)
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

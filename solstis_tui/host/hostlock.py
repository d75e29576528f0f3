"""One host per data dir and per socket: the locks and checks a host takes before serving.

A host holds ``host.lock`` in its data dir (``fcntl.flock``) and ``<socket>.lock`` next to its
socket for as long as it runs; the kernel drops both when the process ends, however it ends.
It refuses to start when its data dir is not writable (it tries to create a file there: a
permission check would not stop root) or when something already answers on its socket.

The data dir and its ``tables`` folder are the host's alone: made 0700 whatever the umask,
and an existing one that others may enter is tightened to 0700 (files in them that others
may read, to 0600), saying so; one that belongs to another user is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import stat
from pathlib import Path


class StartRefused(Exception):
    """The host cannot start; the message says why, for the operator."""


class FileLock:
    """An exclusive ``flock`` on ``path``, held until ``release``; the file says whose it is."""

    def __init__(self, path: Path, what: str) -> None:
        self.path = path
        try:
            self.fd: int | None = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise StartRefused(f"cannot open the lock file {path} ({exc.strerror})") from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(self.fd, 64).decode(errors="replace").strip() or "unknown"
            self.release()
            raise StartRefused(f"another host is already using {what} (process {holder}; "
                               f"lock {path}); stop it first") from None
        with contextlib.suppress(OSError):  # who holds it, for the message above
            os.ftruncate(self.fd, 0)
            os.pwrite(self.fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the only descriptor drops the lock
            self.fd = None


def claim_data_dir(directory: Path, notes: list[str] | None = None) -> FileLock:
    """Create ``directory`` if needed (0700), lock it and check that files can be written
    there; what was tightened is said in ``notes`` (see ``make_private``)."""
    notes = [] if notes is None else notes
    try:
        notes += make_private(directory, "the data folder")
    except OSError as exc:
        raise StartRefused(f"cannot create the data folder {directory} "
                           f"({exc.strerror or exc})") from None
    lock = FileLock(directory / "host.lock", f"the data folder {directory}")
    try:
        check_writable(directory)
        tables = directory / "tables"
        notes += make_private(tables, "the tables folder")
        check_writable(tables)
    except (OSError, StartRefused) as exc:
        lock.release()
        if isinstance(exc, StartRefused):
            raise
        raise StartRefused(f"cannot use the data folder {directory} ({exc.strerror or exc})"
                           ) from None
    return lock


def make_private(directory: Path, what: str) -> list[str]:
    """Make ``directory`` (and missing folders above it) mode 0700 whatever the umask; an
    existing one others may use is tightened to the owner's bits alone (0700), and so are
    its files others may read (0600). Returns a sentence for each thing tightened;
    StartRefused if ``directory`` belongs to another user or is not a folder."""
    missing = []
    folder = directory
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, 0o700)
            os.chmod(folder, 0o700)  # the umask may have taken bits away
    info = directory.stat()
    if not stat.S_ISDIR(info.st_mode):
        raise StartRefused(f"{what} {directory} is not a folder")
    notes = []
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077:
        if info.st_uid != os.geteuid():
            raise StartRefused(f"{what} {directory} belongs to user {info.st_uid} and has "
                               f"mode {mode:04o}; the host keeps its files only in a folder "
                               "of its own that others cannot enter: choose another --data")
        os.chmod(directory, mode & 0o700)
        notes.append(f"{what} {directory} had mode {mode:04o}, open to other users; it "
                     f"was set to {mode & 0o700:04o}")
    loose = []
    for path in sorted(directory.iterdir()):
        with contextlib.suppress(OSError):
            info = path.lstat()
            if (stat.S_ISREG(info.st_mode) and info.st_mode & 0o077
                    and info.st_uid == os.geteuid()):
                os.chmod(path, stat.S_IMODE(info.st_mode) & 0o700)
                loose.append(path.name)
    if loose:
        notes.append(f"other users could read {', '.join(loose)} in {directory}; "
                     "now only this user can")
    return notes


def check_writable(directory: Path) -> None:
    """StartRefused unless a file can be created, synced and removed in ``directory``."""
    probe = directory / f".write-probe-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, b"probe\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        probe.unlink()
    except OSError as exc:
        with contextlib.suppress(OSError):
            probe.unlink()
        raise StartRefused(f"the data folder {directory} is not writable "
                           f"({exc.strerror or exc}); every move must be saved there") from None


async def claim_socket(path: Path, group: int | None = None) -> FileLock:
    """Make the socket's folder if missing (0700, or 0750 owned by ``group``), lock the
    socket path and remove a stale socket; StartRefused if a live host answers there."""
    folder = path.parent
    try:
        if not folder.exists():  # only a folder made here is given to the group
            folder.mkdir(parents=True, mode=0o700)
            if group is not None:
                os.chown(folder, -1, group)
                os.chmod(folder, 0o750)
    except OSError as exc:
        raise StartRefused(f"cannot prepare the socket folder {folder} "
                           f"({exc.strerror or exc})") from None
    lock = FileLock(path.with_name(path.name + ".lock"), f"the socket {path}")
    try:
        await _remove_stale(path)
    except BaseException:
        lock.release()
        raise
    return lock


async def _remove_stale(path: Path) -> None:
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise StartRefused(f"{path} exists and is not a socket; remove it or choose another "
                           "--socket")
    try:
        _, writer = await asyncio.wait_for(asyncio.open_unix_connection(str(path)), 2)
    except (OSError, TimeoutError):
        path.unlink(missing_ok=True)  # nobody listens: a socket left by a stopped host
        return
    writer.close()
    raise StartRefused(f"a host is already listening on {path}; stop it first or choose "
                       "another --socket")


def unreachable_for_group(path: Path, gid: int) -> Path | None:
    """The first folder above the socket that members of group ``gid`` cannot enter."""
    for folder in path.parents:
        try:
            info = folder.stat()
        except OSError:
            return folder
        if info.st_mode & stat.S_IXOTH:
            continue
        if info.st_gid == gid and info.st_mode & stat.S_IXGRP:
            continue
        return folder
    return None

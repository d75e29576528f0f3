"""Where the local app keeps its game records: ``records/`` in the data directory, one file
a game, named by the record's id (``<id>.solstis``). Reading never changes a file; a record
that does not load is listed with the reason, and left where it is."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .files import data_dir, not_regular, write_atomic
from .records import SUFFIX, GameRecord, RecordError, dumps, read

#: The folder of the data directory that holds the records.
FOLDER = "records"
#: What an id (or the start of one) may hold.
_ID = re.compile(r"[0-9A-Za-z_-]+")


def records_dir() -> Path:
    return data_dir() / FOLDER


def keep(record: GameRecord, folder: Path | None = None) -> Path:
    """Write ``record`` to ``folder`` (default: ``records_dir()``) as ``<id>.solstis``,
    whole or not at all; the same game kept twice is one file. OSError if it cannot be."""
    path = (folder or records_dir()) / f"{record.id}{SUFFIX}"
    write_atomic(path, dumps(record))
    return path


@dataclass(frozen=True)
class Entry:
    """One file of the records folder: its record, or why it could not be read."""

    path: Path
    record: GameRecord | None = None
    problem: str = ""

    @property
    def id(self) -> str:
        return self.path.stem


def entries(folder: Path | None = None) -> list[Entry]:
    """Every record in ``folder`` (default: ``records_dir()``), newest first, each loaded
    and replayed; those that do not load come last, with the reason."""
    folder = folder or records_dir()
    good: list[tuple[datetime, Entry]] = []
    bad: list[Entry] = []
    paths = sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []
    for path in paths:
        try:
            record = read(path)
        except (RecordError, OSError) as exc:
            bad.append(Entry(path, problem=str(exc)))
        else:
            good.append((record.date, Entry(path, record)))
    good.sort(key=lambda pair: pair[0], reverse=True)
    return [entry for _, entry in good] + bad


def find(key: str, folder: Path | None = None) -> Path:
    """The record named ``key``: a file's path, or the id of a kept record (a unique
    start of one is enough). LookupError saying why when there is none or several, or
    when ``key`` is a FIFO, a device or a folder (reading it could wait for ever; the
    read itself refuses one swapped in afterwards: ``files.read_regular``)."""
    given = Path(key).expanduser()
    try:
        what = not_regular(given.stat().st_mode)
    except (OSError, ValueError):  # not there (or a name no file can have): an id?
        what = None
    if what == "":
        return given
    # (A folder in the current directory named like an id does not hide the kept record.)
    if what and not (what == "a folder" and _ID.fullmatch(key)):
        raise LookupError(f"{key} is {what}, not a record file: only a regular file is "
                          "read")
    folder = folder or records_dir()
    if not _ID.fullmatch(key):
        raise LookupError(f"there is no record file {key!r}")
    exact = folder / f"{key}{SUFFIX}"
    if exact.is_file():
        return exact
    found = sorted(folder.glob(f"{key}*{SUFFIX}")) if folder.is_dir() else []
    if len(found) == 1:
        return found[0]
    if found:
        shown = ", ".join(p.stem for p in found[:5])
        raise LookupError(f"{key!r} starts the ids of {len(found)} records ({shown}...): "
                          "give more of it")
    raise LookupError(f"there is no record {key!r}: 'solstis games' lists them (records "
                      f"are kept in {folder})")

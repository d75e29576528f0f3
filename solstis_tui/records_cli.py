"""``solstis games`` (list the kept records, ``--export`` one), and the record that
``solstis review`` opens (cli.py starts the app). A record that does not load is refused
with its line, and no file is changed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from . import record_files
from .core import EndReason
from .records import GameRecord, RecordError, loads_bytes, read, read_bytes

#: How each end reason reads in the list.
ENDED = {
    EndReason.NORMAL: "played out",
    EndReason.FIREFLIES: "4th firefly",
    EndReason.RESIGNED: "resigned",
    EndReason.TIME: "out of time",
    EndReason.ABANDONED: "abandoned",
}
_NAME_WIDTH = 24


def games_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solstis games",
        description="List the games kept as records, newest first: the id, date, "
                    "opponent, variant, result and how the game ended. 'solstis review ID' "
                    "opens one. Records are kept in the data directory's records folder "
                    "(docs/records.md describes them).")
    parser.add_argument("--export", nargs=2, metavar=("ID", "FILE"),
                        help="write the record ID (or the start of its id) to FILE "
                             "('-': standard output)")
    return parser


def games_main(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``solstis games`` with ``argv``; the exit status (2: a record was refused)."""
    out, err = out or sys.stdout, err or sys.stderr
    args = games_parser().parse_args(argv)
    if args.export:
        return export(args.export[0], args.export[1], out, err)
    found = record_files.entries()
    if not found:
        print(f"No games kept yet: a finished game is kept in {record_files.records_dir()}",
              file=out)
        return 0
    rows = [("id", "date", "opponent", "variant", "result", "ended")]
    rows += [row(e.id, e.record) for e in found if e.record is not None]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip(),
              file=out)
    for e in found:
        if e.record is None:
            print(f"{e.path.name}: not listed, the record does not load: {e.problem}",
                  file=err)
    return 0


def row(ident: str, record: GameRecord) -> tuple[str, str, str, str, str, str]:
    """A record's line in the list: id, date, opponent, variant, result, how it ended."""
    names = [_short(s.name) for s in record.seats]
    humans = [i for i, s in enumerate(record.seats) if s.is_human]
    me = humans[0] if len(humans) == 1 else None
    mine, theirs = record.scores if me in (None, 0) else record.scores[::-1]
    stars = f"{mine}-{theirs}"
    if record.end is EndReason.ABANDONED:
        result = "no result"
    elif me is not None:
        result = ("drawn" if record.winner is None else
                  "won" if record.winner == me else "lost") + f" {stars}"
    else:
        result = ("drawn" if record.winner is None
                  else f"{names[record.winner]} won") + f" {stars}"
    opponent = names[1 - me] if me is not None else f"{names[0]} vs {names[1]}"
    ended = ENDED[record.end]
    if record.end in (EndReason.RESIGNED, EndReason.TIME) and record.winner is not None:
        ended = f"{names[1 - record.winner]} {ended}"
    date = record.date.astimezone().strftime("%Y-%m-%d %H:%M")
    return ident, date, opponent, record.variant, result, ended


def _short(name: str) -> str:
    return name if len(name) <= _NAME_WIDTH else name[:_NAME_WIDTH - 1] + "…"


def export(key: str, target: str, out: TextIO, err: TextIO) -> int:
    """Copy the record ``key`` to ``target`` (``-``: ``out``) as it is, once it loads; an
    existing ``target`` is not written over."""
    try:
        path = record_files.find(key)
        data = read_bytes(path)
        loads_bytes(data)
    except (LookupError, OSError, RecordError) as exc:
        print(f"solstis games: {_where(key, exc)}", file=err)
        return 2
    if target == "-":
        out.write(data.decode("utf-8"))
        return 0
    dest = Path(target)
    if dest.exists():
        print(f"solstis games: {target} exists already; choose another file (nothing was "
              "written)", file=err)
        return 2
    try:
        with dest.open("xb") as handle:
            handle.write(data)
    except OSError as exc:
        print(f"solstis games: cannot write {target}: {exc.strerror or exc}", file=err)
        return 2
    print(f"Record {path.stem} written to {target}", file=out)
    return 0


def _where(key: str, exc: Exception) -> str:
    if isinstance(exc, RecordError):
        return f"{key} does not load, {exc}"
    if isinstance(exc, OSError):
        return f"cannot read {key}: {exc.strerror or exc}"
    return str(exc)


def load_for_review(key: str | None, err: TextIO) -> tuple[GameRecord, Path] | None:
    """The record to review and its file (None after saying why on ``err``)."""
    try:
        if key is None:
            newest = next((e for e in record_files.entries() if e.record is not None), None)
            if newest is None or newest.record is None:
                print("solstis review: no games are kept yet; give a record file",
                      file=err)
                return None
            return newest.record, newest.path
        path = record_files.find(key)
        return read(path), path
    except (LookupError, OSError, RecordError) as exc:
        print(f"solstis review: {_where(key or '', exc)}", file=err)
        return None

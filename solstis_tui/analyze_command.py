"""``solstis analyze RECORD [--json]``: load a game record, analyse it, keep the result.

The analysis is kept beside the record by the coach's store (``coach/store.py``,
docs/analysis.md): a second run prints it at once.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from solstis_tui import records
from solstis_tui.coach import analysis, store
from solstis_tui.files import NotAFile


def _progress(done: int, total: int) -> None:
    end = "\n" if done == total else ""
    print(f"\ranalysing: decision {done} of {total}", end=end, file=sys.stderr, flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="solstis analyze",
        description="Judge every decision of a finished game and measure each seat's luck.")
    parser.add_argument("record", help="a game record file")
    parser.add_argument("--json", action="store_true", help="print the JSON (docs/analysis.md)")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes to judge with (default: every usable core)")
    args = parser.parse_args(argv)
    path = Path(args.record)
    try:
        text = records.read_text(path)
    except NotAFile as exc:  # a FIFO or a device: refused at once, never waited on
        print(f"solstis analyze: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"solstis analyze: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    except records.RecordError as exc:  # binary, or far too big: it names the line
        print(f"solstis analyze: {path}: {exc}", file=sys.stderr)
        return 2
    try:  # a record that does not replay is named before any judging
        game = store.load(text)
    except store.RecordProblem as exc:
        print(f"solstis analyze: {path}: {exc}", file=sys.stderr)
        return 2
    from solstis_tui.ai.expert import usable_cores

    workers = args.workers if args.workers else usable_cores()
    try:
        found = store.analysed(path, text=text, game=game, workers=max(1, workers),
                               progress=_progress if sys.stderr.isatty() else None)
    except ValueError as exc:
        print(f"solstis analyze: {path}: {exc}", file=sys.stderr)
        return 2
    if found.not_kept is not None:
        print(f"solstis analyze: could not keep the result ({found.not_kept})",
              file=sys.stderr)
    # The summary is made afresh: its wording may be newer than the kept analysis.
    data = analysis.to_json(found.analysis)
    line = analysis.summary(found.analysis, store.summed_seat(text))
    if args.json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        analysis.print_text(data, line)
    return 0

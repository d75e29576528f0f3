"""``solstis analyze RECORD [--json]``: load a game record, analyse it, cache the result.

The result is kept beside the record as ``RECORD.analysis.json`` (docs/analysis.md), keyed
by the record's text and the judge's effort: a second run prints it at once.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from pathlib import Path
from typing import Any

from solstis_tui import analysis, reasons, records
from solstis_tui.core import Game, Options
from solstis_tui.files import NotAFile, read_regular, write_atomic

EFFORT = analysis.Effort()
"""The judge's effort for the command (tests make it tiny)."""
MAX_CACHE_BYTES = 20_000_000
"""The most a kept analysis may hold (a game's is a few hundred KB): past it, analysed
afresh."""


class RecordProblem(ValueError):
    """A record this command cannot read; the message says why."""


def load(text: str) -> tuple[Game, list[str]]:
    """The game a record holds, and its seats' names.

    Reads a game record (``solstis_tui.records``, docs/records.md), or a small JSON form:
    ``{"variant": "base", "seed": 7, "moves": ["play 3-5", ...], "seats": ["Ann", "Bob"]}``,
    bounded as a record is (``records.SEED_BITS``, ``records.MAX_MOVES``). RecordProblem
    with the reason (a record's names its line) otherwise. A seat's kind is never read
    here: no bot is made.
    """
    if not text.lstrip().startswith("{"):
        try:
            record = records.loads(text, check=False)
            game = records.replay(record)  # checks every move and the stored scores
        except ValueError as exc:  # RecordError names the line
            raise RecordProblem(str(exc)) from None
        return game, [seat.name for seat in record.seats]
    try:
        data: Any = json.loads(text)
        options = Options.for_variant(str(data.get("variant", "base")))
        seed = data["seed"]
        moves = data["moves"]
        names = data.get("seats", ["Seat 1", "Seat 2"])
        if not isinstance(seed, int) or not isinstance(moves, list) or \
                not all(isinstance(m, str) for m in moves) or len(names) != 2:
            raise RecordProblem("a record needs an integer seed, a list of moves and two seats")
        if abs(seed) >= 2 ** records.SEED_BITS or len(moves) > records.MAX_MOVES:
            raise RecordProblem(f"a seed has at most {records.SEED_BITS} bits and a game at "
                                f"most {records.MAX_MOVES:,} moves")
        game = analysis.game_from_moves(options, seed, moves)
    except RecordProblem:
        raise
    except RecursionError:  # json: arrays nested thousands deep
        raise RecordProblem("not a game record: nested too deep") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RecordProblem(f"not a game record: {_cut(str(exc))}") from None
    return game, [str(n) for n in names]


def _cut(text: str, most: int = 200) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


def summed_seat(text: str) -> int:
    """Whose side the summary line takes: the person's, in a record of one person against
    a bot; else the first seat's."""
    try:
        humans = [i for i, seat in enumerate(records.parse(text).seats) if seat.is_human]
    except ValueError:  # the JSON form, which has no kinds of seat
        return 0
    return humans[0] if len(humans) == 1 else 0


def cache_key(text: str, effort: analysis.Effort, seed: int) -> str:
    made = (f"{analysis.VERSION}|{analysis.MEASURE}|{reasons.WORDING}|{effort}|{seed}|"
            f"{analysis.LABELS}|{text}")
    return hashlib.sha256(made.encode()).hexdigest()


def key_of(record: Path, effort: analysis.Effort | None = None, seed: int = 0) -> str | None:
    """The cache key of ``record``'s analysis at ``effort`` (default: this command's) and
    ``seed``; None if the record cannot be read."""
    try:
        return cache_key(records.read_text(record), EFFORT if effort is None else effort,
                         seed)
    except (OSError, ValueError):  # not a file, not text, too long
        return None


def cache_path(record: Path) -> Path:
    return record.with_name(record.name + ".analysis.json")


def read_cache(record: Path, key: str) -> dict[str, Any] | None:
    try:  # a FIFO there is not waited on; a file past the limit is not read whole
        raw = read_regular(cache_path(record), MAX_CACHE_BYTES)
        data = json.loads(raw) if len(raw) <= MAX_CACHE_BYTES else None
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    try:  # a damaged or hand-edited file is analysed afresh, never half printed
        analysis.print_text(data["analysis"], str(data["summary"]), out=io.StringIO())
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError):
        return None
    return data


def cached(record: Path, key: str) -> analysis.Analysis | None:
    """The analysis kept beside ``record`` under ``key``, or None (none kept, another
    key, a damaged file, or one written before decisions kept their top moves)."""
    data = read_cache(record, key)
    return None if data is None else analysis_of(data)


def analysis_of(data: dict[str, Any]) -> analysis.Analysis | None:
    """The analysis a kept file's ``data`` holds, or None (one written before decisions
    kept their top moves)."""
    try:
        return analysis.from_json(data["analysis"])
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError):
        return None


def write_cache(record: Path, key: str, found: analysis.Analysis) -> tuple[dict[str, Any], str]:
    """Keep ``found`` beside ``record`` under ``key``; its JSON and summary. OSError if
    it cannot be written."""
    result = (analysis.to_json(found), analysis.summary(found))
    write_atomic(cache_path(record), json.dumps(
        {"key": key, "summary": result[1], "analysis": result[0]},
        ensure_ascii=False, indent=1))
    return result


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
    try:
        game, names = load(text)
    except RecordProblem as exc:
        print(f"solstis analyze: {path}: {exc}", file=sys.stderr)
        return 2
    effort, seed, seat = EFFORT, 0, summed_seat(text)
    key = cache_key(text, effort, seed)
    kept = read_cache(path, key)
    if kept is not None:
        # The line is made afresh: its wording may be newer than the kept analysis.
        found = analysis_of(kept)
        result = (kept["analysis"], analysis.summary(found, seat) if found else
                  str(kept.get("summary", "")))
    else:
        from solstis_tui.ai.expert import usable_cores

        workers = args.workers if args.workers else usable_cores()
        try:
            found = analysis.analyse(game, names, seed, effort, max(1, workers),
                                     _progress if sys.stderr.isatty() else None)
        except ValueError as exc:
            print(f"solstis analyze: {path}: {exc}", file=sys.stderr)
            return 2
        result = (analysis.to_json(found), analysis.summary(found, seat))
        try:
            write_cache(path, key, found)
        except OSError as exc:
            print(f"solstis analyze: could not keep the result ({exc})", file=sys.stderr)
    data, line = result
    if args.json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        analysis.print_text(data, line)
    return 0

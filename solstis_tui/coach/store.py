"""The one store of analyses: look a record's analysis up, else judge the game and keep it.

An analysis is kept beside its record as ``RECORD.analysis.json`` (docs/analysis.md),
keyed by the record's text, the judge's effort and seed, and the analysis's version and
wording: a record analysed once opens at once everywhere (``solstis analyze``, the
analysis board, the drill), and an edited record or a newer judge is analysed afresh.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from .. import records
from ..core import Game, Options
from ..files import read_regular, write_atomic
from . import analysis, reasons

EFFORT = analysis.Effort()
"""The judge's effort for a kept analysis (tests make it tiny)."""
SEED = 0
"""The judge's seed for a kept analysis: one seed, so every caller's key agrees."""
MAX_CACHE_BYTES = 20_000_000
"""The most a kept analysis may hold (a game's is a few hundred KB): past it, analysed
afresh."""


class RecordProblem(ValueError):
    """A record the coach cannot read; the message says why."""


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


def cache_key(text: str, effort: analysis.Effort | None = None) -> str:
    """The key of ``text``'s analysis at ``effort`` (default ``EFFORT``) and ``SEED``."""
    effort = EFFORT if effort is None else effort
    made = (f"{analysis.VERSION}|{analysis.MEASURE}|{reasons.WORDING}|{effort}|{SEED}|"
            f"{analysis.LABELS}|{text}")
    return hashlib.sha256(made.encode()).hexdigest()


def cache_path(record: Path) -> Path:
    """Where ``record``'s analysis is kept."""
    return record.with_name(record.name + ".analysis.json")


def kept(record: Path, effort: analysis.Effort | None = None) -> analysis.Analysis | None:
    """The analysis kept beside ``record`` for its text as it is now, or None: none kept,
    the record unreadable or changed, another effort, a damaged or hand-edited file, or
    one written by an older judge."""
    try:
        key = cache_key(records.read_text(record), effort)
    except (OSError, ValueError):  # not a file, not text, too long
        return None
    return _read(record, key)


def _read(record: Path, key: str) -> analysis.Analysis | None:
    try:  # a FIFO there is not waited on; a file past the limit is not read whole
        raw = read_regular(cache_path(record), MAX_CACHE_BYTES)
        data = json.loads(raw) if len(raw) <= MAX_CACHE_BYTES else None
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    try:  # a damaged file is analysed afresh, never half shown
        found = analysis.from_json(data["analysis"])
        analysis.print_text(data["analysis"], analysis.summary(found), out=io.StringIO())
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError):
        return None
    return found


def keep(record: Path, text: str, found: analysis.Analysis,
         effort: analysis.Effort | None = None) -> None:
    """Keep ``found``, the analysis of ``text`` (``record``'s text) at ``effort``, beside
    ``record``. OSError if it cannot be written."""
    write_atomic(cache_path(record), json.dumps(
        {"key": cache_key(text, effort), "summary": analysis.summary(found),
         "analysis": analysis.to_json(found)}, ensure_ascii=False, indent=1))


class Found(NamedTuple):
    """An analysis from the store: whether it was kept already, and why it could not be
    kept if it was made and not kept (None: kept, or not asked to be)."""

    analysis: analysis.Analysis
    was_kept: bool
    not_kept: OSError | None = None


def analysed(record: Path | None, *, text: str | None = None,
             game: tuple[Game, Sequence[str]] | None = None,
             effort: analysis.Effort | None = None, workers: int = 1,
             progress: Callable[[int, int], None] | None = None,
             judged: Callable[[int, analysis.DecisionNote], None] | None = None,
             nice: int = 0) -> Found:
    """``record``'s analysis: the kept one, else judged now and kept beside it.

    ``text``: the record's text, if read already; ``game``: its game and seats' names, if
    loaded already (the analysis board's). With ``record`` None, or one that can no longer
    be read, ``game`` is judged and nothing is looked up or kept. OSError or RecordProblem
    if the record cannot be read; ValueError from the judge for a game that does not
    replay; whatever ``progress`` or ``judged`` raise (to stop early) passes through."""
    effort = EFFORT if effort is None else effort
    if record is not None and text is None:
        try:
            text = records.read_text(record)
        except (OSError, ValueError):
            if game is None:
                raise
            record = None  # gone or changed past reading: judged, not kept
    if record is not None and text is not None:
        found = _read(record, cache_key(text, effort))
        if found is not None:
            return Found(found, was_kept=True)
    if game is None:
        if text is None:
            raise ValueError("nothing to analyse: neither a record nor a game")
        game = load(text)
    made = analysis.analyse(game[0], game[1], SEED, effort, workers, progress, nice=nice,
                            judged=judged)
    if record is None or text is None:
        return Found(made, was_kept=False)
    try:
        keep(record, text, made, effort)
    except OSError as exc:  # a folder we cannot write: shown, not kept
        return Found(made, was_kept=False, not_kept=exc)
    return Found(made, was_kept=False)

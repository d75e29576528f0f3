"""Records are data: mutated game records through ``solstis review``, play from here and
``solstis analyze``, counting tracebacks, imports and files written.

Real records are made by the engine (random games in the three variants, seats of every
kind a record holds), then mutated: a seat's kind made an import path or an odd name, a
number made huge (5,000 digits, past Python's int-string limit, 2**256...), control
characters written in, the text cut short, random bytes edited, lines deleted, doubled or
swapped. Each mutated record goes through:

- review: the file is read and replayed as ``solstis review FILE`` reads it
  (``records_cli.load_for_review``);
- play from here, for each record that loads: a practice game from one of its decisions
  (``practice.start``), and the other seat's bot made as the session or its worker process
  makes it (``make_bot`` of the seat's spec);
- analyze: the record read and replayed (``coach.store.load``, ``summed_seat``); a
  refused one through ``analyze_command.main`` (exit status 2, a message); the judge on a
  sample of those that load (``analysis.analyse`` at the tiny effort, one process).

Run: python benchmarks/record_fuzz.py [--records 50000] [--judge-every 200] [--seed 1]
Prints the figures: records, how many loaded, were refused (each naming a line), reached
play from here and the judge; tracebacks (any exception other than the refusals the
commands print); imports attempted after warming up (an import hook sees every import the
interpreter looks for, and ``sys.modules`` is compared before and after) and whether a
canary module that writes a file when imported was ever imported; files written in the
working directory and the data directory (both empty temporary folders). Exit status 1 if
any of those is not zero.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.abc
import io
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from solstis_tui import analyze_command, records_cli
from solstis_tui.ai.registry import make_bot
from solstis_tui.coach import analysis, store
from solstis_tui.core import EndReason, Game, Options
from solstis_tui.local import practice
from solstis_tui.records import SeatRecord, dumps, loads_bytes, record_of

VARIANTS = ("base", "beginner", "firefly")
#: The seats of the real records: a person, tiers with and without budgets, a yardstick.
SEATINGS = [("human", "mcts"), ("greedy@0.5s", "human"), ("human", "human"),
            ("random", "expert@4s"), ("minimax", "plain-ismcts@1250"), ("human", "expert")]
CANARY = "canary_fuzz"
#: Kinds a stranger might write into a seat line.
KINDS = [
    "venv.__main__:Bot", "os:system", f"{CANARY}:Bot", CANARY, f"{CANARY}.sub:Bot",
    "this:Bot", "this", "venv", "pip", "subprocess:Popen", "builtins:object",
    "solstis_tui.ai.base:RandomBot", "solstis_tui.ai.registry:make_bot", "a.b.c:D.E",
    "mcts@99999999s", "mcts@0.0000001s", "expert@" + "9" * 12, "random@1e9s", "mcts@0s",
    "MCTS", "Expert@2s", "greedy@" + "9" * 11 + "s", "x" * 200, "mcts@fast", "mcts@@2",
    "human", "HUMAN", "", " ", "mcts) (human", "ai.registry", "__import__", "_:_",
    "plain-ismcts@1000001", "plain-ismcts@1000000", "random@60.1s", "random@60s",
]
HUGE = ["9" * 5000, "9" * 4301, "1" + "0" * 80, str(2 ** 256), "-" + str(2 ** 256),
        "\u0663", "0" * 5000 + "1", "1001", "10001", "-1", "00000000000012", "1e9",
        "99999999999999999999", "+5", "0x10", "１２"]
CONTROLS = [c.encode() for c in ("\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x1b[31m",
                                  "\x1b[2J", "\x7f", "\x85", "\x9b", "\u200b", "\u202e",
                                  "\u2028", "\u2029", "\ufeff", "\r", "\t")]
CONTROLS.append(b"\xed\xa0\x80")  # a lone surrogate, which UTF-8 may not hold
NAMES = ["[bold red]x[/]", "A (human)", "(", ")", "B) (mcts", "é" * 5000, "[link=x]y[/]",
         "\u202eevil", "seat 2: X (mcts)"]


def real_records(count: int) -> list[bytes]:
    """``count`` records of games the engine played (random moves), of every seating."""
    out = []
    when = datetime(2026, 12, 4, 17, 30, tzinfo=UTC)
    for i in range(count):
        variant = VARIANTS[i % len(VARIANTS)]
        game = Game.new(1000 + i, Options.for_variant(variant))
        rng = random.Random(i)
        cut = rng.randrange(8, 30) if i % 5 == 4 else None  # some end by resignation
        while not game.is_over and (cut is None or len(game.history) < cut):
            game.play(rng.choice(game.legal_moves()))
        if not game.is_over:
            game.end(EndReason.RESIGNED, game.to_play)
        kinds = SEATINGS[i % len(SEATINGS)]
        seats = (SeatRecord(f"Seat one {i}", kinds[0]), SeatRecord(f"Seat two {i}", kinds[1]))
        out.append(dumps(record_of(game, seats, when, program="solstis fuzz")).encode())
    return out


def mutate(rng: random.Random, text: bytes) -> tuple[bytes, str]:
    """``text`` with one to three mutations; (the bytes, the mutations' names)."""
    data = text
    done = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        how = rng.choices(list(MUTATIONS), weights=[w for w, _ in MUTATIONS.values()])[0]
        data = MUTATIONS[how][1](rng, data)
        done.append(how)
    return data, "+".join(done)


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _seat_kind(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    at = [i for i, line in enumerate(lines) if line.startswith(b"seat ")]
    if not at:
        return data
    i = rng.choice(at)
    name = lines[i].rpartition(b" (")[0]
    lines[i] = name + b" (" + rng.choice(KINDS).encode() + b")"
    return b"\n".join(lines)


def _seat_name(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    at = [i for i, line in enumerate(lines) if line.startswith(b"seat ")]
    if not at:
        return data
    i = rng.choice(at)
    head, _, rest = lines[i].partition(b": ")
    kind = rest.rpartition(b" (")[2]
    lines[i] = head + b": " + rng.choice(NAMES).encode() + b" (" + kind
    return b"\n".join(lines)


def _number(rng: random.Random, data: bytes) -> bytes:
    """A run of digits (a turn, the seed, a score, the count of moves, a budget, a date's
    part) replaced by a huge or odd number."""
    text = data.decode("utf-8", "surrogateescape")
    runs = [(m.start(), m.end()) for m in _DIGITS.finditer(text)]
    if not runs:
        return data
    start, end = rng.choice(runs)
    text = text[:start] + rng.choice(HUGE) + text[end:]
    return text.encode("utf-8", "surrogateescape")


def _control(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(CONTROLS) + data[at:]


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[:rng.randrange(len(data) + 1)]


def _bytes(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not out:
            break
        at = rng.randrange(len(out))
        if rng.random() < 0.5:
            out[at] = rng.randrange(256)
        else:
            out[at:at + rng.randint(0, 8)] = bytes(rng.randrange(256)
                                                   for _ in range(rng.randint(0, 8)))
    return bytes(out)


def _line_ops(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    if len(lines) < 2:
        return data
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    how = rng.randrange(4)
    if how == 0:
        del lines[i]
    elif how == 1:
        lines.insert(j, lines[i])
    elif how == 2:
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines[i] = lines[i] * rng.randint(2, 50)
    return b"\n".join(lines)


_DIGITS = re.compile(r"[0-9]+")
MUTATIONS: dict[str, tuple[int, Any]] = {
    "kind": (30, _seat_kind), "name": (6, _seat_name), "number": (20, _number),
    "control": (10, _control), "truncate": (8, _truncate), "bytes": (14, _bytes),
    "lines": (12, _line_ops),
}


class ImportWatch(importlib.abc.MetaPathFinder):
    """Sees every module the interpreter looks for that is not loaded yet."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def find_spec(self, name: str, path: Any, target: Any = None) -> None:
        self.asked.append(name)
        return None


def through_paths(data: bytes, path: Path, rng: random.Random, judge: bool,
                  tally: Counter[str]) -> None:
    """One mutated record through review, play from here and analyze (see the module's
    docstring); raises whatever escapes the refusals the commands print."""
    path.write_bytes(data)
    err = io.StringIO()
    found = records_cli.load_for_review(str(path), err)  # solstis review FILE
    if found is None:
        assert "line " in err.getvalue() or "cannot read" in err.getvalue(), err.getvalue()
        tally["review refused"] += 1
    else:
        tally["review loaded"] += 1
        record = found[0]
        assert record == loads_bytes(data)
        chances = practice.points(record)
        if chances:  # play from here, as either seat, and the other seat's bot made
            index, seat = rng.randrange(len(chances)), rng.randrange(2)
            session = practice.start(record, index, seat, random.Random(index))
            spec = str(session.setup.seats[1 - seat])
            make_bot(spec, 1)  # what Session.bot or its BotProcess's worker does
            tally["play from here"] += 1
            tally["play from here against another bot, said"] += bool(session.note)
    text_or_error: str | None
    try:
        text_or_error = data.decode("utf-8")
    except UnicodeDecodeError:
        text_or_error = None
    loaded = None
    if text_or_error is not None:
        try:
            loaded = store.load(text_or_error)
            store.summed_seat(text_or_error)
        except store.RecordProblem:
            loaded = None
    if loaded is None:  # the command itself refuses it, with a message
        with contextlib.redirect_stderr(io.StringIO()) as said:
            status = analyze_command.main([str(path), "--workers", "1"])
        assert status == 2 and said.getvalue().startswith("solstis analyze:"), said.getvalue()
        tally["analyze refused"] += 1
    else:
        tally["analyze loaded"] += 1
        if judge:
            game, names = loaded
            analysis.analyse(game, names, 0, analysis.TINY, 1)
            tally["judged"] += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--judge-every", type=int, default=200,
                        help="judge one record that loads in this many (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    bases = real_records(60)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cwd, data_dir, sent, canary = (root / n for n in ("cwd", "data", "sent", "canary"))
        for folder in (cwd, data_dir, sent, canary):
            folder.mkdir()
        (canary / f"{CANARY}.py").write_text(
            "from pathlib import Path\n"
            f"Path({str(canary / 'IMPORTED')!r}).write_text('imported')\n"
            "from solstis_tui.ai.base import RandomBot\n\n"
            "class Bot(RandomBot):\n    name = 'canary'\n")
        sys.path.insert(0, str(canary))
        os.environ["SOLSTIS_DATA_DIR"] = str(data_dir)
        os.chdir(cwd)
        path = sent / "record.solstis"
        tally: Counter[str] = Counter()
        mutations: Counter[str] = Counter()
        # Warm up: every path once with clean records, so what they import lazily is loaded.
        for base in bases[:6]:
            through_paths(base, path, random.Random(0), True, Counter())
        watch = ImportWatch()
        before = set(sys.modules)
        sys.meta_path.insert(0, watch)
        tracebacks: Counter[str] = Counter()
        examples: list[str] = []
        started = time.perf_counter()
        for n in range(args.records):
            data, how = mutate(rng, rng.choice(bases))
            for one in set(how.split("+")):
                mutations[one] += 1
            judge = bool(args.judge_every) and \
                tally["analyze loaded"] % args.judge_every == 0 and \
                tally["judged"] * args.judge_every <= tally["analyze loaded"]
            try:
                through_paths(data, path, rng, judge, tally)
            except (Exception, SystemExit) as exc:  # a traceback, or the program gone
                key = f"{type(exc).__name__} ({how})"
                tracebacks[key] += 1
                if len(examples) < 5:
                    examples.append(f"{key}: {str(exc)[:200]}\n  record: {data[:300]!r}")
            if (n + 1) % 5000 == 0:
                print(f"  {n + 1:,} records, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)
        seconds = time.perf_counter() - started
        sys.meta_path.remove(watch)
        new_modules = sorted(set(sys.modules) - before)
        outside = sorted({m for m in [*watch.asked, *new_modules]
                          if not m.startswith("solstis_tui")})
        written = sorted(str(p.relative_to(root)) for p in (*cwd.rglob("*"),
                                                            *data_dir.rglob("*")))
        canary_hit = (canary / "IMPORTED").exists()
        os.chdir(root.parent)
    print(f"records: {args.records:,} mutated from {len(bases)} real ones, "
          f"{seconds:.0f} s ({seconds / args.records * 1000:.1f} ms a record)")
    print("  records with each mutation: " + ", ".join(
        f"{name} {mutations[name]:,}" for name in MUTATIONS))
    for key in ("review loaded", "review refused", "play from here",
                "play from here against another bot, said", "analyze loaded",
                "analyze refused", "judged"):
        print(f"  {key}: {tally[key]:,}")
    print(f"tracebacks: {sum(tracebacks.values())}")
    for key, count in tracebacks.most_common():
        print(f"  {count:,} {key}")
    for example in examples:
        print(f"  e.g. {example}")
    print(f"imports looked for after warming up: {len(watch.asked)} "
          f"({', '.join(sorted(set(watch.asked))[:10]) or 'none'})")
    print(f"modules loaded after warming up: {len(new_modules)}; from outside the program: "
          f"{len(outside)} ({', '.join(outside[:10]) or 'none'})")
    print(f"canary module imported: {'YES' if canary_hit else 'no'}")
    print(f"files written in the working and data directories: {len(written)} "
          f"({', '.join(written[:10]) or 'none'})")
    bad = sum(tracebacks.values()) + len(outside) + canary_hit + len(written)
    return 1 if bad else 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())

"""Game records at scale: arena games in all three variants, each written as a record by
``solstis arena --records``, then every record read back, replayed in the engine and its
scores matched against the scores the arena itself reported.

Run: python benchmarks/records_roundtrip.py [--games 1000] [--bots random,random@1]
Prints how many records loaded and matched, and how long writing and checking took. Any
record that fails is printed with its file and line, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path

from solstis_tui.ai import arena
from solstis_tui.records import RecordError, read

VARIANTS = ("base", "beginner", "firefly")


def check(folder: Path, figures: dict[str, object]) -> tuple[int, list[str]]:
    """(records that loaded, replayed and match the arena's scores, problems)."""
    games = figures["games"]
    assert isinstance(games, list)
    problems: list[str] = []
    matched = 0
    for game in games:
        task: arena.Task = {"pair": 0, "deal": 0, "bots": tuple(game["bots"]),
                            "variant": figures["settings"]["variant"],  # type: ignore[index]
                            "game_seed": game["game_seed"], "budget": None, "bot_seeds": [],
                            "records": str(folder)}
        path = arena.record_path(task)
        try:
            record = read(path)
        except (RecordError, OSError) as exc:
            problems.append(f"{path}: {exc}")
            continue
        if list(record.scores) != game["scores"] or record.winner != game["winner"]:
            problems.append(f"{path}: scores {record.scores} but the arena said "
                            f"{game['scores']}")
            continue
        matched += 1
    return matched, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games in all (default 1000)")
    parser.add_argument("--bots", default="random,random@1")
    args = parser.parse_args(argv)
    per_variant = -(-args.games // len(VARIANTS))
    total_matched, total, all_problems = 0, 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for variant in VARIANTS:
            folder = Path(tmp) / variant
            figures_path = Path(tmp) / f"{variant}.json"
            start = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                arena.main(["--bots", args.bots, "--games", str(per_variant),
                            "--variant", variant, "--records", str(folder),
                            "--json", str(figures_path)])
            played = time.perf_counter() - start
            figures = json.loads(figures_path.read_text())
            start = time.perf_counter()
            matched, problems = check(folder, figures)
            checked = time.perf_counter() - start
            n = len(figures["games"])
            files = len(list(folder.iterdir()))
            print(f"{variant:8}  {n} games, {files} records; {matched} loaded, replayed and "
                  f"matched their scores; arena {played:.1f} s, check {checked:.2f} s "
                  f"({1000 * checked / max(n, 1):.2f} ms a record)")
            total_matched, total = total_matched + matched, total + n
            all_problems += problems
    print(f"all       {total_matched} of {total} records matched")
    for problem in all_problems:
        print(problem)
    return 1 if all_problems or total_matched != total else 0


if __name__ == "__main__":
    sys.exit(main())

"""Bot strength: each tier against the one below it, and against a fixed textbook yardstick.

    .venv/bin/python benchmarks/bot_strength.py --pairs ladder --games 200 --time 0.25 --jobs 2
    .venv/bin/python benchmarks/bot_strength.py --pairs yardstick --games 400 --seed 3031 --jobs 2
    .venv/bin/python benchmarks/bot_strength.py --pairs scaling --games 200 --seed 4041 --jobs 2

plays each chosen pair with the arena (each deal from both seats) and prints score, the
Wilson 95% interval of the score, margin and whether the target is met (the interval's
centre at or above it). Ladder pairs search for ``--time`` seconds a decision. The
yardstick pairs put a tier, thinking on the clock as the app runs it, against plain
ISMCTS at a fixed number of iterations a decision (``plain-ismcts@1250``, P1250, and
``plain-ismcts@5000``, P5000): deterministic for a seed and the same on every machine, so
the yardstick does not move when our code gets faster. ``--calibrated`` gives the ladder's
search bots iteration budgets measured to take about ``--time`` seconds on this machine
instead of a clock. ``--json`` keeps every figure; ``--records DIR`` writes each pair's
games as a compact CSV record (ai/arena_record.py) from which its row can be recomputed;
``--resume FILE`` keeps the games an earlier ``--json`` FILE with the same seed finished
(after Ctrl-C, or with fewer ``--games``) and plays only the rest of each pair's.
Pairs with an expert use its root-parallel processes (every core): run them with
``--jobs 1`` so that the two bots' time per decision stays what it says.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from solstis_tui import engine_build
from solstis_tui.ai import arena_record
from solstis_tui.ai.arena import (
    checked_games,
    overwrite_problem,
    read_json,
    report,
    resume_line,
    run,
    split_finished,
    tasks_for,
    write_json,
)
from solstis_tui.ai.arena_stats import GameRecord, wilson
from solstis_tui.files import write_atomic


@dataclass(frozen=True)
class Pair:
    """One row: ``stronger`` should score at least ``target`` against ``weaker``."""

    stronger: str
    weaker: str
    target: float
    variant: str = "base"


#: Tier names; their budgets come from ``--time`` (see ``ladder_specs``).
LADDER = {
    "greedy-random": Pair("greedy", "random", 0.60),
    "minimax-greedy": Pair("minimax", "greedy", 0.60),
    "mcts-minimax": Pair("mcts", "minimax", 0.60),
    "mcts-random": Pair("mcts", "random", 0.95),
    "expert-mcts": Pair("expert", "mcts", 0.50),
}

#: Against the knowledge-free yardstick at fixed iterations (P1250 and P5000).
P1250, P5000 = "plain-ismcts@1250", "plain-ismcts@5000"
YARDSTICK = {
    "mcts-p1250": Pair("mcts@0.25s", P1250, 0.65),
    "mcts1s-p5000": Pair("mcts@1s", P5000, 0.65),
    "expert1s-p5000": Pair("expert@1s", P5000, 0.70),
    "expert-mcts-default": Pair("expert", "mcts", 0.65),
    "mcts-p1250-firefly": Pair("mcts@0.25s", P1250, 0.60, "firefly"),
    "mcts-p1250-beginner": Pair("mcts@0.25s", P1250, 0.60, "beginner"),
}
#: What four times the time is worth to one search against itself, to set beside the
#: yardstick targets (research/runs/bots-history.md, "Against plain ISMCTS at equal time").
SCALING = {
    "plain-time": Pair("plain-ismcts@1s", "plain-ismcts@0.25s", 0.50),
    "mcts-time": Pair("mcts@1s", "mcts@0.25s", 0.50),
}
FIXED = {**YARDSTICK, **SCALING}
GROUPS = {"ladder": list(LADDER), "yardstick": list(YARDSTICK), "scaling": list(SCALING),
          "all": [*LADDER, *YARDSTICK, *SCALING]}


Row = tuple[str, Pair, dict[str, Any]]
"""One pair's result: (pair id, the pair, the arena's report of its games)."""


def ladder_specs(seconds: float, calibrated: dict[str, int] | None,
                 expert_factor: int) -> dict[str, str]:
    """Arena spec per tier: with calibration, iterations; else a time budget."""
    if calibrated:
        return {
            "random": "random", "greedy": "greedy",
            "minimax": f"minimax@{calibrated['minimax']}",
            "mcts": f"mcts@{calibrated['mcts']}",
            "expert": f"expert@{calibrated['mcts'] * expert_factor}",
        }
    return {
        "random": "random", "greedy": "greedy", "minimax": f"minimax@{seconds}s",
        "mcts": f"mcts@{seconds}s", "expert": f"expert@{seconds * expert_factor}s",
    }


def chosen_pairs(text: str, names: dict[str, str], variant: str) -> list[tuple[str, Pair]]:
    """The pairs ``--pairs`` names (ids or groups), with the ladder's specs filled in."""
    out = []
    for key in text.split(","):
        for pid in GROUPS.get(key.strip(), [key.strip()]):
            if pid in LADDER:
                p = LADDER[pid]
                out.append((pid, Pair(names[p.stronger], names[p.weaker], p.target, variant)))
            elif pid in FIXED:
                out.append((pid, FIXED[pid]))
            else:
                raise SystemExit(f"unknown pair {pid!r}: choose from "
                                 f"{', '.join([*GROUPS, *LADDER, *FIXED])}")
    return out


#: Flags that make a ladder pair's games (its bots' budgets, its variant's deals).
LADDER_FLAGS = ("time", "calibrated", "expert_factor", "variant")


def earlier_pairs(path: str, args: argparse.Namespace, ladder: bool) -> list[dict[str, Any]]:
    """The pair entries (each with its games) of a JSON file an earlier ``--json`` run
    wrote; SystemExit with the reason when the file cannot be read, is not one, or was
    played with another ``--seed`` (or, with ``ladder`` pairs, other ladder flags)."""
    try:
        data = read_json(path)
        if not isinstance(data, dict) or not isinstance(data.get("args"), dict) or not (
                isinstance(data.get("pairs"), list)
                and all(isinstance(p, dict) and isinstance(p.get("id"), str)
                        for p in data["pairs"])):
            raise ValueError(f"{path} is not a bot_strength.py --json file")
        for entry in data["pairs"]:
            checked_games(entry.get("games"), f"{path} (pair {entry['id']})")
    except ValueError as exc:
        raise SystemExit(f"--resume: {exc}") from None
    before = data["args"]
    differ = [k for k in ("seed", *(LADDER_FLAGS if ladder else ()))
              if before.get(k) != getattr(args, k)]
    if differ:
        raise SystemExit(f"--resume: {path} was played with " + ", ".join(
            f"--{k.replace('_', '-')} {before.get(k)!r}, not {getattr(args, k)!r}"
            for k in differ))
    pairs: list[dict[str, Any]] = data["pairs"]
    return pairs


def write_figures(path: str, args: argparse.Namespace, results: list[Row],
                  earlier: list[dict[str, Any]]) -> None:
    """Write every pair's figures and games to ``path``, keeping the entries of
    ``earlier`` pairs this run has not (yet) played, so that resuming into the same file
    loses nothing."""
    done = {pid for pid, _, _ in results}
    pairs = [{"id": i, "stronger": p.stronger, "weaker": p.weaker, "target": p.target,
              "variant": p.variant, **d} for i, p, d in results]
    pairs += [entry for entry in earlier if entry["id"] not in done]
    write_json(path, {"args": vars(args), "date": str(datetime.date.today()), "pairs": pairs})


def write_record(path: Path, bots: list[str], pair: Pair, seed: int,
                 games: list[GameRecord]) -> None:
    """A pair's games as a compact arena record (ai/arena_record.py)."""
    settings = {"bots": bots, "seed": seed, "variant": pair.variant, "time": None,
                "iterations": None, "target": pair.target,
                "engine": engine_build.STATUS.line, "date": str(datetime.date.today())}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(str(path), arena_record.dumps(settings, games))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pair")
    parser.add_argument("--time", type=float, default=0.25,
                        help="ladder: seconds per decision")
    parser.add_argument("--calibrated", metavar="MINIMAX,MCTS",
                        help="ladder: iteration budgets instead of the clock, e.g. 12,450")
    parser.add_argument("--expert-factor", type=int, default=4,
                        help="ladder: expert's budget as a multiple of mcts's (default 4)")
    parser.add_argument("--pairs", default="ladder",
                        help="pair ids or groups (ladder, yardstick, scaling, all), "
                        "comma-separated")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--variant", default="base", choices=("base", "beginner", "firefly"),
                        help="ladder pairs' variant (the other pairs name their own)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", help="write all figures and games here")
    parser.add_argument("--records", metavar="DIR",
                        help="write each pair's games as a compact record, DIR/PAIR-seedSEED.csv")
    parser.add_argument("--resume", metavar="FILE",
                        help="keep the games an earlier --json FILE (same --seed) finished")
    args = parser.parse_args(argv)
    calibrated = None
    if args.calibrated:
        mm, mc = (int(x) for x in args.calibrated.split(","))
        calibrated = {"minimax": mm, "mcts": mc}
    pairs = chosen_pairs(args.pairs, ladder_specs(args.time, calibrated, args.expert_factor),
                         args.variant)
    ladder = any(pid in LADDER for pid, _ in pairs)
    earlier = earlier_pairs(args.resume, args, ladder) if args.resume else []
    earlier_games = {entry["id"]: entry["games"] for entry in earlier}
    plans = []  # every pair's plan first, so that a refusal comes before any game
    for pid, pair in pairs:
        found = earlier_games.get(pid, [])
        tasks = list(tasks_for([pair.stronger, pair.weaker], args.games, args.seed,
                               pair.variant, None))
        kept, todo = split_finished(tasks, found)
        problem = overwrite_problem(args.resume, args.json, len(found) - len(kept))
        if problem:
            raise SystemExit(f"{pid}: {problem}")
        plans.append((pid, pair, len(found), tasks, kept, todo))
    console = Console(width=max(120, Console().width))
    console.print(f"Engine: {engine_build.STATUS.line}", markup=False, highlight=False)
    results: list[Row] = []
    interrupted = False
    for pid, pair, in_file, tasks, kept, todo in plans:
        bots = [pair.stronger, pair.weaker]
        console.print(f"[bold]{pid}[/]: {bots[0]} vs {bots[1]}, {pair.variant}: "
                      f"{len(tasks)} games")
        if args.resume:
            console.print(resume_line(args.resume, in_file, len(kept), len(todo), len(tasks)),
                          markup=False, highlight=False)
        games, interrupted = run(todo, args.jobs, console)
        data = report(bots, kept + games, {"variant": pair.variant}, interrupted, len(tasks))
        results.append((pid, pair, data))
        if args.json:
            write_figures(args.json, args, results, earlier)
        if args.records:
            write_record(Path(args.records) / f"{pid}-seed{args.seed}.csv", bots, pair,
                         args.seed, data["games"])
        if interrupted:
            break
    table = Table(title=f"Bot strength, seed {args.seed}, {datetime.date.today()}")
    for col in ("pair", "stronger", "weaker", "variant", "games", "W-D-L", "score",
                "95% CI", "margin", "target", "met"):
        table.add_column(col)
    for pid, pair, data in results:
        if not data["pairs"]:  # interrupted before its first game ended
            continue
        row = data["pairs"][0]
        n, score = row["games"], row["a_score"]
        lo, hi = wilson(score, n)
        strict = pair.target == 0.5
        met = (lo + hi) / 2 > pair.target if strict else (lo + hi) / 2 >= pair.target
        table.add_row(pid, row["a"], row["b"], pair.variant, str(n),
                      f"{row['a_wins']}-{row['draws']}-{row['b_wins']}",
                      f"{100 * score:.1f}%", f"[{100 * lo:.1f}, {100 * hi:.1f}]%",
                      f"{row['margin_mean']:+.2f}",
                      f"{'>' if strict else '≥'}{100 * pair.target:.0f}%",
                      "yes" if met else "NO")
    console.print(table)
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())

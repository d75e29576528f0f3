"""What time buys: each search tier, and plain ISMCTS, at budgets from 1/16 s to 4 s a
decision against one fixed yardstick, plain ISMCTS at 1,250 iterations a decision (P1250),
drawn as a chart with its data as CSV.

    .venv/bin/python benchmarks/time_scaling.py --games 40 --seed 7071 \\
        --records benchmarks/records/time_scaling --png docs/time_scaling.png \\
        --csv docs/time_scaling.csv

For each budget (``--budgets``, default 1/16, 1/8, 1/4, 1/2, 1, 2 and 4 seconds a
decision, the cheapest first, so that a run cut short still has whole curves at the low
end) and each tier (``--tiers``, default minimax, mcts, expert and plain-ismcts) it plays
``--games`` games (each deal from both seats) of ``TIER@Bs`` against ``--yardstick`` and
keeps them as a compact arena record, ``RECORDS/TIER-Bs-seedSEED.csv``, rewritten as each
game finishes. Games a record already holds are not played again, so a run interrupted
(Ctrl-C, SIGTERM, even SIGKILL) goes on where it stopped, and ``--games 0`` only draws.
The chart shows each tier's score with its Wilson 95% interval against the budget (log
scale); the CSV one line a point. The expert searches on every core: the script plays its
games one at a time (``--jobs`` is for the others).
Drawing needs matplotlib (``pip install -e ".[chart]"``).
"""

from __future__ import annotations

import argparse
import datetime
import signal
import sys
from pathlib import Path

from rich.console import Console

from solstis_tui import engine_build
from solstis_tui.ai import arena_record
from solstis_tui.ai.arena import deal_seed, run, split_finished, tasks_for
from solstis_tui.ai.arena_stats import GameRecord, pair_results, wilson
from solstis_tui.files import write_atomic

YARDSTICK = "plain-ismcts@1250"
BUDGETS = "0.0625,0.125,0.25,0.5,1,2,4"
TIERS = "minimax,mcts,expert,plain-ismcts"
CSV_COLUMNS = ("tier", "seconds", "yardstick", "games", "score", "low95", "high95")
#: Tiers whose search uses every core: their games are played one at a time.
ALL_CORES = frozenset({"expert"})


def record_path(folder: Path, tier: str, seconds: float, seed: int) -> Path:
    return folder / f"{tier}-{seconds:g}s-seed{seed}.csv"


def kept_games(path: Path) -> list[GameRecord]:
    """The games an earlier run kept at ``path`` (none if there is no record)."""
    if not path.exists():
        return []
    _settings, games = arena_record.loads(path.read_text(encoding="utf-8"), deal_seed)
    return games


def play_point(folder: Path, tier: str, seconds: float, args: argparse.Namespace,
               console: Console) -> list[GameRecord]:
    """The games of one point: those kept, and the rest played now (then kept)."""
    bots = [f"{tier}@{seconds:g}s", args.yardstick]
    path = record_path(folder, tier, seconds, args.seed)
    tasks = list(tasks_for(bots, args.games, args.seed, "base", None))
    kept, todo = split_finished(tasks, kept_games(path))
    if todo:
        console.print(f"{bots[0]} vs {bots[1]}: {len(kept)} games kept, {len(todo)} to play",
                      highlight=False)
        jobs = 1 if tier in ALL_CORES else args.jobs
        settings = {"bots": bots, "seed": args.seed, "variant": "base", "time": None,
                    "iterations": None, "engine": engine_build.STATUS.line,
                    "date": str(datetime.date.today())}
        path.parent.mkdir(parents=True, exist_ok=True)

        def keep(played: list[GameRecord]) -> None:
            write_atomic(str(path), arena_record.dumps(settings, kept + played))

        played, interrupted = run(todo, jobs, console, on_game=keep)
        kept += played
        if interrupted:
            raise KeyboardInterrupt
    return kept


def score(games: list[GameRecord], tier: str, seconds: float,
          yardstick: str) -> tuple[int, float]:
    """(games, the tier's score) of one point's games."""
    if not games:
        return 0, 0.0
    [result] = pair_results(games, [(f"{tier}@{seconds:g}s", yardstick)])
    return result.games, result.a_score


def csv_text(points: dict[str, list[tuple[float, int, float]]], yardstick: str) -> str:
    """One line a point played: the tier, the budget, the games, the score and its Wilson
    95% interval (fractions of 1)."""
    lines = [",".join(CSV_COLUMNS)]
    for tier, rows in points.items():
        for seconds, n, p in rows:
            if n:
                lo, hi = wilson(p, n)
                lines.append(f"{tier},{seconds:g},{yardstick},{n},{p:.4f},{lo:.4f},{hi:.4f}")
    return "\n".join(lines) + "\n"


def draw(points: dict[str, list[tuple[float, int, float]]], png: Path, seed: int,
         yardstick: str) -> None:
    """The chart: each tier's score against the budget, with Wilson 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    for tier, rows in points.items():
        rows = [r for r in rows if r[1]]
        if not rows:
            continue
        xs = [s for s, _, _ in rows]
        ys = [100 * p for _, _, p in rows]
        bounds = [wilson(p, n) for _, n, p in rows]
        low = [y - 100 * lo for y, (lo, _) in zip(ys, bounds, strict=True)]
        high = [100 * hi - y for y, (_, hi) in zip(ys, bounds, strict=True)]
        ax.errorbar(xs, ys, yerr=[low, high], marker="o", capsize=3, label=tier)
    ax.axhline(50, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xscale("log")
    budgets = sorted({s for rows in points.values() for s, n, _ in rows if n})
    ax.set_xticks(budgets, [f"{s:g} s" for s in budgets])
    ax.minorticks_off()
    ax.set_ylim(0, 100)
    ax.set_xlabel("thinking time a decision")
    ax.set_ylabel(f"score against {yardstick} (%)")
    games = sorted({n for rows in points.values() for _, n, _ in rows if n})
    ax.set_title(f"What time buys (games a point: {', '.join(map(str, games))}; "
                 f"seed {seed})", fontsize=10)
    ax.legend()
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiers", default=TIERS)
    parser.add_argument("--budgets", default=BUDGETS, help="seconds, comma-separated")
    parser.add_argument("--yardstick", default=YARDSTICK, help="the fixed opponent's spec")
    parser.add_argument("--games", type=int, default=40, help="games a point (0: draw only)")
    parser.add_argument("--seed", type=int, default=7071)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--records", default="benchmarks/records/time_scaling")
    parser.add_argument("--png", default="docs/time_scaling.png")
    parser.add_argument("--csv", default="docs/time_scaling.csv")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    console = Console()
    console.print(f"Engine: {engine_build.STATUS.line}", markup=False, highlight=False)
    folder = Path(args.records)
    budgets = [float(b) for b in args.budgets.split(",")]
    points: dict[str, list[tuple[float, int, float]]] = {}
    try:
        for seconds in sorted(budgets):
            for tier in args.tiers.split(","):
                games = play_point(folder, tier, seconds, args, console) if args.games \
                    else kept_games(record_path(folder, tier, seconds, args.seed))
                n, p = score(games, tier, seconds, args.yardstick)
                points.setdefault(tier, []).append((seconds, n, p))
                write_atomic(args.csv, csv_text(points, args.yardstick))
                if n:
                    lo, hi = wilson(p, n)
                    console.print(f"{tier} at {seconds:g} s: {100 * p:.1f}% "
                                  f"[{100 * lo:.1f}, {100 * hi:.1f}] over {n} games",
                                  highlight=False)
    except KeyboardInterrupt:
        console.print("Interrupted: the games played so far are kept.")
        return 130
    draw(points, Path(args.png), args.seed, args.yardstick)
    console.print(f"Chart written to {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

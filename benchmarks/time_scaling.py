"""What time buys: each search tier at several budgets against plain ISMCTS at 5,000
iterations a decision (P5000), drawn as a chart.

    .venv/bin/python benchmarks/time_scaling.py --games 40 --seed 7071 \\
        --records benchmarks/records/time_scaling --png docs/time_scaling.png

For each tier (``--tiers``, default minimax, mcts and expert) and each budget
(``--budgets``, default 0.1, 0.25, 1 and 4 seconds a decision) it plays ``--games`` games
(each deal from both seats) of ``TIER@Bs`` against ``plain-ismcts@5000`` and keeps them as
a compact arena record, ``RECORDS/TIER-Bs-seedSEED.csv``. A point whose record already
holds the games is not played again, so an interrupted run goes on where it stopped, and
``--games 0`` only draws. The chart shows each tier's score with its Wilson 95% interval
against the budget (log scale). The expert searches on every core: the script plays one
game at a time (``--jobs`` is for the others). Drawing needs matplotlib
(``pip install -e ".[chart]"``).
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

from rich.console import Console

from solstis_tui import engine_build
from solstis_tui.ai import arena_record
from solstis_tui.ai.arena import deal_seed, run, split_finished, tasks_for
from solstis_tui.ai.arena_stats import GameRecord, pair_results, wilson
from solstis_tui.files import write_atomic

YARDSTICK = "plain-ismcts@5000"
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
    bots = [f"{tier}@{seconds:g}s", YARDSTICK]
    path = record_path(folder, tier, seconds, args.seed)
    tasks = list(tasks_for(bots, args.games, args.seed, "base", None))
    kept, todo = split_finished(tasks, kept_games(path))
    if todo:
        console.print(f"{bots[0]} vs {bots[1]}: {len(kept)} games kept, {len(todo)} to play",
                      highlight=False)
        jobs = 1 if tier in ALL_CORES else args.jobs
        played, interrupted = run(todo, jobs, console)
        kept += played
        settings = {"bots": bots, "seed": args.seed, "variant": "base", "time": None,
                    "iterations": None, "engine": engine_build.STATUS.line,
                    "date": str(datetime.date.today())}
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(str(path), arena_record.dumps(settings, kept))
        if interrupted:
            raise KeyboardInterrupt
    return kept


def score(games: list[GameRecord], tier: str, seconds: float) -> tuple[int, float]:
    """(games, the tier's score) of one point's games."""
    if not games:
        return 0, 0.0
    [result] = pair_results(games, [(f"{tier}@{seconds:g}s", YARDSTICK)])
    return result.games, result.a_score


def draw(points: dict[str, list[tuple[float, int, float]]], png: Path, seed: int) -> None:
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
    ax.set_ylabel("score against plain ISMCTS at 5,000 iterations (%)")
    games = sorted({n for rows in points.values() for _, n, _ in rows if n})
    ax.set_title(f"What time buys (games a point: {', '.join(map(str, games))}; "
                 f"seed {seed})", fontsize=10)
    ax.legend()
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiers", default="minimax,mcts,expert")
    parser.add_argument("--budgets", default="0.1,0.25,1,4", help="seconds, comma-separated")
    parser.add_argument("--games", type=int, default=40, help="games a point (0: draw only)")
    parser.add_argument("--seed", type=int, default=7071)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--records", default="benchmarks/records/time_scaling")
    parser.add_argument("--png", default="docs/time_scaling.png")
    args = parser.parse_args(argv)
    console = Console()
    console.print(f"Engine: {engine_build.STATUS.line}", markup=False, highlight=False)
    folder = Path(args.records)
    budgets = [float(b) for b in args.budgets.split(",")]
    points: dict[str, list[tuple[float, int, float]]] = {}
    try:
        for tier in args.tiers.split(","):
            for seconds in budgets:
                games = play_point(folder, tier, seconds, args, console) if args.games \
                    else kept_games(record_path(folder, tier, seconds, args.seed))
                n, p = score(games, tier, seconds)
                points.setdefault(tier, []).append((seconds, n, p))
                if n:
                    lo, hi = wilson(p, n)
                    console.print(f"{tier} at {seconds:g} s: {100 * p:.1f}% "
                                  f"[{100 * lo:.1f}, {100 * hi:.1f}] over {n} games",
                                  highlight=False)
    except KeyboardInterrupt:
        console.print("Interrupted: the games played so far are kept.")
        return 130
    draw(points, Path(args.png), args.seed)
    console.print(f"Chart written to {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

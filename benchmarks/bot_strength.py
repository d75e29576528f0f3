"""Bot strength: each tier against the one below it (and mcts against random).

    .venv/bin/python benchmarks/bot_strength.py --games 200 --time 0.25 --jobs 2

plays every ladder pair with the arena (each deal from both seats) and prints score,
margin and whether the target of issue 4 is met. ``--calibrated`` gives the search bots
iteration budgets measured to take about ``--time`` seconds on this machine instead of a
clock, so a run is reproducible and unaffected by other load. ``--json`` keeps the data.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from solstis_tui.ai.arena import report, run, tasks_for

#: (stronger, weaker, target share of points for the stronger one).
LADDER = [
    ("greedy", "random", 0.60),
    ("minimax", "greedy", 0.60),
    ("mcts", "minimax", 0.60),
    ("mcts", "random", 0.95),
    ("expert", "mcts", 0.50),
]


def wilson(score: float, n: int) -> tuple[float, float]:
    """95% Wilson interval of a share of points over n games."""
    if not n:
        return 0.0, 1.0
    z = 1.96
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def specs(seconds: float, calibrated: dict[str, int] | None, expert_factor: int) -> dict:
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pair")
    parser.add_argument("--time", type=float, default=0.25, help="seconds per decision")
    parser.add_argument("--calibrated", metavar="MINIMAX,MCTS",
                        help="iteration budgets to use instead of the clock, e.g. 12,450")
    parser.add_argument("--expert-factor", type=int, default=4,
                        help="expert's budget as a multiple of mcts's (default 4)")
    parser.add_argument("--pairs", default="all",
                        help="which ladder pairs, e.g. 'greedy-random,mcts-minimax'")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--variant", default="base", choices=("base", "beginner", "firefly"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", help="write all figures and games here")
    args = parser.parse_args(argv)
    calibrated = None
    if args.calibrated:
        mm, mc = (int(x) for x in args.calibrated.split(","))
        calibrated = {"minimax": mm, "mcts": mc}
    names = specs(args.time, calibrated, args.expert_factor)
    ladder = [p for p in LADDER
              if args.pairs == "all" or f"{p[0]}-{p[1]}" in args.pairs.split(",")]
    console = Console(width=max(120, Console().width))
    results, interrupted = [], False
    for strong, weak, target in ladder:
        bots = [names[strong], names[weak]]
        tasks = list(tasks_for(bots, args.games, args.seed, args.variant, None))
        console.print(f"[bold]{bots[0]} vs {bots[1]}[/]: {len(tasks)} games")
        games, interrupted = run(tasks, args.jobs, console)
        data = report(bots, games, {"variant": args.variant}, interrupted, len(tasks))
        results.append((strong, weak, target, data))
        pair = data["pairs"][0]
        console.print(f"{pair['a']} vs {pair['b']}: {pair['a_wins']}-{pair['draws']}-"
                      f"{pair['b_wins']} over {pair['games']} games, "
                      f"score {100 * pair['a_score']:.1f}%", highlight=False)
        if args.json:
            Path(args.json).write_text(json.dumps(
                {"args": vars(args), "pairs": [
                    {"stronger": s, "weaker": w, "target": t, **d} for s, w, t, d in results
                ]}, indent=1))
        if interrupted:
            break
    table = Table(title=f"Bot strength, {args.variant} game, seed {args.seed}, "
                  f"{datetime.date.today()}")
    for col in ("stronger", "weaker", "games", "W-D-L", "score", "95% CI", "margin",
                "target", "met"):
        table.add_column(col)
    for _strong, _weak, target, data in results:
        pair = data["pairs"][0]
        n, score = pair["games"], pair["a_score"]
        lo, hi = wilson(score, n)
        met = score > target if target == 0.5 else score >= target
        table.add_row(pair["a"], pair["b"], str(n),
                      f"{pair['a_wins']}-{pair['draws']}-{pair['b_wins']}",
                      f"{100 * score:.1f}%", f"[{100 * lo:.0f}, {100 * hi:.0f}]%",
                      f"{pair['margin_mean']:+.2f}", f"{'>' if target == 0.5 else '≥'}"
                      f"{100 * target:.0f}%", "yes" if met else "NO")
    console.print(table)
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())

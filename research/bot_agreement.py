"""Where two bots choose differently: agreement by decision kind, against a long search.

    PYTHONPATH=research:benchmarks .venv/bin/python research/bot_agreement.py \\
        --positions 80 --time 0.25 --reference-factor 8

Samples positions from heuristic self-play (seeded; benchmarks/positions.py), asks bot A and
bot B for their move with ``--time`` seconds each, and a reference bot for its move with
``--reference-factor`` times as long. Prints, per decision kind (play, capture, rainbow,
square, spirit...), how often A and B agree with each other and with the reference. A bot
that agrees with the long search less often on some kind of decision is where its knowledge
misleads it. """

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

from rich.console import Console
from rich.table import Table

from solstis_tui.ai.base import Budget
from solstis_tui.ai.registry import make_bot

from positions import sample_positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="mcts")
    parser.add_argument("--b", default="plain-ismcts")
    parser.add_argument("--reference", default="plain-ismcts")
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--time", type=float, default=0.25)
    parser.add_argument("--reference-factor", type=float, default=8.0)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--variant", default="base", choices=("base", "beginner", "firefly"))
    args = parser.parse_args(argv)
    budget = Budget(seconds=args.time)
    long = Budget(seconds=args.time * args.reference_factor)
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    console = Console()
    for i, g in enumerate(sample_positions(args.positions, args.seed, args.variant)):
        obs = g.observation(g.to_play)
        kind = obs.legal_moves[0].kind.name.lower()
        a = make_bot(args.a, i).choose(obs, budget)
        b = make_bot(args.b, i).choose(obs, budget)
        ref = make_bot(args.reference, 10_000 + i).choose(obs, long)
        for key in (kind, "all"):
            c = counts[key]
            c["n"] += 1
            c["a=b"] += a == b
            c["a=ref"] += a == ref
            c["b=ref"] += b == ref
            c["options"] += len(obs.legal_moves)
        console.print(f"{i + 1}/{args.positions} {kind}", end="\r")
    table = Table(title=f"Agreement at {args.time} s ({args.a}, {args.b}); reference "
                  f"{args.reference} at {args.time * args.reference_factor:g} s, "
                  f"{args.variant}, seed {args.seed}")
    for col in ("decision", "positions", "mean options", "A = B", "A = ref", "B = ref"):
        table.add_column(col, justify="right")
    for key in sorted(counts, key=lambda k: (k == "all", -counts[k]["n"])):
        c = counts[key]
        n = c["n"]
        table.add_row(key, str(n), f"{c['options'] / n:.1f}",
                      *(f"{100 * c[x] / n:.0f}%" for x in ("a=b", "a=ref", "b=ref")))
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

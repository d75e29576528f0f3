"""Bot latency: time per decision, time to stop after a cancel, peak memory, and how long a
key takes to reach the screen while a bot thinks.

    .venv/bin/python benchmarks/bot_latency.py --games 4 --time 0.25 --keys 20

Each tier plays ``--games`` whole games against the random bot (search bots with a
``--time`` budget; only decisions with a real choice are timed). Then each search bot is
started with a 30 s budget and cancelled after a random delay, ``--cancels`` times, and the
time from the cancel to the returned move is measured. Peak memory is the maximum resident
set size of a fresh process that imports the bot and plays one game with it.

``--keys N`` then runs the app in a pseudo-terminal (80x24) against each of the
``--key-tiers``, which opens the game and thinks about its first move for a minute, and
presses each of ``KEYS`` (the spirits' table, the log, help, the new-game dialog, and a key
that is refused while the bot decides) N times, closing each with Esc: the time from the
key to its screen (benchmarks/app_startup.py's harness; Linux). "first" is the first press
of each key: the first opening of a screen (help and the new-game form are built in idle
time after start-up, so it should be no slower than the next ones).
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from solstis_tui.ai.arena_stats import percentile
from solstis_tui.ai.base import Budget, RandomBot
from solstis_tui.ai.registry import make_bot
from solstis_tui.core import Game, Options

TIERS = ("random", "greedy", "minimax", "mcts", "expert", "plain-ismcts")
SEARCH = ("minimax", "mcts", "expert", "plain-ismcts")


def budget_for(tier: str, seconds: float) -> Budget | None:
    return Budget(seconds=seconds) if tier in SEARCH else None


def decision_times(tier: str, games: int, seconds: float, variant: str, seed: int) -> list[float]:
    times = []
    for i in range(games):
        g = Game.new(seed=seed + i, options=Options.for_variant(variant))
        bot, other = make_bot(tier, seed + i), RandomBot(seed + i)
        seat = i % 2
        while not g.is_over:
            legal = g.legal_moves()
            if len(legal) == 1:
                g.play(legal[0])
                continue
            obs = g.observation(g.to_play)
            if g.to_play == seat:
                start = time.perf_counter()
                move = bot.choose(obs, budget_for(tier, seconds))
                times.append(time.perf_counter() - start)
            else:
                move = other.choose(obs)
            g.play(move)
        close_bot(bot)
    return sorted(times)


def close_bot(bot: object) -> None:
    """Stop a bot's worker processes (the expert's), if it has any."""
    close = getattr(bot, "close", None)
    if close is not None:
        close()


def cancel_times(tier: str, count: int, variant: str, seed: int) -> list[float]:
    rand = random.Random(seed)
    out = []
    for i in range(count):
        g = Game.new(seed=seed + i, options=Options.for_variant(variant))
        for _ in range(rand.randrange(0, 30)):
            if g.is_over:
                break
            g.play(rand.choice(g.legal_moves()))
        if g.is_over or len(g.legal_moves()) < 2:
            continue
        stop = threading.Event()
        delay = rand.uniform(0.05, 0.3)
        stamp: list[float] = []

        def fire(stamp=stamp, stop=stop) -> None:
            stamp.append(time.perf_counter())
            stop.set()

        timer = threading.Timer(delay, fire)
        timer.start()
        bot = make_bot(tier, i)
        bot.choose(g.observation(g.to_play), Budget(seconds=30), stop)
        out.append(time.perf_counter() - stamp[0])
        timer.cancel()
        close_bot(bot)
    return sorted(out)


def peak_memory_mb(tier: str, seconds: float, variant: str) -> float:
    """Max RSS of any one process of a fresh run playing one game with ``tier``: the
    run itself, or the largest of its worker processes (the expert's) (MB)."""
    code = (
        "import resource, runpy;"
        f"decision_times = runpy.run_path({__file__!r})['decision_times'];"
        f"decision_times({tier!r}, 1, {seconds}, {variant!r}, 7);"
        "import multiprocessing, time;"
        "[time.sleep(0.1) for _ in range(50) if multiprocessing.active_children()];"
        "print(max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,"
        " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))"
    )
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                          text=True, check=True)
    return int(done.stdout.split()[-1]) / 1024


#: The keys timed while a bot thinks: (key, text its screen shows, the key that undoes it).
#: Screens over the board (spirits, log, help, a new game's dialog) and a refusal line.
KEYS = ((b"e", b"Spirits (pile", b"\x1b"), (b"v", b"Game log", b"\x1b"),
        (b"?", b"All keys", b"\x1b"), (b"n", b"New game of Solstis", b"\x1b"),
        (b"u", b"to take back", b"\x1b"))


def key_rows(presses: int, tiers: list[str]) -> dict[tuple[str, str], dict[str, float]]:
    """Key-to-screen times (ms) for each of ``KEYS`` while a bot of each tier thinks."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from app_startup import key_latency_while_thinking  # this folder's script

    out = {}
    for tier in tiers:
        for key, shows, undo in KEYS:
            pressed = key_latency_while_thinking(presses, key, shows, undo, tier)
            times = sorted(pressed)
            out[(tier, key.decode())] = {"first_ms": 1000 * pressed[0],
                                         "p50_ms": 1000 * percentile(times, 50),
                                         "p95_ms": 1000 * percentile(times, 95),
                                         "max_ms": 1000 * times[-1]}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--time", type=float, default=0.25)
    parser.add_argument("--cancels", type=int, default=20)
    parser.add_argument("--tiers", default=",".join(TIERS))
    parser.add_argument("--variant", default="base", choices=("base", "beginner", "firefly"))
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--keys", type=int, default=0,
                        help="key presses to time in the app while a bot thinks (0: none)")
    parser.add_argument("--key-tiers", default="mcts,expert")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    console = Console(width=max(120, Console().width))
    table = Table(title=f"Bot latency, {args.variant} game, search budget {args.time}s, "
                  f"{datetime.date.today()}")
    for col in ("bot", "decisions", "p50 ms", "p95 ms", "max ms", "cancels", "cancel p95 ms",
                "cancel max ms", "peak MB"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    rows = {}
    for tier in filter(None, args.tiers.split(",")):
        times = decision_times(tier, args.games, args.time, args.variant, args.seed)
        cancels = cancel_times(tier, args.cancels, args.variant, args.seed) \
            if tier in SEARCH else []
        memory = peak_memory_mb(tier, args.time, args.variant)
        row = {
            "decisions": len(times),
            "p50_ms": 1000 * percentile(times, 50), "p95_ms": 1000 * percentile(times, 95),
            "max_ms": 1000 * (times[-1] if times else 0),
            "cancels": len(cancels),
            "cancel_p95_ms": 1000 * percentile(cancels, 95) if cancels else None,
            "cancel_max_ms": 1000 * cancels[-1] if cancels else None,
            "peak_mb": memory,
        }
        rows[tier] = row
        table.add_row(tier, str(row["decisions"]), f"{row['p50_ms']:.1f}",
                      f"{row['p95_ms']:.1f}", f"{row['max_ms']:.1f}", str(len(cancels)),
                      "-" if not cancels else f"{row['cancel_p95_ms']:.1f}",
                      "-" if not cancels else f"{row['cancel_max_ms']:.1f}",
                      f"{memory:.0f}")
        console.print(f"{tier}: done")
    console.print(table)
    keys = key_rows(args.keys, args.key_tiers.split(",")) if args.keys else {}
    if keys:
        key_table = Table(title=f"Key to screen in the app while the bot thinks "
                                f"({args.keys} presses each)")
        for col in ("bot", "key", "first ms", "p50 ms", "p95 ms", "max ms"):
            key_table.add_column(col, justify="left" if col in ("bot", "key") else "right")
        for (tier, key), row in keys.items():
            key_table.add_row(tier, key, f"{row['first_ms']:.0f}", f"{row['p50_ms']:.0f}",
                              f"{row['p95_ms']:.0f}", f"{row['max_ms']:.0f}")
        console.print(key_table)
    console.print(f"(this process peak RSS: "
                  f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"args": vars(args), "bots": rows,
             "keys": {f"{tier} {key}": row for (tier, key), row in keys.items()}}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

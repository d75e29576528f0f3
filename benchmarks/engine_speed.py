"""Engine speed: random full games per second on one core, copy() cost, copy memory, deals.

Run: python benchmarks/engine_speed.py [--games N] [--runs K]
Every decision is taken uniformly at random from legal_moves() and played with Game.play
(which logs every event, as the app, the host, records and replays do); figures are medians
of K runs because this machine's speed drifts by tens of percent.

    python benchmarks/engine_speed.py --builds [--against OTHER/.venv/bin/python ...]

compares builds instead: each round plays the same seeded base games (``--games``, 300 by
default) in a fresh interpreter per build, this install compiled and pure
(``SOLSTIS_PURE=1``) and, with ``--against``, other installs' interpreters (older commits',
say) compiled and pure, the builds alternating so that the machine's drift hits them alike.
It prints each build's median and range of games a second (by the wall clock, and by the
process's CPU time, which other processes' load disturbs less, with its middle half), each
compiled build's lead over its pure one and this one's over the others (medians of the
rounds' ratios, with the middle half of them and their range), and the load average.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable

from solstis_tui.core import Dealer, Game, Options

VARIANTS = {"base": Options(), "beginner": Options(beginner=True),
            "firefly": Options(firefly=True)}


def random_games(options: Options, n: int, seed: int, observe: bool = False,
                 clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds to play ``n`` random games (optionally building an observation per move),
    by ``clock``."""
    rand = random.Random(seed)
    start = clock()
    for i in range(n):
        game = Game.new(seed=seed * 100_000 + i, options=options)
        while not game.is_over:
            if observe:
                game.observation(game.to_play)
            game.play(rand.choice(game.legal_moves()))
    return clock() - start


def midgame(seed: int = 1) -> Game:
    """A game played at random until the land pile holds 4 tiles (late in the game, as the
    figures before secret deals measured: 30 decisions into the old seed 1 deal)."""
    game = Game.new(seed=seed)
    rand = random.Random(seed)
    while len(game.pile) > 4:
        game.play(rand.choice(game.legal_moves()))
    return game


def copy_cost(n: int = 100_000) -> float:
    game = midgame()
    start = time.perf_counter()
    for _ in range(n):
        game.copy()
    return (time.perf_counter() - start) / n


def copy_memory(n: int = 100_000) -> float:
    """MB held by ``n`` live copies of a mid-game state."""
    game = midgame()
    gc.collect()
    tracemalloc.start()
    copies = [game.copy() for _ in range(n)]
    size, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del copies
    return size / 1e6


def deal_costs(n: int = 2_000) -> dict[str, float]:
    """Microseconds per deal: a real game's (keyed BLAKE2b), a format-1 game's (SplitMix64),
    and a bot's imaginary world (determinization, SplitMix draws)."""
    rand = random.Random(1)
    game = midgame()
    dealer = Dealer(game.observation(game.to_play))

    jobs = {
        "Game.new (keyed)": lambda: Game.new(seed=rand.getrandbits(128)),
        "Game.new (legacy SplitMix64)": lambda: Game.new(seed=rand.getrandbits(32),
                                                         legacy=True),
        "bot world (SplitMix64 draws)": lambda: dealer.deal(rand),
    }
    out = {}
    for name, job in jobs.items():
        start = time.perf_counter()
        for _ in range(n):
            job()
        out[name] = (time.perf_counter() - start) / n * 1e6
    return out


def probe(games: int) -> dict[str, float | str]:
    """The base game's figure once, in this process (``--builds`` runs it per build)."""
    from solstis_tui.engine_build import STATUS

    random_games(Options(), 20, seed=9)  # load and warm up first
    return {"engine": "compiled" if STATUS.compiled else "pure",
            "rate": games / random_games(Options(), games, seed=0),
            "cpu": games / random_games(Options(), games, seed=0, clock=time.process_time)}


def measure(python: str, pure: bool, games: int) -> tuple[float, float]:
    """Games a second of one build, in a fresh interpreter (it must be the build asked): by
    the wall clock, and by the process's CPU time (less hit by other processes' load)."""
    env = {**os.environ, "SOLSTIS_PURE": "1" if pure else "0"}
    out = subprocess.run([python, __file__, "--probe", "--games", str(games)], env=env,
                         check=True, capture_output=True, text=True).stdout
    figure = json.loads(out.splitlines()[-1])
    if figure["engine"] != ("pure" if pure else "compiled"):
        raise SystemExit(f"{python} ran the {figure['engine']} engine, not the one asked")
    return float(figure["rate"]), float(figure["cpu"])


def spread(values: list[float], form: str = "{:.2f}") -> str:
    """The middle half of ``values`` (first to third quartile) and their range."""
    low, _, high = (statistics.quantiles(values, n=4, method="inclusive")
                    if len(values) > 1 else values * 3)
    return (f"{form.format(low)}-{form.format(high)}; "
            f"{form.format(min(values))}-{form.format(max(values))}")


def compare_builds(games: int, rounds: int, against: list[str]) -> None:
    """``--builds``: see the module docstring."""
    who = {"this": sys.executable} | {f"other {i + 1}": path for i, path in enumerate(against)}
    builds = {f"{w}, {b}": (path, b == "pure") for w, path in who.items()
              for b in ("compiled", "pure")}
    names = list(builds)
    rates: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    loads = [os.getloadavg()[0]]
    for n in range(rounds):
        for name in names if n % 2 == 0 else names[::-1]:  # alternate the order too
            wall, by_cpu = measure(*builds[name], games)
            rates[name].append(wall)
            cpu[name].append(by_cpu)
        loads.append(os.getloadavg()[0])
        print(f"round {n + 1} of {rounds}: " + ", ".join(
            f"{name} {rates[name][-1]:,.0f} ({cpu[name][-1]:,.0f})" for name in names),
            file=sys.stderr)
    print(f"random base games per second through Game.play, {games} seeded games, "
          f"median of {rounds} rounds (the builds alternating), by the wall clock and "
          f"(in brackets) by CPU time:")
    for w, path in who.items():
        print(f"  {w}: {path}")
    for name in names:
        print(f"  {name:18s} {statistics.median(rates[name]):7,.0f} "
              f"(min {min(rates[name]):,.0f}, max {max(rates[name]):,.0f})  "
              f"[{statistics.median(cpu[name]):,.0f} ({spread(cpu[name], '{:,.0f}')})]")

    def ratio(top: str, bottom: str) -> str:
        out = []
        for figures in (rates, cpu):
            ratios = [t / b for t, b in zip(figures[top], figures[bottom], strict=True)]
            out.append(f"{statistics.median(ratios):.2f}× ({spread(ratios)})")
        return f"{out[0]}  [{out[1]}]"

    print("  ratios: median of the rounds' (the middle half of them; their range)")
    for w in who:
        print(f"  {w}: compiled / pure {ratio(f'{w}, compiled', f'{w}, pure')}")
    for w in list(who)[1:]:
        print(f"  compiled, this / {w}: {ratio('this, compiled', f'{w}, compiled')}")
    print(f"  load average (1 min) over the rounds: {min(loads):.1f}-{max(loads):.1f} "
          f"on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None,
                        help="games per run (500; with --builds 300)")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure")
    parser.add_argument("--builds", action="store_true",
                        help="compare builds (compiled, pure, --against) instead")
    parser.add_argument("--rounds", type=int, default=9, help="rounds of --builds")
    parser.add_argument("--against", metavar="PYTHON", action="append", default=[],
                        help="with --builds: another install's interpreter (repeatable)")
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        print(json.dumps(probe(args.games)))
        return
    if args.builds:
        compare_builds(args.games or 300, args.rounds, args.against)
        return
    args.games = args.games or 500
    print(f"random full games per second, one core, median of {args.runs} runs "
          f"of {args.games} games:")
    for name, options in VARIANTS.items():
        rates = [args.games / random_games(options, args.games, seed=r)
                 for r in range(args.runs)]
        print(f"  {name:9s} {statistics.median(rates):7.0f} games/s "
              f"(min {min(rates):.0f}, max {max(rates):.0f})")
    rates = [args.games / random_games(Options(), args.games, seed=r, observe=True)
             for r in range(args.runs)]
    print(f"  base, with an observation built before every decision: "
          f"{statistics.median(rates):.0f} games/s")
    costs = [copy_cost(20_000) for _ in range(args.runs)]
    print(f"copy(): {statistics.median(costs) * 1e6:.2f} µs per copy (mid-game)")
    print(f"memory: 100,000 mid-game copies hold {copy_memory():.0f} MB")
    for name, cost in deal_costs().items():
        print(f"deal: {name}: {cost:.1f} µs")


if __name__ == "__main__":
    main()

"""Engine speed: random full games per second on one core, copy() cost, copy memory, deals.

Run: python benchmarks/engine_speed.py [--games N] [--runs K]
Every decision is taken uniformly at random from legal_moves(); figures are medians of K
runs because this machine's speed drifts by tens of percent.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
import tracemalloc

from solstis_tui.core import Dealer, Game, Options

VARIANTS = {"base": Options(), "beginner": Options(beginner=True),
            "firefly": Options(firefly=True)}


def random_games(options: Options, n: int, seed: int, observe: bool = False) -> float:
    """Seconds to play ``n`` random games (optionally building an observation per move)."""
    rand = random.Random(seed)
    start = time.perf_counter()
    for i in range(n):
        game = Game.new(seed=seed * 100_000 + i, options=options)
        while not game.is_over:
            if observe:
                game.observation(game.to_play)
            game.play(rand.choice(game.legal_moves()))
    return time.perf_counter() - start


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure")
    args = parser.parse_args()
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

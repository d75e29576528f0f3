"""Rating farming, before and after the host's rules against it (docs/ratings.md).

Run: python benchmarks/rating_farming.py [--games 100]

Every game goes through the host's own ``Ratings`` (its SQLite file in a temporary
folder, the same rules the host applies when the second player sits down), on the
test's clock: no game is played, only results are stored. "Before" replays the same
results under the rules the host had until now (every rated game between two identities
counts, three a day per pair, bots included; everyone rated is on the leaderboard).
Printed, for each scenario: each accomplice's highest rating, whether they are on the
leaderboard, and how many games counted; then how many games against the bots a newcomer
needs to settle, and how close three honest players end to plain Glicko-2 after a month.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from collections.abc import Iterable
from pathlib import Path

from solstis_tui.host.glicko2 import RATING_PERIOD, Rating, rate
from solstis_tui.host.rating_rules import (
    BOARD_RD,
    PAIR_GAMES_PER_DAY,
    PAIR_WINDOW,
    Played,
    missing_for_board,
)
from solstis_tui.host.ratings import Ratings, bot_starts, result_of

DAY = 24 * 3600.0
START = 1_000_000.0
Game = tuple[str, str, int, float]  # seat 1's identity, seat 2's, the winning seat, when


class Before:
    """The rules the host had before: Glicko-2 per game, three a day per pair of
    identities (bots too), everyone rated listed."""

    def __init__(self) -> None:
        self.ratings: dict[str, Rating] = dict(bot_starts())
        self.last: dict[str, float] = {}
        self.counted: list[tuple[frozenset[str], float]] = []

    def record(self, a: str, b: str, winner: int, when: float) -> bool:
        pair = frozenset((a, b))
        if sum(p == pair and when - t < PAIR_WINDOW for p, t in self.counted) >= \
                PAIR_GAMES_PER_DAY:
            return False
        now = [self.ratings.get(i, Rating()).idle((when - self.last[i]) // RATING_PERIOD)
               if i in self.last else self.ratings.get(i, Rating()) for i in (a, b)]
        score = 1.0 if winner == 0 else 0.0
        self.ratings[a] = rate(now[0], [(now[1], score)])
        self.ratings[b] = rate(now[1], [(now[0], 1.0 - score)])
        self.last[a] = self.last[b] = when
        self.counted.append((pair, when))
        return True


def replay(games: Iterable[Game], watch: tuple[str, ...]) -> dict[str, dict[str, object]]:
    """The games under both rule sets: for each identity in ``watch``, its highest rating,
    its rating and whether it is listed at the end, and the games that counted."""
    games = list(games)
    before, highest = Before(), {}
    with tempfile.TemporaryDirectory() as folder:
        after = Ratings(Path(folder))
        after.open()
        try:
            counted = {"before": 0, "after": 0}
            for i, (a, b, winner, when) in enumerate(games):
                counted["before"] += before.record(a, b, winner, when)
                change = after.record_now(result_of(f"g{i}", (a, b), winner, finished=when))
                counted["after"] += bool(change and change.counted)
                for rules, rating in (("before", before.ratings), ("after", after.known)):
                    for who in watch:
                        r = rating.get(who, Rating()).rating
                        highest[rules, who] = max(highest.get((rules, who), r), r)
            end = games[-1][3]
            figures: dict[str, dict[str, object]] = {}
            for who in watch:
                now = after.rating_now(who, end) or Rating()
                figures[who] = {
                    "before": (highest["before", who],
                               before.ratings.get(who, Rating()).rating, True),
                    "after": (highest["after", who], now.rating, not missing_for_board(
                        after.played.get(who, Played()), now, end)),
                }
            figures["counted"] = counted
            return figures
        finally:
            after.close()


def show(title: str, figures: dict[str, dict[str, object]], watch: tuple[str, ...]) -> None:
    counted = figures["counted"]
    print(f"\n{title}")
    for rules in ("before", "after"):
        parts = []
        for who in watch:
            high, end, listed = figures[who][rules]  # type: ignore[misc]
            parts.append(f"{who[4:]} highest {high:.0f}, end {end:.0f}"
                         f"{', on the board' if listed else ', not on the board'}")
        print(f"  {rules:<6}  " + " · ".join(parts) + f"  ({counted[rules]} counted)")


def pair_games(count: int, start: float, hours: float = 24.0) -> list[Game]:
    """Ann beats Bob ``count`` times, evenly over ``hours`` from ``start``."""
    step = hours * 3600.0 / count
    return [("key:Ann", "key:Bob", 0, start + i * step) for i in range(count)]


def settles(how: str, games: int = 14) -> list[Game]:
    """Bob plays a bot ``games`` times in the hour before the farming: "beats" the random
    bot every time, "throws" every game to it, "halves" (wins every other game against
    it: quick play, a random move each time, does about that), or "draws" the greedy bot
    (every other game won: a player as strong as it)."""
    bot = "bot:greedy" if how == "draws" else "bot:random"
    winner = {"beats": lambda i: 0, "throws": lambda i: 1}.get(how, lambda i: i % 2)
    return [("key:Bob", bot, winner(i), START - 3600 + i * 60) for i in range(games)]


def games_to_settle() -> None:
    """How many games against the bots a newcomer needs to leave "?" and to reach the
    leaderboard's deviation, for a newcomer who draws the greedy bot and one who beats
    and loses to the bots in turn."""
    print("\nGames a newcomer needs against the bots (deviation 350 at the start):")
    mixes = {"draws with greedy": lambda i: ("greedy", 0.5),
             "wins and losses, random/greedy/minimax": lambda i: (
                 ("random", "greedy", "minimax")[i % 3], float(i % 2))}
    bots = bot_starts()
    for name, game in mixes.items():
        rating, provisional_until, board_at = Rating(), None, None
        for i in range(200):
            tier, score = game(i)
            rating = rate(rating, [(bots[f"bot:{tier}"], score)])
            if provisional_until is None and not rating.provisional:
                provisional_until = i + 1
            if board_at is None and rating.rd < BOARD_RD:
                board_at = i + 1
        print(f"  {name:<40} no '?' after {provisional_until}, deviation under "
              f"{BOARD_RD:.0f} after {board_at}")


def honest_month(seed: int = 11) -> None:
    """Three players of known strength play two bots a day each and each other once a
    day for 30 days: their ratings under both rule sets."""
    rand = random.Random(seed)
    strength = {"key:Cat": 1350.0, "key:Dan": 1550.0, "key:Eve": 1750.0}
    strength.update({bot: r.rating for bot, r in bot_starts().items()})
    people = ("key:Cat", "key:Dan", "key:Eve")
    games: list[Game] = []
    for day in range(30):
        pairs = [(p, rand.choice(list(bot_starts()))) for p in people for _ in range(2)]
        pairs += [(a, b) for i, a in enumerate(people) for b in people[i + 1:]]
        rand.shuffle(pairs)
        for k, (a, b) in enumerate(pairs):
            expected = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
            games.append((a, b, 0 if rand.random() < expected else 1,
                          START + day * DAY + k * 1800.0))
    figures = replay(games, people)
    print("\nThree honest players, a month (strengths 1350, 1550, 1750):")
    for who in people:
        end_before, end_after = figures[who]["before"][1], figures[who]["after"][1]  # type: ignore[index]
        listed = figures[who]["after"][2]  # type: ignore[index]
        print(f"  {who[4:]:<4} strength {strength[who]:.0f}: before {end_before:.0f}, "
              f"after {end_after:.0f} ({end_after - end_before:+.0f}), "
              f"{'on the board' if listed else 'not on the board'}")
    counted = figures["counted"]
    print(f"  games counted: before {counted['before']}, after {counted['after']} "
          f"of {len(games)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100,
                        help="quick rated games the pair plays in 24 hours")
    args = parser.parse_args()
    pair = ("key:Ann", "key:Bob")
    print(f"Pair cap {PAIR_GAMES_PER_DAY} a day; leaderboard: see docs/ratings.md.")
    for count in (3, args.games):
        show(f"Two fresh keys, Ann beats Bob {count} times in 24 hours:",
             replay(pair_games(count, START), pair), pair)
    for how, what in (("beats", "beats the random bot"),
                      ("throws", "throws to the random bot"),
                      ("halves", "wins and loses in turn against the random bot"),
                      ("draws", "wins and loses in turn against the greedy bot")):
        show(f"Bob first {what} 14 times, then Ann beats Bob {args.games} times in 24 "
             "hours:", replay(settles(how) + pair_games(args.games, START), pair), pair)
    show(f"Bob settled so, Ann beats him {args.games} times a day for 30 days:",
         replay(settles("draws") + [g for day in range(30) for g in pair_games(
             args.games, START + day * DAY)], pair), pair)
    games_to_settle()
    honest_month()


if __name__ == "__main__":
    main()

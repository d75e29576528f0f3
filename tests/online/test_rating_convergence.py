"""Honest players' ratings still converge under the rules against farming: three players of
known strength, playing the bots and each other for a month, end near their strength, near
where plain Glicko-2 (every game counted, as before these rules) puts them, and on the
leaderboard."""

from __future__ import annotations

import random

from solstis_tui.host.glicko2 import RATING_PERIOD, Rating, rate
from solstis_tui.host.rating_rules import missing_for_board
from solstis_tui.host.ratings import Ratings, bot_starts, result_of

DAY = 24 * 3600.0
STRENGTH = {"key:Cat": 1350.0, "key:Dan": 1550.0, "key:Eve": 1750.0}
BOTS = [f"bot:{tier}" for tier in ("random", "greedy", "minimax", "mcts", "expert")]


def month_of_games(seed: int = 11, days: int = 30) -> list[tuple[str, str, int, float]]:
    """Each day, each player plays two bots (chosen at random) and each pair plays once;
    who wins follows the Elo expectation of their strengths (a bot's: its start).
    (identity at seat 1, at seat 2, winning seat, when)."""
    rand = random.Random(seed)
    strength = {**STRENGTH, **{bot: r.rating for bot, r in bot_starts().items()}}
    people = sorted(STRENGTH)
    games = []
    for day in range(days):
        pairs = [(p, rand.choice(BOTS)) for p in people for _ in range(2)]
        pairs += [(a, b) for i, a in enumerate(people) for b in people[i + 1:]]
        rand.shuffle(pairs)
        for k, (a, b) in enumerate(pairs):
            expected = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
            games.append((a, b, 0 if rand.random() < expected else 1,
                          1_000_000.0 + day * DAY + k * 1800.0))
    return games


def plain_glicko(games: list[tuple[str, str, int, float]]) -> dict[str, Rating]:
    """Every game counted, each its own rating period after the idle days' widening, as
    the host did before its rules against farming (no pair here plays 4 times a day)."""
    ratings, last = dict(bot_starts()), {}
    for a, b, winner, when in games:
        now = [ratings.get(i, Rating()).idle((when - last[i]) // RATING_PERIOD)
               if i in last else ratings.get(i, Rating()) for i in (a, b)]
        score = 1.0 if winner == 0 else 0.0
        ratings[a] = rate(now[0], [(now[1], score)])
        ratings[b] = rate(now[1], [(now[0], 1.0 - score)])
        last[a] = last[b] = when
    return ratings


def test_three_honest_players_converge_as_plain_glicko_does_and_reach_the_board(tmp_path):
    games = month_of_games()
    ratings = Ratings(tmp_path)
    ratings.open()
    try:
        changes = [ratings.record_now(result_of(f"g{i}", (a, b), w, finished=when))
                   for i, (a, b, w, when) in enumerate(games)]
        unrated = [game for game, change in zip(games, changes, strict=True)
                   if not change.counted]
        # played unrated: only games between the people while both were provisional
        assert {change.why for change in changes if not change.counted} == {
            "both ratings were provisional (?)"}
        assert all(game[3] < games[0][3] + 10 * DAY for game in unrated)
        assert len(unrated) < 0.1 * len(games)
        before = plain_glicko(games)
        end = games[-1][3]
        for who, strength in STRENGTH.items():
            now = ratings.rating_now(who, end)
            assert abs(now.rating - strength) < 2 * now.rd, (who, now)  # near its strength
            assert abs(now.rating - before[who].rating) < 30, (who, now, before[who])
            assert missing_for_board(ratings.played[who], now, end) == [], who
        order = sorted(STRENGTH, key=lambda who: ratings.rating(who).rating)
        assert order == sorted(STRENGTH, key=STRENGTH.__getitem__)
    finally:
        ratings.close()

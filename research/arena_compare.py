"""Compare two arena runs game by game: how much better one bot did than another against
the same opponent on the same deals.

``.venv/bin/python research/arena_compare.py A.csv B.csv``, where each file is an arena
``--record`` (CSV, ``ai/arena_record.py``) or ``--json`` of one pair, its first bot the one
judged (``--bots X@1s,plain-ismcts@1s``), and both runs used the same seed and variant, so
that a game of A and a game of B with the same deal seed and the same seat for the judged
bot were dealt the same tiles. Pairing the games takes out the deals' luck, which is most of
a score's noise in this game. A record keeps no deal seeds: they are made again from the
run's seed and variant (``arena.deal_seed``), as the arena made them.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any

from solstis_tui.ai import arena_record
from solstis_tui.ai.arena import deal_seed, load_games
from solstis_tui.ai.arena_stats import GameRecord, mean_ci, pair_results, points, wilson

#: Settings two compared runs must share for their games to be the same deals.
SAME_FOR_COMPARE = ("seed", "variant")

Key = tuple[int, int]
"""A game's deal seed and the judged bot's seat."""


@dataclass(frozen=True)
class Run:
    """One arena run of a judged bot against an opponent, its games by deal and seat."""

    path: str
    bot: str
    opponent: str
    settings: dict[str, Any]
    games: dict[Key, GameRecord]


def outcome(game: GameRecord, bot: str) -> tuple[float, int]:
    """``bot``'s points (1, ½, 0) and star margin in ``game``."""
    seat = game["bots"].index(bot)
    return points(game, seat), game["scores"][seat] - game["scores"][1 - seat]


def load_run(path: str) -> tuple[dict[str, Any], list[GameRecord]]:
    """(settings, games) of an arena ``--record`` or ``--json`` file; ValueError saying why
    when it is neither."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from None
    if text.startswith(arena_record.MAGIC):
        try:
            return arena_record.loads(text, deal_seed)
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}: {exc}") from None
    try:
        return load_games(path)
    except ValueError as exc:
        raise ValueError(f"{exc}; nor is it an arena --record file (whose first line is "
                         f"{arena_record.MAGIC!r})") from None


def read_run(path: str) -> Run:
    """The run in ``path``; ValueError saying why when it is not an arena file of one pair."""
    settings, games = load_run(path)
    bots = settings.get("bots")
    if not isinstance(bots, list) or len(bots) != 2 or not all(isinstance(b, str) for b in bots):
        raise ValueError(f"{path}: compare needs a run of exactly two bots, the judged one "
                         f"first (--bots X,OPPONENT); this one has {bots!r}")
    bot, opponent = bots
    by_key: dict[Key, GameRecord] = {}
    for game in games:
        if sorted(game["bots"]) != sorted(bots):
            raise ValueError(f"{path}: a game between {' and '.join(game['bots'])} is not "
                             f"one of its run's pair ({bot} against {opponent})")
        by_key[(game["game_seed"], game["bots"].index(bot))] = game
    return Run(path, bot, opponent, settings, by_key)


@dataclass(frozen=True)
class Comparison:
    """A's judged bot against B's on the games both runs played."""

    games: int
    a_score: float
    b_score: float
    points_diff: tuple[float, tuple[float, float]]
    """Mean and 95% interval of A's points minus B's per game (−1 to 1)."""
    margin_diff: tuple[float, tuple[float, float]]
    """Mean and 95% interval of A's star margin minus B's per game."""


#: A game is close when its margin is at most this many stars (a draw included).
CLOSE = 3


def share(results: list[tuple[float, int]]) -> float:
    """The share of the points in ``results`` (0 for none)."""
    return sum(p for p, _ in results) / len(results) if results else 0.0


def compare(a: Run, b: Run) -> Comparison:
    """The paired comparison of ``a`` and ``b``; ValueError when they cannot be paired
    (another opponent, seed or variant, or no deal and seat in common)."""
    if a.opponent != b.opponent:
        raise ValueError(f"the runs face different opponents ({a.opponent} in {a.path}, "
                         f"{b.opponent} in {b.path}); compare runs against the same one")
    differ = [k for k in SAME_FOR_COMPARE if a.settings.get(k) != b.settings.get(k)]
    if differ:
        said = "; ".join(f"{k} {a.settings.get(k)} in {a.path}, {b.settings.get(k)} in {b.path}"
                         for k in differ)
        raise ValueError(f"the runs dealt different games ({said})")
    keys = sorted(set(a.games) & set(b.games))
    if not keys:
        raise ValueError(f"no game of {a.path} has a deal and seat that {b.path} also played")
    ra = [outcome(a.games[k], a.bot) for k in keys]
    rb = [outcome(b.games[k], b.bot) for k in keys]
    return Comparison(
        len(keys),
        share(ra),
        share(rb),
        mean_ci([x[0] - y[0] for x, y in zip(ra, rb, strict=True)]),
        mean_ci([float(x[1] - y[1]) for x, y in zip(ra, rb, strict=True)]),
    )


def run_lines(name: str, run: Run) -> list[str]:
    """One run's record over all its games, e.g. "A: mcts@1s vs plain-ismcts@1s (FILE)",
    "   200 games, 95-5-100, 48.8% (41.9-55.6%), margin +1.58 (+0.03, +3.13)", and its
    close games and seats."""
    [r] = pair_results(list(run.games.values()), [(run.bot, run.opponent)])
    lo, hi = wilson(r.a_score, r.games)
    mlo, mhi = r.margin_ci95
    close = [x for x in (outcome(g, run.bot) for g in run.games.values()) if abs(x[1]) <= CLOSE]
    seats = [share([outcome(g, run.bot) for (_, seat), g in run.games.items() if seat == s])
             for s in (0, 1)]
    return [f"{name}: {run.bot} vs {run.opponent} ({run.path})",
            f"   {r.games} games, {r.a_wins}-{r.draws}-{r.b_wins}, {100 * r.a_score:.1f}% "
            f"({100 * lo:.1f}-{100 * hi:.1f}%), margin {r.margin_mean:+.2f} "
            f"({mlo:+.2f}, {mhi:+.2f})",
            f"   close games (≤ {CLOSE} stars) {100 * share(close):.0f}% of {len(close)}; "
            f"seat 1 {100 * seats[0]:.1f}%, seat 2 {100 * seats[1]:.1f}%"]


def report(a: Run, b: Run, c: Comparison) -> list[str]:
    """The comparison as lines of plain text."""
    (dp, (plo, phi)), (dm, (mlo, mhi)) = c.points_diff, c.margin_diff
    return [
        *run_lines("A", a),
        *run_lines("B", b),
        f"On the {c.games} games both played (the same deal, the judged bot in the same seat):",
        f"  A scored {100 * c.a_score:.1f}%, B {100 * c.b_score:.1f}%",
        f"  A - B: {100 * dp:+.1f} ± {50 * (phi - plo):.1f} points in 100 games, "
        f"{dm:+.2f} ± {(mhi - mlo) / 2:.2f} stars a game (95%)",
    ]


def main(argv: list[str] | None = None) -> int:
    """Compare the two runs ``argv`` names; 0, or 2 with a message when they cannot be."""
    parser = argparse.ArgumentParser(
        prog="research/arena_compare.py",
        description="Pair two arena runs, --record or --json files (X against O, Y against "
        "O, the same seed and variant), by deal and seat, and say how much better X did "
        "than Y.")
    parser.add_argument("a", metavar="A.csv", help="the run of the bot to judge")
    parser.add_argument("b", metavar="B.csv", help="the run to judge it against")
    args = parser.parse_args(argv)
    try:
        a, b = read_run(args.a), read_run(args.b)
        comparison = compare(a, b)
    except ValueError as exc:
        parser.error(str(exc))
    print("\n".join(report(a, b, comparison)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

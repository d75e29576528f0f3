"""The arena's figures: per-pair results, Elo with bootstrap intervals, move times."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypedDict


class GameRecord(TypedDict):
    """A finished game as the arena records it (JSON-friendly)."""

    pair: int
    deal: int
    bots: list[str]
    """The two bots' specs, by seat."""
    game_seed: int
    winner: int | None
    scores: list[int]
    end: str | None
    """Why the game ended (steps.END_*), or ``forfeit (...)``."""
    times: list[list[float]]
    """Per seat, the seconds each decision with a real choice took."""


def _whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def record_problem(game: object) -> str | None:
    """What is wrong with ``game`` as a ``GameRecord`` read back from JSON (None: nothing).
    The figures index every field, so a record is checked whole before it is used."""
    if not isinstance(game, dict):
        return "is not an object"
    missing = [k for k in GameRecord.__annotations__ if k not in game]
    if missing:
        return "has no " + ", ".join(missing)
    checks = {
        "pair": _whole(game["pair"]),
        "deal": _whole(game["deal"]),
        "bots": isinstance(game["bots"], list) and len(game["bots"]) == 2
        and all(isinstance(b, str) for b in game["bots"]),
        "game_seed": _whole(game["game_seed"]),
        "winner": game["winner"] is None or (_whole(game["winner"]) and game["winner"] in (0, 1)),
        "scores": isinstance(game["scores"], list) and len(game["scores"]) == 2
        and all(_whole(x) for x in game["scores"]),
        "end": game["end"] is None or isinstance(game["end"], str),
        "times": isinstance(game["times"], list) and len(game["times"]) == 2
        and all(isinstance(seat, list) and all(
            isinstance(t, (int, float)) and not isinstance(t, bool) for t in seat)
            for seat in game["times"]),
    }
    bad = [k for k, ok in checks.items() if not ok]
    return "has a malformed " + ", ".join(bad) if bad else None


@dataclass(frozen=True)
class PairResult:
    a: str
    b: str
    games: int
    a_wins: int
    draws: int
    b_wins: int
    a_score: float
    """a's share of the points, draws counted as half."""
    margin_mean: float
    """Mean star margin, a minus b."""
    margin_ci95: tuple[float, float]


@dataclass(frozen=True)
class Rating:
    elo: float
    ci95: tuple[float, float]
    games: int


@dataclass(frozen=True)
class Latency:
    decisions: int
    p50_ms: float
    p95_ms: float
    max_ms: float


def points(game: GameRecord, seat: int) -> float:
    """1 for a win of ``seat``, 0.5 for a draw, 0 for a loss."""
    winner = game["winner"]
    return 0.5 if winner is None else float(winner == seat)


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Mean and a normal-approximation 95% interval."""
    n = len(values)
    if not n:
        return 0.0, (0.0, 0.0)
    mean = sum(values) / n
    if n < 2:
        return mean, (mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


def wilson(score: float, n: int) -> tuple[float, float]:
    """95% Wilson interval of a share of points over n games."""
    if not n:
        return 0.0, 1.0
    z = 1.96
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def pair_results(games: list[GameRecord], pairs: list[tuple[str, str]]) -> list[PairResult]:
    out = []
    for a, b in pairs:
        wins = draws = losses = 0
        margins = []
        for g in games:
            if set(g["bots"]) != {a, b}:
                continue
            seat = g["bots"].index(a)
            p = points(g, seat)
            wins += p == 1.0
            draws += p == 0.5
            losses += p == 0.0
            margins.append(g["scores"][seat] - g["scores"][1 - seat])
        n = wins + draws + losses
        mean, ci = mean_ci(margins)
        score = (wins + 0.5 * draws) / n if n else 0.0
        out.append(PairResult(a, b, n, wins, draws, losses, score, mean, ci))
    return out


def _fit(bots: list[str], games: list[GameRecord], prior: float = 1.0) -> dict[str, float]:
    """Bradley-Terry strengths by minorization-maximization, draws as half a win each;
    ``prior`` virtual draws per pair keep a perfect record finite. Elo, mean 1500."""
    index = {b: i for i, b in enumerate(bots)}
    k = len(bots)
    wins = [0.0] * k
    count = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            count[i][j] = count[j][i] = prior
            wins[i] += prior / 2
            wins[j] += prior / 2
    for g in games:
        i, j = index[g["bots"][0]], index[g["bots"][1]]
        count[i][j] += 1
        count[j][i] += 1
        wins[i] += points(g, 0)
        wins[j] += points(g, 1)
    gamma = [1.0] * k
    for _ in range(200):
        new = []
        for i in range(k):
            denom = sum(count[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i)
            new.append(wins[i] / denom if denom else gamma[i])
        scale = math.exp(sum(math.log(x) for x in new) / k)
        gamma = [x / scale for x in new]
    return {b: 1500 + 400 * math.log10(gamma[index[b]]) for b in bots}


def elo_ratings(
    bots: list[str], games: list[GameRecord], resamples: int = 200, seed: int = 0
) -> dict[str, Rating]:
    """Elo per bot (mean 1500) with a percentile-bootstrap 95% interval over games."""
    played = {b: sum(b in g["bots"] for g in games) for b in bots}
    if len(bots) < 2:
        return {b: Rating(1500.0, (1500.0, 1500.0), played[b]) for b in bots}
    point = _fit(bots, games)
    rand = random.Random(seed)
    samples: dict[str, list[float]] = {b: [] for b in bots}
    for _ in range(resamples if games else 0):
        fit = _fit(bots, [rand.choice(games) for _ in games])
        for b in bots:
            samples[b].append(fit[b])
    out = {}
    for b in bots:
        s = sorted(samples[b])
        ci = (s[int(0.025 * len(s))], s[int(0.975 * (len(s) - 1))]) if s else (point[b],) * 2
        out[b] = Rating(point[b], ci, played[b])
    return out


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of already sorted values (0 for none)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def latencies(bots: list[str], games: list[GameRecord]) -> dict[str, Latency]:
    out = {}
    for b in bots:
        times = sorted(t for g in games for seat, name in enumerate(g["bots"])
                       if name == b for t in g["times"][seat])
        out[b] = Latency(
            len(times),
            1000 * percentile(times, 50),
            1000 * percentile(times, 95),
            1000 * (times[-1] if times else 0.0),
        )
    return out


def as_data(obj: Any) -> dict[str, Any]:
    """A dataclass as plain JSON-ready data."""
    return asdict(obj)

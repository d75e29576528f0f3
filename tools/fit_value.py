"""Fit the learned value (ai/value.py) to heuristic self-play games.

    .venv/bin/python tools/fit_value.py --games 20000 --seed 1 --jobs 2

For each variant it plays ``--games`` games with the epsilon-greedy heuristic that MCTS
uses in its playouts (each player's epsilon drawn per game from ``EPSILONS``, or from
``--epsilons``, so that clumsy, scattered panoramas like a random player's are in the
data too), notes both players' features at the start of every turn, and fits the final
star margin by least squares and the win by logistic regression (draws count half). A
further tenth of the games, never fitted, measures the result; the figures are printed
beside those of the hand-written ``ai.evaluate`` and kept in the weights file.
Needs numpy (``pip install -e ".[fit]"``).
"""

from __future__ import annotations

import argparse
import datetime
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import Progress

from solstis_tui.ai.arena import write_json
from solstis_tui.ai.evaluate import evaluate
from solstis_tui.ai.features import FEATURES, features
from solstis_tui.ai.policy import best_move
from solstis_tui.ai.registry import make_bot
from solstis_tui.ai.value import FULL_PILE, WEIGHTS_FILE, Linear
from solstis_tui.core import Decision, Game, Options
from solstis_tui.core.scoring import score

#: A player's chance of a random move instead of the heuristic's, drawn per game: mostly
#: MCTS's playout setting, sometimes worse players up to a uniformly random one.
EPSILONS = (0.1, 0.1, 0.1, 0.3, 0.6, 1.0)
CHUNK = 250


def play_chunk(variant: str, seed: int, first: int, count: int,
               player: str | None = None,
               epsilons: tuple[float, ...] = EPSILONS) -> list[list[float]]:
    """Rows [features of the mover, of the other, pile share, hand-written evaluation,
    final margin, win] at every turn start of ``count`` self-play games: of the
    epsilon-greedy heuristic, or of the bot ``player`` (a spec such as ``mcts@100``)."""
    rand = random.Random(f"{seed}:{variant}:{first}")
    options = Options.for_variant(variant)
    rows: list[list[float]] = []
    for i in range(first, first + count):
        g = Game.new(seed * 1_000_003 + i, options)
        starts = []
        epsilon = (rand.choice(epsilons), rand.choice(epsilons))
        bots = [make_bot(player, rand.randrange(2**32)) for _ in range(2)] if player else []
        while not g.is_over:
            if g.decision is Decision.PLAY:
                p = g.to_play
                starts.append((p, features(g, p) + features(g, 1 - p)
                               + [len(g.pile) / FULL_PILE, evaluate(g, p)]))
            legal = g.legal_moves()
            if bots and len(legal) > 1:
                g.play(bots[g.to_play].choose(g.observation(g.to_play), None))
            else:
                g.play(best_move(g, rand, epsilon[g.to_play]))
        margin0 = score(g, 0).total - score(g, 1).total
        win0 = 0.5 if g.winner is None else float(g.winner == 0)
        for p, row in starts:
            rows.append(row + ([margin0, win0] if p == 0 else [-margin0, 1.0 - win0]))
    return rows


def design(rows: np.ndarray) -> np.ndarray:
    """Model inputs: feature differences, the same times the pile share, tempo, share."""
    k = len(FEATURES)
    diff = rows[:, :k] - rows[:, k:2 * k]
    share = rows[:, 2 * k:2 * k + 1]
    return np.hstack([diff, diff * share, np.ones_like(share), share])


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


def fit_margin(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.linalg.lstsq(x, y, rcond=None)[0]


def fit_win(x: np.ndarray, y: np.ndarray, rounds: int = 25) -> np.ndarray:
    """Logistic regression by Newton's method (y may be 0.5 for a draw)."""
    w = np.zeros(x.shape[1])
    ridge = 1e-6 * np.eye(x.shape[1])
    for _ in range(rounds):
        p = sigmoid(x @ w)
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + ridge, x.T @ (y - p))
        w += step
        if np.abs(step).max() < 1e-8:
            break
    return w


def linear(w: np.ndarray) -> Linear:
    k = len(FEATURES)
    return Linear(tuple(map(float, w[:k])), tuple(map(float, w[k:2 * k])),
                  (float(w[2 * k]), float(w[2 * k + 1])))


def r_squared(pred: np.ndarray, y: np.ndarray) -> float:
    return float(1.0 - ((y - pred) ** 2).mean() / y.var())


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def measure(rows: np.ndarray, wm: np.ndarray, ww: np.ndarray) -> dict:
    """Held-out figures of the fitted model and of the hand-written evaluation (whose
    margin is first rescaled by least squares on these same rows, to be fair to it)."""
    x, k = design(rows), len(FEATURES)
    hand, margin, win = rows[:, 2 * k + 1], rows[:, -2], rows[:, -1]
    hand_scale = fit_margin(np.column_stack([hand, np.ones_like(hand)]), margin)
    hand_pred = hand_scale[0] * hand + hand_scale[1]
    p_win = sigmoid(x @ ww)
    # Before the learned value, MCTS made the hand-written margin a win chance this way.
    spread = 2.0 + 0.3 * rows[:, 2 * k] * FULL_PILE
    hand_win = 0.5 * (1.0 + np.vectorize(math.erf)(hand / (spread * math.sqrt(2.0))))
    return {
        "positions": len(rows),
        "margin_r2": round(r_squared(x @ wm, margin), 4),
        "hand_written_margin_r2": round(r_squared(hand_pred, margin), 4),
        "win_log_loss": round(log_loss(p_win, win), 4),
        "hand_written_win_log_loss": round(log_loss(hand_win, win), 4),
        "win_accuracy": round(float(((p_win > 0.5) == (win > 0.5)).mean()), 4),
        "hand_written_win_accuracy": round(float(((hand > 0) == (win > 0.5)).mean()), 4),
    }


def gather(variant: str, seed: int, games: range, jobs: int, progress: Progress,
           player: str | None = None, epsilons: tuple[float, ...] = EPSILONS) -> np.ndarray:
    """The rows of games number ``games`` (each number is its own deal)."""
    task = progress.add_task(f"{variant}: games {games.start}-{games.stop - 1}",
                             total=len(games))
    rows: list[list[float]] = []
    starts = range(games.start, games.stop, CHUNK)
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(play_chunk, variant, seed, first,
                               min(CHUNK, games.stop - first), player, epsilons)
                   for first in starts]
        for first, future in zip(starts, futures, strict=True):
            rows.extend(future.result())
            progress.advance(task, min(CHUNK, games.stop - first))
    return np.array(rows, dtype=float)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="fitted games per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--variants", default="base,beginner,firefly")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parents[1] / "ai" / WEIGHTS_FILE)
    parser.add_argument("--player", default=None,
                        help="a bot spec (e.g. mcts@100) whose self-play games are fitted "
                             "instead of the epsilon-greedy heuristic's")
    parser.add_argument("--epsilons", default=",".join(map(str, EPSILONS)),
                        help="the heuristic players' chances of a random move, one drawn "
                             "per player and game (comma-separated)")
    args = parser.parse_args(argv)
    try:
        epsilons = tuple(float(e) for e in args.epsilons.split(","))
    except ValueError:
        parser.error(f"--epsilons takes numbers separated by commas (got {args.epsilons!r})")
    if not epsilons or not all(0.0 <= e <= 1.0 for e in epsilons):
        parser.error("--epsilons are chances between 0 and 1")
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    bad = [v for v in variants if v not in ("base", "beginner", "firefly")]
    if bad or args.games < 10 or args.jobs < 1:
        parser.error(f"variants are base, beginner, firefly (got {bad}); --games >= 10; "
                     "--jobs >= 1")
    console = Console()
    held_out = max(1, args.games // 10)
    out = {"fitted": {"date": datetime.date.today().isoformat(), "games": args.games,
                      "held_out_games": held_out, "seed": args.seed, "epsilons": epsilons,
                      "player": args.player or "epsilon-greedy heuristic",
                      "command": "tools/fit_value.py " + " ".join(argv or sys.argv[1:])},
           "features": list(FEATURES), "variants": {}}
    with Progress(console=console) as progress:
        for variant in variants:
            train = gather(variant, args.seed, range(args.games), args.jobs, progress,
                           args.player, epsilons)
            test = gather(variant, args.seed, range(args.games, args.games + held_out),
                          args.jobs, progress, args.player, epsilons)
            wm = fit_margin(design(train), train[:, -2])
            ww = fit_win(design(train), train[:, -1])
            figures = measure(test, wm, ww)
            out["variants"][variant] = {"margin": linear(wm).to_json(),
                                        "win": linear(ww).to_json(), "held_out": figures}
            console.print(variant, figures)
    write_json(str(args.out), out)
    console.print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

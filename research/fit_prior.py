"""Fit the learned move prior (research/prior.py) to the visits of long mcts searches.

    PYTHONPATH=research:benchmarks .venv/bin/python research/fit_prior.py \\
        --games 182 --seed 12 --jobs 2

Plays ``--games`` base games of ``--player`` (mcts at 200 iterations) against itself. At
a share (``--share``) of the decisions with a choice it runs a fresh mcts search of
``--teacher-iterations`` and notes every legal move's inputs (``prior.move_inputs``, on
the real game: the teacher's worlds are deals of what the mover cannot see, the inputs one
of them) with the teacher's visits. Then, for each kind of decision with enough rows, it
fits a softmax over a linear score of the inputs to the visit shares (cross-entropy and an
L2 penalty, which the training games' last fifth chooses; a decision whose fit predicts
those games no better than the heuristic keeps the heuristic). A further tenth of the
games (numbers ``--games`` on), never fitted, measures the result beside the heuristic's
move values (softmax at the temperature that fits the training rows best) and a uniform
prior; the figures are kept in the weights file. Needs numpy (``pip install -e ".[fit]"``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import shlex
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import Progress

from solstis_tui.ai.arena import write_json
from solstis_tui.ai.base import Budget, Stopwatch
from solstis_tui.ai.mcts import Settings, mcts_search
from solstis_tui.ai.registry import make_bot
from solstis_tui.core import Decision, Game, Options

from prior import MOVE_INPUTS, PRIOR_FILE, move_inputs

#: Games a worker plays before it reports.
CHUNK = 2
#: A decision needs this many training rows to get weights of its own.
MIN_ROWS = 40
#: Temperatures (in stars of heuristic value) tried for the heuristic's prior.
TEMPERATURES = (0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
#: L2 penalties tried (on standardised inputs); the validation rows choose.
PENALTIES = (1e-3, 1e-2, 1e-1, 1.0)

Row = dict[str, Any]


def play_chunk(seed: int, first: int, count: int, player: str, teacher: int,
               share: float) -> list[Row]:
    """Rows {game, decision, inputs, visits} noted in games ``first`` to
    ``first + count - 1`` (each number its own deal)."""
    rand = random.Random(f"{seed}:{first}")
    rows: list[Row] = []
    for i in range(first, first + count):
        g = Game.new(seed * 1_000_003 + i, Options.for_variant("base"))
        bots = [make_bot(player, rand.randrange(2**32)) for _ in range(2)]
        while not g.is_over:
            legal = g.legal_moves()
            if len(legal) == 1:
                g.play(legal[0])
                continue
            obs = g.observation(g.to_play)
            if rand.random() < share:
                search = mcts_search(obs, random.Random(rand.randrange(2**32)), Settings())
                budget = Budget(iterations=teacher)
                search.run(Stopwatch(budget, budget, None))
                visits = {e.move: e.visits for e in search.estimates()}
                assert g.decision is not None
                rows.append({"game": i, "decision": g.decision.name,
                             "inputs": move_inputs(g, legal),
                             "visits": [visits.get(mv, 0) for mv in legal]})
            g.play(bots[g.to_play].choose(obs, None))
    return rows


def gather(seed: int, games: range, jobs: int, player: str, teacher: int, share: float,
           progress: Progress) -> list[Row]:
    task = progress.add_task(f"games {games.start}-{games.stop - 1}", total=len(games))
    rows: list[Row] = []
    starts = range(games.start, games.stop, CHUNK)
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(play_chunk, seed, first, min(CHUNK, games.stop - first),
                               player, teacher, share) for first in starts]
        for first, future in zip(starts, futures, strict=True):
            rows.extend(future.result())
            progress.advance(task, min(CHUNK, games.stop - first))
    return rows


def tensors(rows: list[Row]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(inputs padded to rows x moves x inputs, visit shares, mask of real moves)."""
    most = max(len(r["inputs"]) for r in rows)
    x = np.zeros((len(rows), most, len(MOVE_INPUTS)))
    target = np.zeros((len(rows), most))
    mask = np.zeros((len(rows), most), dtype=bool)
    for i, r in enumerate(rows):
        k = len(r["inputs"])
        x[i, :k] = r["inputs"]
        visits = np.array(r["visits"], dtype=float)
        target[i, :k] = visits / visits.sum()
        mask[i, :k] = True
    return x, target, mask


def softmax(z: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, z, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(z), 0.0)
    shares: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return shares


def cross_entropy(z: np.ndarray, target: np.ndarray, mask: np.ndarray) -> float:
    q = softmax(z, mask)
    return float(-(target * np.log(np.where(mask, q, 1.0) + 1e-12)).sum(axis=1).mean())


def agreement(z: np.ndarray, target: np.ndarray, mask: np.ndarray) -> float:
    """How often the prior's favourite is the teacher's most visited move."""
    z = np.where(mask, z, -np.inf)
    return float((z.argmax(axis=1) == target.argmax(axis=1)).mean())


def fit(rows: list[Row], l2: float = 1e-3, steps: int = 600) -> np.ndarray:
    """Weights of a softmax over ``inputs @ w`` fitted to the visit shares (Adam on
    standardised inputs, then scaled back)."""
    x, target, mask = tensors(rows)
    spread = x[mask].std(axis=0)
    spread[spread == 0] = 1.0
    x = x / spread
    w = np.zeros(len(MOVE_INPUTS))
    m1, m2 = np.zeros_like(w), np.zeros_like(w)
    for t in range(1, steps + 1):
        q = softmax(x @ w, mask)
        grad = np.einsum("rmi,rm->i", x, q - target) / len(rows) + l2 * w
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        w -= 0.05 * (m1 / (1 - 0.9**t)) / (np.sqrt(m2 / (1 - 0.999**t)) + 1e-8)
    weights: np.ndarray = w / spread
    return weights


def choose_fit(rows: list[Row], games: int) -> tuple[np.ndarray | None, float, str]:
    """(weights or None, the heuristic's inverse temperature, why): the training games'
    last fifth chooses the penalty and whether the learned prior predicts the visits
    better than the heuristic; the weights are then fitted to every training row. None
    when the heuristic does as well (the decision keeps it)."""
    cut = games - max(1, games // 5)
    fitted = [r for r in rows if r["game"] < cut]
    checked = [r for r in rows if r["game"] >= cut]
    scale = heuristic_scale(rows)
    if not fitted or not checked:
        return fit(rows), scale, "too few games to check"
    x, target, mask = tensors(checked)
    loss, penalty = min((cross_entropy(x @ fit(fitted, l2), target, mask), l2)
                        for l2 in PENALTIES)
    heuristic = cross_entropy(x[:, :, 0] * heuristic_scale(fitted), target, mask)
    if loss >= heuristic:
        return None, scale, f"no better than the heuristic ({loss:.3f} vs {heuristic:.3f})"
    return fit(rows, penalty), scale, f"penalty {penalty:g} ({loss:.3f} vs {heuristic:.3f})"


def heuristic_scale(rows: list[Row]) -> float:
    """The inverse temperature that makes the heuristic's softmax fit ``rows`` best."""
    x, target, mask = tensors(rows)
    return min((cross_entropy(x[:, :, 0] / t, target, mask), 1.0 / t)
               for t in TEMPERATURES)[1]


def measure(rows: list[Row], w: np.ndarray | None, scale: float) -> dict[str, float]:
    """Held-out cross-entropy and top-move agreement of the prior, the heuristic's
    softmax and a uniform prior."""
    x, target, mask = tensors(rows)
    learned = x @ w if w is not None else x[:, :, 0] * scale
    out = {"positions": len(rows),
           "moves": round(float(mask.sum(axis=1).mean()), 2)}
    for name, z in (("prior", learned), ("heuristic", x[:, :, 0] * scale)):
        out[f"{name}_cross_entropy"] = round(cross_entropy(z, target, mask), 4)
        out[f"{name}_agreement"] = round(agreement(z, target, mask), 4)
    out["uniform_cross_entropy"] = round(cross_entropy(np.zeros(mask.shape), target, mask), 4)
    out["uniform_agreement"] = round(float((1.0 / mask.sum(axis=1)).mean()), 4)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="fitted games")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--player", default="mcts@200",
                        help="the bot spec whose self-play games give the positions")
    parser.add_argument("--teacher-iterations", type=int, default=1600)
    parser.add_argument("--share", type=float, default=0.35,
                        help="the chance that a decision with a choice becomes a row")
    parser.add_argument("--out", type=Path, default=PRIOR_FILE)
    parser.add_argument("--rows", type=Path, default=None,
                        help="keep the gathered rows in this JSON file; if it exists, fit "
                             "its rows instead of playing (the other flags must then be "
                             "those it was gathered with: games from --games on are held out)")
    args = parser.parse_args(argv)
    if args.games < 10 or args.jobs < 1 or args.teacher_iterations < 1:
        parser.error("--games >= 10, --jobs >= 1, --teacher-iterations >= 1")
    if not 0.0 < args.share <= 1.0:
        parser.error("--share is a chance above 0 and at most 1")
    console = Console()
    held_out = max(2, args.games // 10)
    if args.rows is not None and args.rows.exists():
        rows = json.loads(args.rows.read_text(encoding="utf-8"))
    else:
        with Progress(console=console) as progress:
            rows = gather(args.seed, range(args.games + held_out), args.jobs, args.player,
                          args.teacher_iterations, args.share, progress)
        if args.rows is not None:
            args.rows.write_text(json.dumps(rows) + "\n", encoding="utf-8")
    rows = [r for r in rows if sum(r["visits"])]
    out: dict[str, Any] = {
        "fitted": {"date": datetime.date.today().isoformat(), "games": args.games,
                   "held_out_games": held_out, "seed": args.seed, "player": args.player,
                   "teacher_iterations": args.teacher_iterations, "share": args.share,
                   "rows": str(args.rows) if args.rows is not None else None,
                   "command": shlex.join(["research/fit_prior.py",
                                          *(sys.argv[1:] if argv is None else argv)])},
        "inputs": list(MOVE_INPUTS), "decisions": {}, "held_out": {}}
    for decision in Decision:
        mine = [r for r in rows if r["decision"] == decision.name]
        train = [r for r in mine if r["game"] < args.games]
        test = [r for r in mine if r["game"] >= args.games]
        if len(train) < MIN_ROWS:
            continue
        w, scale, why = choose_fit(train, args.games)
        if w is not None:
            out["decisions"][decision.name] = [round(float(v), 6) for v in w]
        if test:
            figures: dict[str, Any] = {"fit": why, **measure(test, w, scale)}
            out["held_out"][decision.name] = figures
            console.print(decision.name, figures)
    write_json(str(args.out), out)
    console.print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The arena: seeded round-robins between bots, with seat swapping, Elo and move times.

``solstis arena --bots random,greedy,mcts --games 20 --seed 1`` (or ``python -m
solstis_tui.ai.arena ...``).
Every deal is played twice, once from each seat. Ctrl-C prints what finished so far;
``--resume FILE`` (an earlier ``--json``) goes on from there, or adds games to a finished run.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import re
import sys
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from solstis_tui import __version__, engine_build, records
from solstis_tui.core import Game, Options
from solstis_tui.files import write_atomic

from . import arena_record
from .arena_stats import (
    GameRecord,
    as_data,
    elo_ratings,
    latencies,
    pair_results,
    record_problem,
)
from .base import Bot, Budget
from .registry import describe, make_bot, split_spec
from .workers import WorkerLost, WorkerPool


class Task(TypedDict):
    """One arena game to play (picklable, for the worker processes); ``records``, if set, is
    the folder its game record goes to."""

    pair: int
    deal: int
    bots: tuple[str, str]
    variant: str
    game_seed: int
    budget: Budget | None
    bot_seeds: list[int]
    records: NotRequired[str]


#: Called with a bot and the real game before the bot decides (``play_game``).
Peek = Callable[[Bot, Game], None]


def stable_seed(*parts: object) -> int:
    """A seed from ``parts`` that is the same on every run and machine."""
    return zlib.crc32(":".join(map(str, parts)).encode())


def deal_seed(settings: dict[str, Any], deal: int) -> int:
    """The seed of deal number ``deal`` of a run with ``settings`` (its seed and variant)."""
    return stable_seed("deal", settings["seed"], settings["variant"], deal)


def play_game(task: Task, peek: Peek | None = None) -> GameRecord:
    """Play one arena game; a bot's illegal move or crash loses the game for it.

    ``peek``, if given, is called with each bot and the real game before the bot decides:
    only for measuring what hidden information would be worth (research/hand_oracle.py);
    the arena's own games never peek."""
    specs = task["bots"]
    game = Game.new(seed=task["game_seed"], options=Options.for_variant(task["variant"]))
    bots = [make_bot(spec, seed) for spec, seed in zip(specs, task["bot_seeds"], strict=True)]
    budgets = [None if split_spec(s)[1] else task["budget"] for s in specs]
    times: list[list[float]] = [[], []]
    error = None
    while not game.is_over:
        p = game.to_play
        legal = game.legal_moves()
        if len(legal) == 1:
            game.play(legal[0])
            continue
        obs = game.observation(p)
        if peek is not None:
            peek(bots[p], game)
        start = time.perf_counter()
        try:
            move = bots[p].choose(obs, budgets[p])
            times[p].append(time.perf_counter() - start)
            game.play(move)
        except Exception as exc:  # a broken bot (illegal move, crash) forfeits
            error = f"{specs[p]}: {exc}"
            break
    if error is None:
        winner, scores = game.winner, [game.score(0).total, game.score(1).total]
        reason = game.end_reason.value if game.end_reason else None
        if task.get("records"):
            write_record(task, game)
    else:
        winner, scores, reason = 1 - game.to_play, [0, 0], f"forfeit ({error})"
    for bot in bots:
        close = getattr(bot, "close", None)
        if close:
            close()
    return {
        "pair": task["pair"], "deal": task["deal"], "bots": list(specs),
        "game_seed": task["game_seed"], "winner": winner, "scores": scores,
        "end": reason, "times": times,
    }


def record_path(task: Task) -> Path:
    """Where the record of ``task``'s game goes: ``<variant>-<deal seed>-<bot>-vs-<bot>``
    in its ``records`` folder, each bot's spec kept to letters, digits, '.', '_', '-'."""
    a, b = (re.sub(r"[^\w.-]", "_", spec) for spec in task["bots"])
    return Path(task.get("records", ".")) / (
        f"{task['variant']}-{task['game_seed']}-{a}-vs-{b}{records.SUFFIX}")


def write_record(task: Task, game: Game) -> None:
    """Write the finished ``game``'s record (``solstis_tui.records``) for ``task``."""
    seats = (records.SeatRecord(task["bots"][0], task["bots"][0]),
             records.SeatRecord(task["bots"][1], task["bots"][1]))
    record = records.record_of(game, seats, datetime.datetime.now(datetime.UTC),
                               program=f"solstis {__version__} arena")
    write_atomic(record_path(task), records.dumps(record))


def tasks_for(bots: list[str], games: int, seed: int, variant: str,
              budget: Budget | None, records_dir: str | None = None) -> Iterator[Task]:
    """Every game of the round-robin: each pair plays ``games`` games (rounded up to an
    even number), deal by deal, each deal from both seats; with ``records_dir``, each
    writes its game record there."""
    for pair, (a, b) in enumerate(itertools.combinations(bots, 2)):
        for deal in range((games + 1) // 2):
            game_seed = deal_seed({"seed": seed, "variant": variant}, deal)
            for seats in ((a, b), (b, a)):
                task: Task = {
                    "pair": pair, "deal": deal, "bots": seats, "variant": variant,
                    "game_seed": game_seed, "budget": budget,
                    "bot_seeds": [stable_seed("bot", seed, deal, i, s)
                                  for i, s in enumerate(seats)],
                }
                if records_dir is not None:
                    task["records"] = records_dir
                yield task


def game_key(bots: Sequence[str], game_seed: int) -> tuple[tuple[str, ...], int]:
    """What makes two games the same task: the bots in their seats, and the deal."""
    return tuple(bots), game_seed


def split_finished(tasks: list[Task], earlier: list[GameRecord]
                   ) -> tuple[list[GameRecord], list[Task]]:
    """(the ``earlier`` games that are tasks of ``tasks``, the tasks none of them played).

    A game is a task's when it has the same bots in the same seats and the same deal, so
    an earlier run with the same seed and bots counts however many games it planned;
    games from other deals, seeds or bots are left out. The pair number follows
    ``tasks``, so earlier games of a differently ordered ``--bots`` still count."""
    wanted = {game_key(t["bots"], t["game_seed"]): t for t in tasks}
    kept: dict[tuple[tuple[str, ...], int], GameRecord] = {}
    for game in earlier:
        task = wanted.get(game_key(game["bots"], game["game_seed"]))
        if task is not None:
            kept[game_key(game["bots"], game["game_seed"])] = {
                **game, "pair": task["pair"], "deal": task["deal"]}
    todo = [t for t in tasks if game_key(t["bots"], t["game_seed"]) not in kept]
    return list(kept.values()), todo


def checked_games(games: object, path: str) -> list[GameRecord]:
    """``games`` (read from ``path``) as game records; ValueError naming the first that
    is not one, so that a bad file is refused before any game is played."""
    if not isinstance(games, list):
        raise ValueError(f"{path} is not an arena --json file (it has no list of games)")
    for number, game in enumerate(games, 1):
        problem = record_problem(game)
        if problem:
            raise ValueError(f"{path}: game {number} of its list {problem}")
    return games


def read_json(path: str) -> Any:
    """The JSON in ``path``; ValueError with the reason when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON: {exc}") from None


def write_json(path: str, data: Any) -> None:
    """Write ``data`` to ``path`` as JSON, whole or not at all (``files.write_atomic``)."""
    write_atomic(path, json.dumps(data, indent=1))


def load_games(path: str) -> tuple[dict[str, Any], list[GameRecord]]:
    """(settings, games) of a JSON file an earlier arena ``--json`` wrote; ValueError with
    the reason when the file cannot be read or is not one."""
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("settings"), dict):
        raise ValueError(f"{path} is not an arena --json file (it has no settings)")
    return data["settings"], checked_games(data.get("games"), path)


def run(tasks: list[Task], jobs: int, console: Console, peek: Peek | None = None,
        on_game: Callable[[list[GameRecord]], None] | None = None,
        ) -> tuple[list[GameRecord], bool]:
    """Play the tasks with a progress bar, each with ``play_game`` (and ``peek``, picklable
    when ``jobs`` > 1); (finished games, whether interrupted). ``on_game`` is given the
    games finished so far each time one finishes, so a long run can keep them as it goes.
    With ``jobs`` > 1 the games are played in worker processes that die with this one;
    a worker that dies stops the run as Ctrl-C does."""
    play = partial(play_game, peek=peek) if peek is not None else play_game
    done: list[GameRecord] = []
    columns = (TextColumn("[bold]arena"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
               TextColumn("{task.description}"))
    pool: WorkerPool | None = None
    try:
        # Piped output gets plain "N/M games" lines instead of a bar.
        with Progress(*columns, console=console, transient=False,
                      disable=not console.is_terminal) as progress:
            bar = progress.add_task("", total=len(tasks))
            results: Iterator[GameRecord]
            if jobs > 1:
                pool = WorkerPool(jobs, "solstis-arena")
                results = pool.imap(play, tasks, ordered=False)
            else:
                results = map(play, tasks)
            step = max(1, len(tasks) // 20)
            for record in results:
                done.append(record)
                if on_game is not None:
                    on_game(done)
                progress.update(bar, advance=1, description=" vs ".join(record["bots"]))
                if not console.is_terminal and len(done) % step == 0:
                    console.print(f"{len(done)}/{len(tasks)} games", highlight=False)
    except KeyboardInterrupt:
        if pool is not None:
            pool.kill()
        console.print(f"[yellow]Interrupted: {len(done)} of {len(tasks)} games finished.")
        return done, True
    except WorkerLost as exc:
        console.print(f"[yellow]Stopped: a game's process ended ({exc}); {len(done)} of "
                      f"{len(tasks)} games finished.")
        return done, True
    finally:
        if pool is not None:
            pool.close()
    return done, False


def report(bots: list[str], games: list[GameRecord], settings: dict[str, Any],
           interrupted: bool, planned: int) -> dict[str, Any]:
    """All the figures as plain data (what ``--json`` writes)."""
    pairs = list(itertools.combinations(bots, 2))
    games = sorted(games, key=lambda g: (g["pair"], g["deal"], g["bots"][0]))
    # After Ctrl-C, pairs and bots without a finished game are left out (no "0-0-0").
    played = [b for b in bots if any(b in g["bots"] for g in games)]
    return {
        "settings": settings,
        "planned": planned,
        "completed": len(games),
        "interrupted": interrupted,
        "pairs": [as_data(r) for r in pair_results(games, pairs) if r.games],
        "elo": {b: as_data(r) for b, r in elo_ratings(played, games).items()},
        "latency": {b: as_data(r) for b, r in latencies(played, games).items()},
        "games": games,
    }


def print_report(data: dict[str, Any], console: Console) -> None:
    pairs = Table(title="Results per pair (first bot's view; draws count half)")
    for col in ("pair", "games", "W-D-L", "score", "margin", "95% CI"):
        pairs.add_column(col, justify="left" if col == "pair" else "right")
    for r in data["pairs"]:
        lo, hi = r["margin_ci95"]
        pairs.add_row(f"{r['a']} vs {r['b']}", str(r["games"]),
                      f"{r['a_wins']}-{r['draws']}-{r['b_wins']}", f"{100 * r['a_score']:.1f}%",
                      f"{r['margin_mean']:+.2f}", f"[{lo:+.2f}, {hi:+.2f}]")
    elo = Table(title="Elo (mean 1500, bootstrap 95% CI)")
    lat = Table(title="Move time per decision with a real choice (ms)")
    for col in ("bot", "Elo", "95% CI", "games"):
        elo.add_column(col, justify="left" if col == "bot" else "right")
    for col in ("bot", "decisions", "p50", "p95", "max"):
        lat.add_column(col, justify="left" if col == "bot" else "right")
    for b, r in sorted(data["elo"].items(), key=lambda kv: -kv[1]["elo"]):
        lo, hi = r["ci95"]
        elo.add_row(b, f"{r['elo']:.0f}", f"[{lo:.0f}, {hi:.0f}]", str(r["games"]))
    for b, r in data["latency"].items():
        lat.add_row(b, str(r["decisions"]), f"{r['p50_ms']:.1f}", f"{r['p95_ms']:.1f}",
                    f"{r['max_ms']:.1f}")
    for table in (pairs, elo, lat):
        console.print(table)


def build_parser() -> argparse.ArgumentParser:
    tiers = "\n".join(f"  {name:8} {text}" for name, text in describe())
    parser = argparse.ArgumentParser(
        prog="solstis arena",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play a seeded round-robin between bots; every deal is played from "
        "both seats.\n\nbots:\n" + tiers + "\n  or package.module:Class (your own Bot)."
        "\n\nAdd @N (iterations) or @Ns (seconds) to a bot for its own budget, "
        "e.g. mcts@0.5s.",
    )
    parser.add_argument("--bots", default="random,greedy,minimax,mcts",
                        help="comma-separated bots (default: %(default)s)")
    parser.add_argument("--games", type=_positive_int, default=20,
                        help="games per pair, rounded up to even (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and bots")
    parser.add_argument("--variant", choices=("base", "beginner", "firefly"), default="base")
    parser.add_argument("--time", type=_positive_float, metavar="SECONDS",
                        help="search budget per decision in seconds")
    parser.add_argument("--iterations", type=_positive_int, metavar="N",
                        help="search budget per decision in iterations: playouts for mcts, sampled "
                        "deals for minimax (deterministic)")
    parser.add_argument("--jobs", type=_positive_int, default=1,
                        help="games played in parallel processes (default: %(default)s)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--record", metavar="FILE",
                        help="also write a compact record of every game (CSV, a few KB), "
                        "from which the figures can be recomputed")
    parser.add_argument("--records", metavar="DIR",
                        help="write each game's full record (every decision; "
                        "docs/records.md) to a file of its own in DIR")
    parser.add_argument("--resume", metavar="FILE",
                        help="keep the games an earlier --json FILE of the same bots, seed, "
                        "variant and budget finished, and play only the rest")
    return parser


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def parse_bots(parser: argparse.ArgumentParser, text: str) -> list[str]:
    bots = [b.strip() for b in text.split(",") if b.strip()]
    if len(bots) < 2:
        parser.error("--bots needs at least two bots, e.g. --bots random,greedy")
    if len(set(bots)) != len(bots):
        parser.error("--bots lists a bot twice; give each bot once (use @budget to vary)")
    for spec in bots:
        try:
            make_bot(spec, 0)
        except ValueError as exc:
            parser.error(str(exc))
    return bots


#: Settings an arena run and the run it resumes must share (the games may differ).
SAME_FOR_RESUME = ("seed", "variant", "time", "iterations", "peek")


def resume_line(path: str, in_file: int, kept: int, todo: int, planned: int) -> str:
    """What ``--resume`` took from ``path``, e.g. "160 games kept from FILE, 240 of 400 to
    play", and how many of its ``in_file`` games this run leaves out."""
    line = f"{kept} games kept from {path}, {todo} of {planned} to play."
    if in_file > kept:
        line += f" {in_file - kept} of its games are not part of this run and are left out."
    return line


def overwrite_problem(path: str, json_out: str | None, left_out: int) -> str | None:
    """Why writing to ``json_out`` would lose games of ``path`` (None if it would not): it
    is the same file and ``left_out`` of its games are not part of this run."""
    if not left_out or not json_out or not os.path.exists(json_out):
        return None
    if not os.path.samefile(path, json_out):
        return None
    return (f"--resume {path}: {left_out} of its games are not part of this run, and "
            f"--json {json_out} would write over them; give --json another file")


def described(settings: dict[str, Any], keys: list[str]) -> str:
    """``keys`` of ``settings`` for a message, e.g. "seed 5, time none"."""
    return ", ".join(f"{k} {'none' if settings.get(k) is None else settings.get(k)}"
                     for k in keys)


def resume_tasks(parser: argparse.ArgumentParser, path: str, settings: dict[str, Any],
                 tasks: list[Task], console: Console,
                 json_out: str | None) -> tuple[list[GameRecord], list[Task]]:
    """The games ``path`` keeps for this run and the tasks left to play, said on
    ``console``; a file that is not an arena --json, was played with other settings, or
    holds games this run leaves out that ``json_out`` would write over, is refused
    (parser.error)."""
    try:
        before, games = load_games(path)
    except ValueError as exc:
        parser.error(str(exc))
    differ = [k for k in SAME_FOR_RESUME if before.get(k) != settings.get(k)]
    if differ:
        parser.error(f"--resume {path}: its games were played with "
                     f"{described(before, differ)}; this run has {described(settings, differ)}")
    kept, todo = split_finished(tasks, games)
    problem = overwrite_problem(path, json_out, len(games) - len(kept))
    if problem:
        parser.error(problem)
    console.print(resume_line(path, len(games), len(kept), len(todo), len(tasks)),
                  highlight=False, markup=False)
    return kept, todo


def main(argv: list[str] | None = None, peek: Peek | None = None) -> int:
    """Run ``solstis arena`` with ``argv`` (without the program name); returns the exit
    status (0 done, 130 interrupted). ``peek`` goes to every game (``play_game``)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    bots = parse_bots(parser, args.bots)
    budget = (Budget(seconds=args.time, iterations=args.iterations)
              if args.time or args.iterations else None)
    settings = {"bots": bots, "games_per_pair": args.games + args.games % 2,
                "seed": args.seed, "variant": args.variant, "time": args.time,
                "iterations": args.iterations, "jobs": args.jobs}
    console = Console()
    console.print(f"Engine: {engine_build.STATUS.line}", highlight=False, markup=False)
    if peek is not None:
        settings["peek"] = peek.__name__
    if args.records:
        try:
            os.makedirs(args.records, exist_ok=True)
        except OSError as exc:
            parser.error(f"--records {args.records}: cannot make that folder "
                         f"({exc.strerror or exc})")
    tasks = list(tasks_for(bots, args.games, args.seed, args.variant, budget, args.records))
    earlier: list[GameRecord] = []
    todo = tasks
    if args.resume:
        earlier, todo = resume_tasks(parser, args.resume, settings, tasks, console,
                                     args.json)
    games, interrupted = run(todo, args.jobs, console, peek)
    data = report(bots, earlier + games, settings, interrupted, len(tasks))
    print_report(data, console)
    if args.json:
        write_json(args.json, data)
        console.print(f"Figures written to {args.json}")
    if args.record:
        settings = {**settings, "engine": engine_build.STATUS.line,
                    "date": str(datetime.date.today())}
        write_atomic(args.record, arena_record.dumps(settings, data["games"]))
        console.print(f"Record of {len(data['games'])} games written to {args.record}")
    if args.records:
        forfeits = sum(1 for g in games if str(g["end"]).startswith("forfeit"))
        note = f" ({forfeits} forfeited games have none)" if forfeits else ""
        console.print(f"Records of {len(games) - forfeits} games written to "
                      f"{args.records}{note}", highlight=False, markup=False)
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())

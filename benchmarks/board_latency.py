"""How fast the analysis board answers a key while its analysis runs.

Opens a finished greedy-vs-random game on the analysis board (``ReviewScreen``, headless,
80x24) with the shipped judge on ``--workers`` processes, and presses ←, →, n and p in turn
(``--gap`` seconds apart, as a person reading the board would) for ``--seconds`` or until
the analysis is done. A key's time runs from the press until the board is drawn anew
("handled": the screen's ``redraw`` done) and until the next frame goes to the terminal
("on screen": Textual's ``App._display`` after that). Only keys pressed while the analysis
ran count. Target: p95 at most 100 ms. ``Pilot.press`` itself also waits for every widget
to go idle; its time is printed too, as an upper bound.

Run: ``.venv/bin/python benchmarks/board_latency.py [--seconds 40] [--workers 2]``.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from datetime import UTC, datetime

from solstis_tui.ai.registry import make_bot
from solstis_tui.coach.analysis import Effort
from solstis_tui.core import Game, Options
from solstis_tui.records import GameRecord, SeatRecord, record_of

KEYS = ("right", "right", "n", "left", "p", "right")


def finished(seed: int) -> GameRecord:
    g = Game.new(seed=seed, options=Options())
    bots = [make_bot("greedy", seed), make_bot("random", seed)]
    while not g.is_over:
        g.play(bots[g.to_play].choose(g.observation(g.to_play)))
    return record_of(g, (SeatRecord("You", "human"), SeatRecord("Random bot", "random")),
                     datetime.now(UTC))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run(args: argparse.Namespace) -> None:
    from solstis_tui.app import SolstisApp
    from solstis_tui.screens.review import ReviewScreen

    record = finished(args.seed)
    app = SolstisApp(review=record, review_effort=Effort(), review_workers=args.workers,
                     autosave=False)
    handled: dict[str, list[float]] = {k: [] for k in dict.fromkeys(KEYS)}
    drawn: dict[str, list[float]] = {k: [] for k in dict.fromkeys(KEYS)}
    pressed: dict[str, list[float]] = {k: [] for k in dict.fromkeys(KEYS)}
    progress = (0, 0)
    stamps: dict[str, float] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        board = screen.board
        redraw, display = screen.redraw, app._display

        def stamped_redraw() -> None:
            redraw()
            stamps.setdefault("handled", time.perf_counter())

        def stamped_display(*a: object, **k: object) -> None:
            display(*a, **k)  # type: ignore[arg-type]
            if "handled" in stamps:
                stamps.setdefault("shown", time.perf_counter())

        screen.redraw = stamped_redraw  # type: ignore[method-assign]
        app._display = stamped_display  # type: ignore[method-assign]
        print(f"{len(board.steps)} decisions reviewed, {board.points} judged; shipped "
              f"effort {Effort()} on {args.workers} processes; {os.cpu_count()} cores, "
              f"load {os.getloadavg()[0]:.1f}")
        start = time.perf_counter()
        i = 0
        while time.perf_counter() - start < args.seconds and not board.notes:
            key = KEYS[i % len(KEYS)]
            i += 1
            stamps.clear()
            t0 = time.perf_counter()
            await pilot.press(key)
            t1 = time.perf_counter()
            for _ in range(100):  # a guard: the frame comes at the next refresh
                if "shown" in stamps:
                    break
                await asyncio.sleep(0.002)
            if board.notes:  # the analysis finished meanwhile: not a key under load
                break
            if "shown" in stamps:
                handled[key].append((stamps["handled"] - t0) * 1000)
                drawn[key].append((stamps["shown"] - t0) * 1000)
            pressed[key].append((t1 - t0) * 1000)
            progress = board.progress or progress
            await asyncio.sleep(args.gap)
        print(f"{time.perf_counter() - start:.0f} s of keys; analysis at decision "
              f"{progress[0]} of {progress[1]}" + (" (done)" if board.notes else "")
              + (f" (stopped: {board.failed})" if board.failed else ""))
    for title, table in (("board drawn anew", handled), ("frame on screen", drawn),
                         ("Pilot.press returned", pressed)):
        every = [v for values in table.values() for v in values]
        print(f"{title} (ms):")
        for key, values in [*table.items(), ("all", every)]:
            if values:
                print(f"  {key:>5}: n={len(values):>4}  p50 {statistics.median(values):6.1f}"
                      f"  p95 {percentile(values, 0.95):6.1f}  max {max(values):6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--gap", type=float, default=0.05,
                        help="seconds between keys (default 0.05)")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()

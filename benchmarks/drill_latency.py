"""How long the app stops answering while a drill answer is judged.

The drill judges an answer in a thread of the app's own process (``screens/drill.py``),
at ``drill.ANSWER_EFFORT``; hints were moved to a process of their own because judging on
the screen's process held keys up. This plays ``--answers`` drill exercises (made-up
mistakes in kept random games, headless 80x24), answers each with its first legal move,
and prints how long each judgement took and the longest gap between the ticks of a 5 ms
timer on the app's event loop meanwhile (the time a key would have waited at most).

Run: ``.venv/bin/python benchmarks/drill_latency.py [--answers 6]``. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' helpers

from solstis_tui import engine_build
from solstis_tui.coach import analysis, store
from solstis_tui.local import drill
from solstis_tui.screens.drill import DrillScreen
from tests.drill_games import keep_games
from tests.tui.conftest import keys_for_move, make_app


async def measure(answers: int) -> list[tuple[float, float]]:
    app = make_app(seats=("human", "random"), seed=3, drill_effort=drill.ANSWER_EFFORT)
    found: list[tuple[float, float]] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_drill()
        for _ in range(answers):
            await pilot.pause()
            screen = app.screen
            if not isinstance(screen, DrillScreen):
                break
            move = screen.drill_run.exercise.observation().legal_moves[0]
            last, worst = [time.perf_counter()], [0.0]

            def tick(last: list[float] = last, worst: list[float] = worst) -> None:
                now = time.perf_counter()
                worst[0] = max(worst[0], now - last[0])
                last[0] = now

            timer = app.set_interval(0.005, tick)
            started = time.perf_counter()
            await pilot.press(*keys_for_move(screen, move))
            await app.workers.wait_for_complete()
            found.append((time.perf_counter() - started, worst[0]))
            timer.stop()
            await pilot.press("enter")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=6)
    args = parser.parse_args()
    os.environ["SOLSTIS_DATA_DIR"] = tempfile.mkdtemp(prefix="solstis-drill-")
    store.EFFORT = analysis.TINY  # the kept games' analyses are made up anyway
    keep_games(Path(os.environ["SOLSTIS_DATA_DIR"]) / "records", list(range(4, 4 + args.answers)),
               analysed=args.answers, labelled=True)
    print(f"Engine: {engine_build.STATUS.line}; judge {drill.ANSWER_EFFORT}; "
          f"load {os.getloadavg()[0]:.1f}")
    for took, stall in asyncio.run(measure(args.answers)):
        print(f"answer judged in {took * 1000:6.0f} ms; longest stall of the event loop "
              f"{stall * 1000:5.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

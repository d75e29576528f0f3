"""A bot's worker processes end with the app that started them, even when the app is killed
with SIGKILL in the middle of the expert's search (nothing in the app runs then), and
not before: a worker outlives the short thread that first asked it for a move."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from solstis_tui.ai.base import Budget
from solstis_tui.ai.expert import usable_cores
from solstis_tui.core import Game, Options
from solstis_tui.local.bot_process import BotProcess
from tests.process_tree import BOUND, HAS_PROC, alive, descendants, workers_of

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="reads the process tree from /proc")

PARENT = """
import threading
from solstis_tui.ai.base import Budget
from solstis_tui.local.bot_process import BotProcess
from solstis_tui.core import Game, Options

if __name__ == "__main__":
    bot = BotProcess("expert", 1)
    game = Game.new(seed=3, options=Options())
    # as the app does: the bot is asked from a thread of its own
    asking = threading.Thread(target=bot.choose,
                              args=(game.observation(game.to_play), Budget(seconds=600)))
    asking.start()
    print("asked", flush=True)
    asking.join()
"""

HOST = """
import asyncio
from solstis_tui.core import Game, Options
from solstis_tui.host.botpool import BotPool, Decision

async def main() -> None:
    pool = BotPool(1)
    game = Game.new(seed=3, options=Options())
    deciding = asyncio.create_task(pool.decide("t1", Decision(
        "mcts", 1, game.observation(game.to_play), 600.0)))
    print("asked", flush=True)
    await deciding

if __name__ == "__main__":
    asyncio.run(main())
"""

@pytest.mark.parametrize(("parent_script", "expected"), [
    (PARENT, 1 + (usable_cores() - 1)),  # the app: the bot's worker and the expert's pool
    (HOST, 1),  # the game host: its bot pool's worker
], ids=["app-expert", "host-pool"])
def test_killing_the_app_mid_search_leaves_no_bot_process(tmp_path: Path, parent_script: str,
                                                         expected: int) -> None:
    script = tmp_path / "parent.py"
    script.write_text(parent_script)
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              text=True, cwd=tmp_path)
    try:
        assert parent.stdout is not None and parent.stdout.readline() == "asked\n"
        deadline = time.monotonic() + BOUND
        while len(workers := workers_of(parent.pid)) < expected:
            assert time.monotonic() < deadline, "the expert's workers never started"
            time.sleep(0.05)
        everyone = descendants(parent.pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + BOUND
        while (left := [pid for pid in everyone if alive(pid)]):
            if time.monotonic() > deadline:
                for pid in left:
                    os.kill(pid, signal.SIGKILL)
                pytest.fail(f"processes {left} outlived the killed app (workers {workers})")
            time.sleep(0.05)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def test_a_bot_keeps_its_worker_after_the_thread_that_first_asked_ends() -> None:
    bot = BotProcess("mcts", 1)
    game = Game.new(seed=3, options=Options())
    answers: list[object] = []

    def ask() -> None:
        answers.append(bot.choose(game.observation(game.to_play), Budget(iterations=20)))

    try:
        first = threading.Thread(target=ask)
        first.start()
        first.join()
        worker = workers_of(os.getpid())
        second = threading.Thread(target=ask)
        second.start()
        second.join()
        assert len(answers) == 2
        assert worker and workers_of(os.getpid()) == worker
    finally:
        bot.close()

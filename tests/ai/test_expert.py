"""The expert searches on every usable core, stops its workers with each decision, and
falls back to one process where it cannot start any."""

from __future__ import annotations

import threading

import pytest

from solstis_tui.ai import expert
from solstis_tui.ai.base import Budget
from solstis_tui.ai.registry import make_bot, make_solo_bot
from solstis_tui.ai.search import edge_key
from solstis_tui.ai.workers import WorkerLost

from .conftest import positions


def test_the_expert_uses_every_usable_core_unless_told_otherwise() -> None:
    assert make_bot("expert", 1).workers == expert.usable_cores()
    assert make_bot("expert", 1, workers=3).workers == 3
    assert make_solo_bot("expert", 1).workers == 1  # hints and the host's bot workers
    assert make_solo_bot("mcts", 1).name == "mcts"


def test_no_worker_keeps_searching_after_a_cancelled_decision() -> None:
    """A cancel returns the decision at once and reaches the workers' shares too: each
    answers (ends its search) instead of delaying the next decision, though its budget
    had a billion iterations left."""
    g = positions("base", 2, seed=13)[1]
    obs = g.observation(g.to_play)
    bot = make_bot("expert", 5, workers=2)
    cancel = threading.Event()
    try:
        bot.analyse(obs, Budget(iterations=20))  # the worker starts
        timer = threading.Timer(0.5, cancel.set)
        timer.start()
        estimates = bot.analyse(obs, Budget(iterations=10**9), cancel)
        timer.join()
        assert {e.move for e in estimates} <= set(obs.legal_moves) and estimates
        worker = bot.team()[0]
        assert worker.answer(timeout=120) is not None, "the worker's share never ended"
    finally:
        bot.close()


def test_without_worker_processes_the_expert_searches_alone(monkeypatch) -> None:
    g = positions("firefly", 3, seed=14)[2]
    obs = g.observation(g.to_play)
    bot = make_bot("expert", 6, workers=2)

    def broken():
        raise WorkerLost("no processes here")

    monkeypatch.setattr(bot, "team", broken)
    move = bot.choose(obs, Budget(iterations=30))
    assert move in obs.legal_moves and bot.workers == 1
    assert bot.last_iterations == 30


SCRIPT = """
import io, sys
from solstis_tui.ai.base import Budget
from solstis_tui.ai.search import edge_key
from solstis_tui.ai.workers import WorkerLost
from solstis_tui.ai.registry import make_bot
from solstis_tui.core import Game

class Captured(io.StringIO):  # what a Textual app puts in sys.stderr
    def fileno(self):
        return -1

if __name__ == "__main__":
    sys.stderr = Captured()
    game = Game.new(seed=3)
    bot = make_bot("expert", 1, workers=2)
    bot.choose(game.observation(game.to_play), Budget(seconds=0.3))
    bot.choose(game.observation(game.to_play), Budget(seconds=0.3))
    print(bot.workers, bot.last_iterations > 0)
    bot.close()
"""


def test_the_workers_start_inside_an_app_that_captures_stderr(tmp_path) -> None:
    """In the app, stderr is a capture object with no descriptor; the workers must start
    all the same ("bad value(s) in fds_to_keep" otherwise), or the expert loses its second core."""
    import subprocess
    import sys

    script = tmp_path / "expert_in_app.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.split() == ["2", "True"], done.stdout + done.stderr


def test_a_dropped_expert_leaves_no_worker_processes() -> None:
    """A bot nobody holds (a finished test, a replaced game) stops its workers."""
    import gc
    import os
    import time

    def gone(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False

    g = positions("base", 1, seed=15)[0]
    bot = make_bot("expert", 7, workers=2)
    bot.analyse(g.observation(g.to_play), Budget(iterations=20))
    started = [w.pid for w in bot.team()]
    assert started and None not in started, "the expert started no worker"
    del bot
    gc.collect()
    for _ in range(2400):  # wait (up to 120 s, a guard) for the workers to end
        if all(gone(pid) for pid in started if pid is not None):
            break
        time.sleep(0.05)
    assert all(gone(pid) for pid in started if pid is not None)


def test_every_process_of_the_expert_keeps_its_tree_for_the_rest_of_a_turn() -> None:
    """After a play, the same player's next decision starts from what the play's search
    learnt on *both* processes, not only on the calling one: the worker's share brings
    its earlier visits too. A bot made with ``reuse=False`` starts every share afresh."""
    bots = [make_bot("expert", 8, workers=2), make_bot("expert", 8, workers=2, reuse=False)]
    try:
        for g in positions("base", 40, seed=22):
            me = g.to_play
            move = bots[0].choose(g.observation(me), Budget(iterations=40))
            bots[1].choose(g.observation(me), Budget(iterations=40))
            g.play(move)
            if g.is_over or g.to_play != me or len(g.legal_moves()) < 2:
                continue
            obs = g.observation(me)
            kept = bots[0].subtree(obs)
            assert kept is not None
            local = sum(kept.children[edge_key(me, mv)].n for mv in obs.legal_moves
                        if edge_key(me, mv) in kept.children)
            follow_up = bots[0].analyse(obs, Budget(iterations=10))
            # Ten fresh iterations on each process, the calling one's earlier visits, and
            # the worker's earlier visits on top.
            assert sum(e.visits for e in follow_up) > local + 20
            afresh = bots[1].analyse(obs, Budget(iterations=10))
            assert sum(e.visits for e in afresh) == 20
            return
    finally:
        for bot in bots:
            bot.close()
    pytest.fail("no position where one player decides twice in a row")


def test_in_a_timed_decision_the_worker_searches_its_share_too(monkeypatch) -> None:
    """The worker gets its share before the calling process starts its own (a share sent
    later found its time spent): every decision after the first merges two shares, each
    with iterations."""
    from solstis_tui.core import Game

    game = Game.new(seed=3)
    bot = make_bot("expert", 5, workers=2)
    merged: list[list[int]] = []
    real = expert._merge

    def spy(shares):
        merged.append([sum(n for _, n, _, _ in share) for share in shares])
        return real(shares)

    monkeypatch.setattr(expert, "_merge", spy)
    # On a busy machine the worker may send its share back later than the shipped wait
    # allows (the decision then goes on without it): wait for it here, with generous
    # guards, so that only a share handed out too late (no iterations) fails.
    for name, guard in (("GRACE", 60.0), ("GRACE_PART", 60.0)):
        monkeypatch.setattr(expert, name, guard)
    try:
        bot.analyse(game.observation(game.to_play), Budget(iterations=20))  # workers start
        for _ in range(3):
            estimates = bot.analyse(game.observation(game.to_play), Budget(seconds=1.0))
            game.play(estimates[0].move)
        assert len(merged) == 4
        assert all(len(shares) == 2 and min(shares) > 0 for shares in merged[1:]), merged
    finally:
        bot.close()

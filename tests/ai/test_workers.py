"""Worker processes (``ai/workers.py``): a job's answer, error or cancel comes back; a
worker that overruns, or dies, is replaced; closing or dropping a worker ends its process;
and no multiprocessing resource tracker is started for them."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time

import pytest

from solstis_tui.ai.base import Cancelled
from solstis_tui.ai.workers import JobFailed, Worker, WorkerLost, WorkerPool

from . import worker_jobs as jobs

BOUND = 120.0  # a guard against a hung test, never the expectation


def ended(pid: int) -> bool:
    """The process is gone (and reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


@pytest.fixture
def worker():
    w = Worker("solstis-test")
    yield w
    w.close()


def test_a_job_answers_and_an_error_comes_back_in_words(worker: Worker) -> None:
    assert worker.ask(jobs.square, 7) == 49
    with pytest.raises(JobFailed, match="5 is not welcome") as failed:
        worker.ask(jobs.refuse, 5)
    assert failed.value.kind == "ValueError"
    assert worker.ask(jobs.square, 3) == 9  # the same process goes on
    assert worker.ask(jobs.pid) != os.getpid()


def test_a_cancel_reaches_the_running_job(worker: Worker) -> None:
    cancel = threading.Event()
    timer = threading.Timer(0.2, cancel.set)
    timer.start()
    with pytest.raises(Cancelled):
        worker.ask(jobs.until_cancelled, cancel=cancel)
    timer.join()
    assert worker.ask(jobs.square, 2) == 4  # a cancel does not touch the next job


def test_a_worker_that_overruns_is_killed_and_the_next_job_gets_a_new_one(
        worker: Worker) -> None:
    first = worker.ask(jobs.pid)
    with pytest.raises(WorkerLost, match="overran"):
        worker.ask(jobs.sleep, 600, timeout=0.2)
    second = worker.ask(jobs.pid)
    assert second != first
    wait_until(lambda: ended(first), "the overrunning worker still runs")


def test_a_worker_killed_from_outside_is_lost_then_replaced(worker: Worker) -> None:
    first = worker.ask(jobs.pid)
    worker.send(jobs.sleep, 600)
    os.kill(first, signal.SIGKILL)
    with pytest.raises(WorkerLost):
        worker.answer(timeout=BOUND)
    assert worker.ask(jobs.square, 5) == 25
    assert worker.pid != first


def test_a_later_job_drops_the_answer_of_an_earlier_one(worker: Worker) -> None:
    worker.ensure_started()
    worker.send(jobs.sleep, 0.2)
    worker.send(jobs.square, 6)
    found = worker.answer(timeout=BOUND)
    assert found is not None and found.get() == 36


def test_closing_or_dropping_a_worker_ends_its_process() -> None:
    closed, dropped = Worker(), Worker()
    pids = [closed.ask(jobs.pid), dropped.ask(jobs.pid)]
    closed.close()
    assert ended(pids[0])  # close waits for it
    del dropped
    gc.collect()
    wait_until(lambda: ended(pids[1]), "a dropped worker's process still runs")


def test_stopping_a_busy_worker_ends_it_at_once(worker: Worker) -> None:
    first = worker.ask(jobs.pid)
    worker.send(jobs.sleep, 600)
    worker.stop()
    wait_until(lambda: worker.join(0), "the busy worker outlived its stop")
    assert ended(first)


def test_a_pool_answers_in_order_or_as_they_come() -> None:
    with WorkerPool(2) as pool:
        assert list(pool.imap(jobs.slow_square, range(8))) == [x * x for x in range(8)]
        came = list(pool.imap(jobs.slow_square, range(8), ordered=False))
        assert sorted(came) == [x * x for x in range(8)]
        assert len(pool.workers) == 2


def test_a_failing_job_stops_the_pool_and_kills_the_busy_workers() -> None:
    with WorkerPool(2) as pool:
        answers = pool.imap(jobs.refuse_or_sleep, [600, 1])
        with pytest.raises(JobFailed, match="1 is not welcome"):
            next(answers)
        assert len(pool.workers) == 2 and not any(w.busy for w in pool.workers)
        # the one sleeping is killed; the one whose job failed waits for more
        wait_until(lambda: [w.join(0) for w in pool.workers].count(True) == 1,
                   "the worker still on its job outlived the failure")
        assert list(pool.imap(jobs.square, [1, 2, 3])) == [1, 4, 9]


SCRIPT = """
import subprocess, sys
from solstis_tui.ai.workers import WorkerPool
from tests.ai import worker_jobs

if __name__ == "__main__":
    with WorkerPool(2) as pool:
        assert list(pool.imap(worker_jobs.square, range(4))) == [0, 1, 4, 9]
        tree = subprocess.run(["ps", "-o", "args=", "--ppid", str(__import__("os").getpid())],
                              capture_output=True, text=True).stdout
    print("tracker" if "resource_tracker" in tree else "no tracker", len(pool.workers))
"""


def test_workers_start_no_resource_tracker(tmp_path) -> None:
    """multiprocessing's tracker would be one more process to outlive a killed parent."""
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "pool.py"
    script.write_text(SCRIPT)
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
                          timeout=BOUND)
    assert done.stdout.split() == ["no", "tracker", "0"], done.stdout + done.stderr


def test_an_event_loop_drives_a_worker_without_waiting_on_it() -> None:
    """What the host's asyncio pool does: a reader on ``fileno()`` takes answers; a kill
    for an overrun reads as the worker's end; a reader on ``sentinel`` reaps it."""
    import asyncio

    async def drive() -> None:
        loop = asyncio.get_running_loop()
        worker = Worker("solstis-loop")
        worker.start()
        fd = worker.fileno()
        answers: asyncio.Queue[object] = asyncio.Queue()

        def readable() -> None:
            try:
                found = worker.answer(0)
            except WorkerLost as exc:
                loop.remove_reader(fd)
                answers.put_nowait(exc)
                return
            if found is not None:
                answers.put_nowait(found.get())

        loop.add_reader(fd, readable)
        worker.send(jobs.square, 9)
        assert await asyncio.wait_for(answers.get(), BOUND) == 81
        pid = worker.pid
        worker.send(jobs.sleep, 600)
        loop.call_later(0.1, worker.kill)  # it overran
        assert isinstance(await asyncio.wait_for(answers.get(), BOUND), WorkerLost)
        if not worker.join(0):
            reaped = loop.create_future()
            sentinel = worker.sentinel

            def on_end() -> None:
                loop.remove_reader(sentinel)
                reaped.set_result(worker.join())

            loop.add_reader(sentinel, on_end)
            assert await asyncio.wait_for(reaped, BOUND)
        assert pid is not None and ended(pid)

    asyncio.run(drive())



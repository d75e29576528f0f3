"""Each finished game judged once, at the host, and its analysis kept beside its record.

As lichess keeps a game's server analysis with it: when a game's result and record are
stored, the analyst queues it; one game at a time, the coach's store judges it in a worker
process of its own (``ai/workers.py``: it dies with the host, ``kill -9`` included) at the
lowest priority (``nice`` 19, one process), so the tables' bots and keys come first. The
record and its analysis are kept in
``analyses/`` in the host's data directory (``<game>.solstis`` and
``<game>.solstis.analysis.json``, the store's own layout: ``coach/store.py``). A reader who
fetches the record gets the analysis with it (``AfterGame.record``), and the client
shows it at once.

The analysis is the host's own file, made from the record in its own database by its own
program; the client still parses it as data (``analysis.from_json``) and shows its words
as text. A game whose analysis would not fit in one message is sent without it (the
client judges it). The host's own process never loads the coach: the judge runs in the
worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from ..ai.workers import JobFailed, Worker, WorkerLost
from ..files import read_regular, write_atomic

log = logging.getLogger(__name__)

#: The folder of records and analyses, in the host's data directory.
FOLDER: Final = "analyses"
#: A game's id as the host makes them (``Table.game_id``): the only names written here.
GAME: Final = re.compile(r"g[0-9a-f]{32}")
#: The longest a game's judging may take before its worker is killed (a 60-decision game
#: takes about 15 s on a quiet core).
TIMEOUT: Final = 900.0
#: The most games waiting to be judged; a game finished while the queue is full is not
#: judged here (its readers' clients judge it).
QUEUE: Final = 1000
#: The most of a kept analysis file read (it is written indented: larger than it is sent;
#: the coach's store keeps files up to the same size).
MAX_KEPT_BYTES: Final = 20_000_000
#: How much lower the analyst's worker runs than the host: the lowest priority there is.
NICE: Final = 19


class Analyst:
    """Judges finished games one at a time (``submit``), and hands back what it kept
    (``kept``). ``text_of(game)`` reads a stored game's record (None: none)."""

    def __init__(self, data_dir: Path, text_of: Callable[[str], Awaitable[str | None]],
                 timeout: float = TIMEOUT, *, on: bool = True,
                 effort: object | None = None) -> None:
        self.folder = data_dir / FOLDER
        self.text_of = text_of
        self.timeout = timeout
        self.on = on
        """Whether games are judged (a host may leave it to its readers' clients)."""
        self.effort = effort
        """The coach's ``Effort`` (None: its store's)."""
        self.queue: asyncio.Queue[str] = asyncio.Queue(QUEUE)
        self.task: asyncio.Task[None] | None = None
        self.worker = Worker("solstis-analyst", nice=NICE)
        self.judged = 0
        self.failed = 0

    def start(self) -> None:
        if self.on and self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if not self.on:
            return
        self.worker.kill()  # a game being judged is dropped; the worker's thread returns
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None
        await asyncio.to_thread(self.worker.close)

    def submit(self, game: str) -> None:
        """Queue ``game`` (stored, over) to be judged, unless it was or the queue is full."""
        if not self.on or not GAME.fullmatch(game) or self._analysis(game).exists():
            return
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(game)

    def _record(self, game: str) -> Path:
        return self.folder / f"{game}.solstis"

    def _analysis(self, game: str) -> Path:
        return self.folder / f"{game}.solstis.analysis.json"

    def kept(self, game: str, room: int) -> dict[str, Any] | None:
        """``game``'s kept analysis (the JSON ``solstis analyze --json`` prints) if there
        is one and it takes at most ``room`` characters as JSON; else None."""
        if not GAME.fullmatch(game):
            return None
        try:
            raw = read_regular(self._analysis(game), MAX_KEPT_BYTES)
            data = json.loads(raw)
        except (OSError, ValueError, RecursionError):
            return None
        found = data.get("analysis") if isinstance(data, dict) else None
        if not isinstance(found, dict):
            return None
        if len(json.dumps(found, ensure_ascii=False)) > room:
            return None
        return found

    async def idle(self) -> None:
        """Wait until every game submitted so far is judged (or failed)."""
        await self.queue.join()

    async def _run(self) -> None:
        while True:
            game = await self.queue.get()
            try:
                await self._judge(game)
            except asyncio.CancelledError:
                raise
            except Exception:  # one game's trouble never stops the others
                self.failed += 1
                log.exception("the analysis of %s failed", game)
            finally:
                self.queue.task_done()

    async def _judge(self, game: str) -> None:
        if self._analysis(game).exists():
            return
        text = await self.text_of(game)
        if text is None:
            return
        path = self._record(game)
        await asyncio.to_thread(write_atomic, path, text)
        try:
            kept = await asyncio.to_thread(self.worker.ask, judge_record, str(path),
                                           self.effort, timeout=self.timeout)
        except (JobFailed, WorkerLost) as exc:
            self.failed += 1
            log.warning("the analysis of %s failed: %s", game, exc)
            return
        if kept:
            self.judged += 1
        else:
            self.failed += 1


def judge_record(path: str, effort: object | None = None) -> bool:
    """In the analyst's worker: judge the record at ``path`` and keep its analysis beside
    it (the coach's store, at ``effort``, default its own, and its seed); whether it was
    kept."""
    from ..coach import analysis, store

    chosen = effort if isinstance(effort, analysis.Effort) else None
    return store.analysed(Path(path), workers=1, effort=chosen).not_kept is None

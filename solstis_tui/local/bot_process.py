"""Bots that think in a worker process of their own, so that the screen never waits on them.

A search bot keeps a core busy for its whole budget; in the app's own process it would hold
the interpreter (the compiled search runs long stretches without letting other threads in)
and a key could wait until the search ends. ``BotProcess`` stands in for such a bot: it
has the bot's ``choose``, ``rank`` and ``close``, and sends each request to a process that
holds the real bot (made once, so it keeps its tree from one decision to the next). The
process runs at a lower priority than the app, so the screen comes first on a busy
machine. A cancel set in the app reaches the search within 10 ms.

When no process can be started (a process limit, a sandbox), the bot thinks in the calling
thread instead, as every bot did before.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import weakref
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Protocol

from solstis_tui.ai.base import Bot, Budget, Cancelled
from solstis_tui.ai.expert import start_resource_tracker
from solstis_tui.ai.lifeline import die_with_parent
from solstis_tui.ai.lifeline import start as start_process
from solstis_tui.ai.registry import make_bot, make_solo_bot
from solstis_tui.core import Move, Observation

#: The worker runs this much nicer than the app (the screen comes first).
WORKER_NICE = 10
#: How often a waiting request looks at the app's cancel event, in seconds.
POLL = 0.01

Signal = Any  # a multiprocessing Event, made by the process context
if TYPE_CHECKING:  # generic only to type checkers
    from solstis_tui.analysis import Effort
    from solstis_tui.play.hints import Answer

    #: What stops a worker when its BotProcess goes: _stop(process, pipe).
    Finalizer = weakref.finalize[[multiprocessing.process.BaseProcess, Connection], "BotProcess"]


class Cancel(Protocol):
    def is_set(self) -> bool: ...


class BotFailed(Exception):
    """The bot in the worker process raised; the message is its error's, as it said it."""


def _serve(conn: Connection, cancel: Signal, spec: str, seed: int | None, solo: bool) -> None:
    """The worker: make the bot, then answer requests until the app hangs up (or dies:
    see lifeline)."""
    die_with_parent()
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
    make = make_solo_bot if solo else make_bot
    bot: Bot | None = None
    while True:
        try:
            method, obs, budget, fresh = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if method == "judge":  # a hint: the judge, at the effort sent as the budget
                reply: tuple[str, Any] = ("ok", _judge(obs, budget, cancel))
            else:
                if bot is None or fresh:
                    bot = make(spec, seed)
                reply = ("ok", getattr(bot, method)(obs, budget, cancel))
        except Cancelled:
            reply = ("cancelled", None)
        except Exception as exc:  # the app shows the reason and plays on
            reply = ("error", f"{exc}" or type(exc).__name__)
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


def _judge(obs: Observation, asked: Any, cancel: Cancel | None) -> Answer:
    """A hint (``play.hints.answer``): ``asked`` is (effort or None for the default, the
    seats' names)."""
    from solstis_tui.play.hints import HINT_EFFORT, answer

    effort, names = asked
    return answer(obs, names, effort if effort is not None else HINT_EFFORT, cancel)


def _stop(process: multiprocessing.process.BaseProcess, conn: Connection) -> None:
    """Hang up on the worker and make sure it ends."""
    with contextlib.suppress(OSError):
        conn.close()
    process.join(timeout=1.0)
    if process.is_alive():
        process.kill()
        process.join(timeout=1.0)


class BotProcess:
    """The bot ``spec`` (a tier or ``package.module:Class``), thinking in a worker process.

    ``solo`` makes a root-parallel bot (the expert) search on the worker alone, as hints
    do; ``fresh`` requests (``rank(..., fresh=True)``) use a new bot each time, seeded alike,
    so that the same position gets the same answer. A bad spec raises ValueError at once.
    """

    def __init__(self, spec: str, seed: int | None = None, *, solo: bool = False) -> None:
        probe = (make_solo_bot if solo else make_bot)(spec, seed)  # checks the spec now
        self.name, self.description = probe.name, probe.description
        self.default_budget = probe.default_budget
        close = getattr(probe, "close", None)
        if close is not None:
            close()
        self.spec, self.seed, self.solo = spec, seed, solo
        self._lock = threading.Lock()  # one request at a time
        self._local: Bot | None = None
        self._conn: Connection | None = None
        self._cancel: Signal = None
        self._finalizer: Finalizer | None = None

    # ------------------------------------------------------------------ the bot's API
    def choose(self, obs: Observation, budget: Budget | None = None,
               cancel: Cancel | None = None) -> Move:
        move: Move = self._ask("choose", obs, budget, cancel, fresh=False)
        return move

    def rank(self, obs: Observation, budget: Budget | None = None,
             cancel: Cancel | None = None, *, fresh: bool = False) -> list[tuple[Move, float]]:
        ranked: list[tuple[Move, float]] = self._ask("rank", obs, budget, cancel, fresh=fresh)
        return ranked

    def judge(self, obs: Observation, names: tuple[str, str], effort: Effort | None = None,
              cancel: Cancel | None = None) -> Answer:
        """A hint for ``obs``: the judge's values of its legal moves, best first, and the
        words (``play.hints.answer``; ``effort``: ``HINT_EFFORT`` if None). Cancelled soon
        after ``cancel`` is set."""
        found: Answer = self._ask("judge", obs, (effort, names), cancel, fresh=False)
        return found

    def close(self) -> None:
        """Stop the worker process (a later request starts it again)."""
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None
        self._conn = None
        if self._local is not None:
            local_close = getattr(self._local, "close", None)
            if local_close is not None:
                local_close()

    # ------------------------------------------------------------------ the work
    def _ask(self, method: str, obs: Observation, budget: Any,
             cancel: Cancel | None, *, fresh: bool) -> Any:
        with self._lock:
            conn = self._connection()
            if conn is None:  # no worker process here: think in this thread
                return self._ask_locally(method, obs, budget, cancel, fresh)
            self._cancel.clear()
            try:
                conn.send((method, obs, budget, fresh))
                while not conn.poll(POLL):
                    if cancel is not None and cancel.is_set():
                        self._cancel.set()
                status, answer = conn.recv()
            except (EOFError, OSError) as exc:
                self.close()
                raise BotFailed(f"the bot's process stopped: {exc}") from None
        if status == "error":
            raise BotFailed(answer)
        if status == "cancelled":
            raise Cancelled
        return answer

    def _ask_locally(self, method: str, obs: Observation, budget: Any,
                     cancel: Cancel | None, fresh: bool) -> Any:
        if method == "judge":
            return _judge(obs, budget, cancel)
        if self._local is None or fresh:
            self._local = (make_solo_bot if self.solo else make_bot)(self.spec, self.seed)
        return getattr(self._local, method)(obs, budget, cancel)

    def _connection(self) -> Connection | None:
        """The pipe to the worker, starting it if need be; None where none can start."""
        if self._conn is not None:
            return self._conn
        try:
            start_resource_tracker()  # inside a Textual app, with the real stderr
            context = multiprocessing.get_context("spawn")
            ours, theirs = context.Pipe()
            self._cancel = context.Event()
            process = context.Process(target=_serve, name=f"solstis-bot-{self.name}",
                                      args=(theirs, self._cancel, self.spec, self.seed,
                                            self.solo))
            start_process(process)  # from a thread that lives as long as the app
        except (OSError, RuntimeError, ValueError):
            return None
        theirs.close()
        self._conn = ours
        self._finalizer = weakref.finalize(self, _stop, process, ours)
        return ours

"""Bots that think in a worker process of their own, so that the screen never waits on them.

A search bot keeps a core busy for its whole budget; in the app's own process it would hold
the interpreter (the compiled search runs long stretches without letting other threads in)
and a key could wait until the search ends. ``BotProcess`` stands in for such a bot: it
has the bot's ``choose``, ``rank`` and ``close``, and sends each request to a process that
holds the real bot (made once, so it keeps its tree from one decision to the next). The
process runs at a lower priority than the app, so the screen comes first on a busy
machine. A cancel set in the app reaches the search within 10 ms. The process
(``ai/workers.py``) dies with the app, however the app ends.

When no process can be started (a process limit, a sandbox), the bot thinks in the calling
thread instead, as every bot did before.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Protocol

from solstis_tui.ai.base import Bot, Budget
from solstis_tui.ai.registry import make_bot, make_solo_bot
from solstis_tui.ai.workers import JobFailed, Worker, WorkerLost, cancel_signal
from solstis_tui.core import Move, Observation

#: The worker runs this much nicer than the app (the screen comes first).
WORKER_NICE = 10

if TYPE_CHECKING:
    from solstis_tui.coach.analysis import Effort
    from solstis_tui.coach.hints import Answer


class Cancel(Protocol):
    def is_set(self) -> bool: ...


class BotFailed(Exception):
    """The bot in the worker process raised; the message is its error's, as it said it."""


_spec: tuple[str, int | None, bool] = ("", None, False)
"""In the worker: the bot it holds (spec, seed, solo)."""
_bot: Bot | None = None
"""In the worker: the bot, made at the first request (so it keeps its tree)."""


def _hold(spec: str, seed: int | None, solo: bool) -> None:
    """The worker's start: which bot it is to hold."""
    global _spec
    _spec = (spec, seed, solo)


def _request(method: str, obs: Observation, budget: Any, fresh: bool) -> Any:
    """One request, in the worker: a bot's ``choose`` or ``rank`` (a new bot if ``fresh``),
    or a hint (``judge``)."""
    global _bot
    cancel = cancel_signal()
    if method == "judge":  # a hint: the judge, at the effort sent as the budget
        return _judge(obs, budget, cancel)
    spec, seed, solo = _spec
    if _bot is None or fresh:
        _bot = (make_solo_bot if solo else make_bot)(spec, seed)
    return getattr(_bot, method)(obs, budget, cancel)


def _judge(obs: Observation, asked: Any, cancel: Cancel | None) -> Answer:
    """A hint (``play.hints.answer``): ``asked`` is (effort or None for the default, the
    seats' names)."""
    from solstis_tui.coach.hints import HINT_EFFORT, answer

    effort, names = asked
    return answer(obs, names, effort if effort is not None else HINT_EFFORT, cancel)


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
        self._worker: Worker | None = None

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
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.close()
        if self._local is not None:
            local_close = getattr(self._local, "close", None)
            if local_close is not None:
                local_close()

    # ------------------------------------------------------------------ the work
    def _ask(self, method: str, obs: Observation, budget: Any,
             cancel: Cancel | None, *, fresh: bool) -> Any:
        with self._lock:
            worker = self._started()
            if worker is None:  # no worker process here: think in this thread
                return self._ask_locally(method, obs, budget, cancel, fresh)
            try:
                return worker.ask(_request, method, obs, budget, fresh, cancel=cancel)
            except JobFailed as exc:
                raise BotFailed(str(exc)) from None
            except WorkerLost as exc:
                self.close()
                raise BotFailed(f"the bot's process stopped: {exc}") from None

    def _ask_locally(self, method: str, obs: Observation, budget: Any,
                     cancel: Cancel | None, fresh: bool) -> Any:
        if method == "judge":
            return _judge(obs, budget, cancel)
        if self._local is None or fresh:
            self._local = (make_solo_bot if self.solo else make_bot)(self.spec, self.seed)
        return getattr(self._local, method)(obs, budget, cancel)

    def _started(self) -> Worker | None:
        """The worker, starting it if need be; None where none can start."""
        if self._worker is None:
            self._worker = Worker(f"solstis-bot-{self.name}", nice=WORKER_NICE,
                                  initializer=_hold,
                                  initargs=(self.spec, self.seed, self.solo))
        try:
            self._worker.ensure_started()  # from a thread that lives as long as the app
        except WorkerLost:
            self._worker = None
            return None
        return self._worker

"""Misbehaving bots for the bad-situation tests (loaded as ``tests.tui.bots:Class``)."""

from __future__ import annotations

import threading

from solstis_tui.ai.base import Bot

#: Set by SlowBot when its search sees the cancel event.
CANCELLED = threading.Event()
STARTED = threading.Event()


class FailingBot(Bot):
    """Raises on every decision."""

    name = "failing"

    def choose(self, obs, budget=None, cancel=None):
        raise RuntimeError("the bot's search blew up")


class SlowBot(Bot):
    """Thinks until cancelled (at most 30 s), checking the cancel event every 10 ms."""

    name = "slow"

    def choose(self, obs, budget=None, cancel=None):
        STARTED.set()
        for _ in range(3000):
            if cancel is not None and cancel.wait(0.01):
                CANCELLED.set()
                return obs.legal_moves[0]
        return obs.legal_moves[0]


class MarkupBot(Bot):
    """Raises with brackets in its message (shown as written, never as markup)."""

    name = "markup"

    def choose(self, obs, budget=None, cancel=None):
        raise RuntimeError("[/x] [bold]blew[@click=app.quit] up")


class BackwardsRanker(Bot):
    """Ranks the legal moves in order but values each one above the one before it (a
    search's order and its means can disagree like this on thin evidence)."""

    name = "backwards"

    def choose(self, obs, budget=None, cancel=None):
        return obs.legal_moves[0]

    def rank(self, obs, budget=None, cancel=None):
        return [(mv, float(i)) for i, mv in enumerate(obs.legal_moves)]

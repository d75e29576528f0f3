"""The lobby moves by itself: when tables change, the host pushes each client looking at
the lobby its page again, only if that page changed, and at most once a second: when a
table came, went or changed its status (the lobby's order changed), within a second;
when only moves were played or players came and went, within ``MOVE_INTERVAL`` (a
busy host's games move all the time, and their turn numbers are not worth a page a
second to every connection).

A round builds what every page shares once (``views.LobbyLook``: who is where, each
table's row as wire bytes), so that its cost grows with the connections and the rows
shown, not with connections times rows; a client that reads nothing is dropped by its
send buffer, as for any other message (``Connection.push_line``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from .connection import Connection
from .views import LobbyLook, LobbyOrder, RatingOf, lobby_page_bytes

log = logging.getLogger("solstis.host")
#: The shortest time between two pushes to one connection (seconds).
PUSH_INTERVAL = 1.0
#: ... when nothing but moves and presence changed since the last push.
MOVE_INTERVAL = 5.0


class LobbyPush:
    """Pushes lobby pages to ``conns`` whose ``lobby_offset`` is set, after ``changed``."""

    def __init__(self, conns: set[Connection], order: Callable[[], LobbyOrder],
                 rating_of: RatingOf, page_size: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.conns = conns
        self.order = order
        self.rating_of = rating_of
        self.page_size = page_size
        self.clock = clock
        self._changed = asyncio.Event()
        self._order_changed = asyncio.Event()
        self.last_round = float("-inf")
        self.rounds = 0
        self.pushed = 0

    def changed(self, order: bool = False) -> None:
        """Something a lobby page shows changed (``order``: a table came, went or changed
        its status): a push round follows, within a second for an ``order`` change and
        within ``MOVE_INTERVAL`` for any other."""
        self._changed.set()
        if order:
            self._order_changed.set()

    async def run(self) -> None:
        """Push after each change, a round at most every ``PUSH_INTERVAL``, until
        cancelled."""
        while True:
            await self._changed.wait()
            while (wait := self._due() - self.clock()) > 0:
                if self._order_changed.is_set():
                    await asyncio.sleep(wait)
                    continue
                with contextlib.suppress(TimeoutError):  # an order change comes sooner
                    async with asyncio.timeout(wait):
                        await self._order_changed.wait()
            self._changed.clear()
            self._order_changed.clear()
            self.last_round = self.clock()
            try:
                self.push_round()
            except Exception:  # a bug must cost one round, never the lobby's pushes
                log.exception("a lobby push round failed")

    def _due(self) -> float:
        """When the next round may be: a second after the last for an order change."""
        interval = PUSH_INTERVAL if self._order_changed.is_set() else MOVE_INTERVAL
        return self.last_round + interval

    def push_round(self) -> int:
        """Push its page to each connection looking at the lobby whose page differs from
        the one it was last pushed; how many were pushed."""
        order = self.order()
        look = LobbyLook(self.conns, self.rating_of)
        pages: dict[tuple[str | None, int], bytes] = {}
        pushed = 0
        for conn in list(self.conns):
            offset = conn.lobby_offset
            if offset is None or conn.closed or conn.code is None:
                continue
            key = (conn.code if order.mine.get(conn.code) else None, offset)
            line = pages.get(key)
            if line is None:
                line = pages[key] = lobby_page_bytes(order, look, conn.code, offset,
                                                     self.page_size)
            if line != conn.lobby_sent:
                conn.lobby_sent = line
                conn.push_line(line)
                pushed += 1
        self.rounds += 1
        self.pushed += pushed
        return pushed

"""The garbage collector's full passes at quiet moments, not in the middle of a key.

CPython starts a full pass when enough objects have been made since the last one, that is,
while the app is busy making them: building the screen a key opened. A full pass over the
app's objects takes 30–80 ms, so it landed on the key that caused it, and one key in ten
or twenty answered late. ``QuietCollector`` raises the automatic full pass out of reach
and makes it itself, from a timer, once no key or click has come for ``quiet`` seconds; if
input never stops (a key held down), it makes one anyway after ``most`` young passes, so
memory stays bounded.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

#: A full pass is due after this many middle-generation passes (CPython's own threshold).
DUE = 10
#: ... and made even during input after this many.
MOST = 30
#: Seconds without input that count as quiet.
QUIET = 0.15
#: The automatic full pass's threshold while a ``QuietCollector`` is on: out of reach.
OUT_OF_REACH = 1_000_000


class QuietCollector:
    """Full garbage-collector passes when the app is quiet (see the module's text)."""

    def __init__(self, *, quiet: float = QUIET, due: int = DUE, most: int = MOST,
                 clock: Callable[[], float] = time.monotonic,
                 pending: Callable[[], int] = lambda: gc.get_count()[2],
                 collect: Callable[[], object] = gc.collect) -> None:
        self.quiet, self.due, self.most = quiet, due, most
        self.clock, self.pending, self.collect = clock, pending, collect
        self.last_input = clock()
        self._thresholds: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Take the full pass from CPython (the younger ones stay automatic)."""
        if self._thresholds is None:
            self._thresholds = gc.get_threshold()
            young, middle, _full = self._thresholds
            gc.set_threshold(young, middle, OUT_OF_REACH)

    def stop(self) -> None:
        """Give the full pass back to CPython (the app has ended)."""
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    def input_came(self) -> None:
        """A key or a click: not a quiet moment."""
        self.last_input = self.clock()

    def tick(self) -> bool:
        """Make a full pass if one is due and the app is quiet (or one is overdue); True
        if it made one."""
        pending = self.pending()
        quiet = self.clock() - self.last_input >= self.quiet
        if pending >= self.most or (pending >= self.due and quiet):
            self.collect()
            return True
        return False

"""The host's limits: every number that keeps one hostile client from hurting the others.

Each field is documented in docs/protocol.md ("Limits"); `solstis host` sets the ones an
operator may want to change.
"""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass

from .rating_rules import PAIR_GAMES_PER_DAY

FD_HEADROOM = 64  # descriptors kept free for table files, bot workers and the listeners
ACCEPT_BURST = 32  # connections accepted in one go (asyncio takes this many per wake-up)


@dataclass(frozen=True)
class Limits:
    """Numbers the host enforces (the defaults suit a host for a few hundred players)."""

    max_connections: int = 256  # open connections; never more than the fd limit allows
    connections_per_player: int = 3  # one player's connections at once (a window each)
    guest_connections: int = 16  # guests' connections at once, all guests together
    chat_lines_per_minute: float = 20.0  # one identity's chat lines (bursts of as many)
    new_tables_per_minute: float = 10.0  # one identity's new tables (bursts of as many)
    guest_tables: int = 16  # unfinished tables with a guest at them, all guests together
    guest_bot_tables: int = 4  # ... of those, games against a bot
    # rated games of the same two people that count in 24 hours (bots are nobody's pair;
    # the sentence players read says the default: rating_rules.PAIR_GAMES_PER_DAY)
    rated_games_per_pair_per_day: int = PAIR_GAMES_PER_DAY
    message_rate: float = 20.0  # messages a second from one connection, on average
    message_burst: float = 60.0  # ... and in one burst
    backlog: int = 512  # connections waiting to be accepted
    hello_seconds: float = 60.0  # a connection must say hello within this time
    idle_seconds: float = 300.0  # a connection that sends nothing this long is closed
    send_buffer: int = 256 * 1024  # bytes a client may leave unread before it is dropped
    page_size: int = 50  # rows in one `welcome` or `tables` message
    tables_per_player: int = 5  # unfinished tables one player sits at
    correspondence_tables_per_player: int = 10  # unfinished correspondence tables, apart
    bot_tables_per_player: int = 2  # of those, games against a bot (bots cost the host CPU)
    bot_tables_per_worker: int = 4  # unfinished bot games host-wide, per bot worker it has
    bot_busy_retry_seconds: float = 120.0  # when a refused bot game is told to try again
    max_open_tables: int = 200  # tables waiting for a second player, host-wide
    open_tables_per_player: int = 2  # of a player's tables, those waiting for a player
    finished_tables_per_player: int = 5  # a player's latest finished tables kept (older go)
    max_finished_tables: int = 500  # finished tables kept host-wide (the oldest go first)
    watched_per_connection: int = 4  # tables one connection watches at once
    open_table_seconds: float = 3600.0  # a table still waiting for a player closes then
    table_expire_seconds: float = 24 * 3600.0  # a table with no move and nobody there goes
    player_expire_seconds: float = 30 * 24 * 3600.0  # a resume code unused this long goes
    guest_expire_seconds: float = 24 * 3600.0  # ... a guest's, unused this long
    new_names_per_minute: float = 60.0  # new players host-wide (bursts of as many)
    code_failures_per_connection: int = 3  # wrong resume codes, then disconnection
    code_failures_per_minute: float = 60.0  # wrong resume codes host-wide (bursts as many)
    records_per_minute: float = 30.0  # one identity's `games` pages and `record`s (bursts)

    def connection_cap(self) -> int:
        """``max_connections``, lowered so that the open-file limit is never reached: it
        leaves ``FD_HEADROOM`` descriptors free, and room for connections just accepted
        and not yet refused (a few bursts of ``ACCEPT_BURST``)."""
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return self.max_connections
        return max(1, min(self.max_connections, soft - FD_HEADROOM - 4 * ACCEPT_BURST))


class TokenBucket:
    """An allowance of ``burst`` events that refills at ``rate`` events a second."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = float(burst), time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def ready(self) -> bool:
        """Whether one event is allowed now (spends nothing)."""
        self._refill()
        return self.tokens >= 1

    def full(self) -> bool:
        """Whether the allowance is whole again (nothing spent is still counted)."""
        self._refill()
        return self.tokens >= self.burst

    def take(self) -> bool:
        """Spend one event; False (spending nothing) when the allowance is used up."""
        if not self.ready():
            return False
        self.tokens -= 1
        return True


def per_minute(count: float) -> TokenBucket:
    """A bucket of ``count`` events a minute, in bursts of up to ``count``."""
    return TokenBucket(count / 60.0, count)

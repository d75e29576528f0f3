"""Rating pools: live games and correspondence games are rated apart (``POOLS``), as
lichess does: a player's strength at minutes a move says little of it at days a move.

A rated identity (``key:…``, ``user:…``, ``bot:<tier>``) has one rating in each pool. The
ratings database keeps both in its one table, the correspondence rating under the
identity's key in that pool (``corr:`` and the identity): the results, the pair rule and
the leaderboard's rule then keep each pool to itself with no other change.
"""

from __future__ import annotations

from typing import overload

from ..wire.protocol import POOLS

LIVE, CORRESPONDENCE = POOLS
#: What a rating's key in the correspondence pool starts with (never an identity's own
#: start: those are ``key:``, ``user:``, ``bot:``).
CORRESPONDENCE_MARK = "corr:"


@overload
def pool_key(identity: str, pool: str) -> str: ...
@overload
def pool_key(identity: str | None, pool: str) -> str | None: ...
def pool_key(identity: str | None, pool: str) -> str | None:
    """The key of ``identity``'s rating in ``pool`` (None stays None: nobody's)."""
    if identity is None or pool == LIVE or identity == "guest" or not identity:
        return identity
    return CORRESPONDENCE_MARK + identity


def pool_of_days(days: int) -> str:
    """The pool of a game at ``days`` a move (0: a live game)."""
    return CORRESPONDENCE if days else LIVE


def split_key(key: str) -> tuple[str, str]:
    """The identity a rating's key belongs to, and its pool."""
    if key.startswith(CORRESPONDENCE_MARK):
        return key[len(CORRESPONDENCE_MARK):], CORRESPONDENCE
    return key, LIVE

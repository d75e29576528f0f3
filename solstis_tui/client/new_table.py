"""The ``create`` request the lobby's form sends the host for a new table, as the wire has
it (``docs/protocol.md``). No Textual here."""

from __future__ import annotations

from typing import Any


def create_message(variant: str, opponent: str, seat: int | None, rated: bool = False,
                   clock: int | None = None, bank: int | None = None,
                   days: int = 0) -> dict[str, Any]:
    """A table of ``variant`` against ``opponent``, this player at ``seat`` (None: by lot);
    a correspondence game of ``days`` a move has no clock or bank of minutes; what is left
    out is the host's default."""
    message: dict[str, Any] = {"type": "create", "variant": variant, "opponent": opponent}
    if days:
        message["days"] = days
    elif clock is not None:
        message["clock"] = clock
    if bank is not None and not days:
        message["bank"] = bank
    if rated:
        message["rated"] = True
    if seat is not None:
        message["seat"] = seat
    return message

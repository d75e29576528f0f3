"""What the game host and its fleet gateway say to each other: typed JSON lines.

The gateway (``fleet_gateway``) is the one process that talks to the Dask cluster, and so
the one that unpickles what the cluster sends. The host trusts it no more than it trusts
the cluster: every line from the gateway is parsed here into one of three typed replies,
with every field's type and size checked, or refused (``BadReply``). The host then checks
each answer's move against the observation it sent (``fleet``).

Host → gateway: ``hello`` (once, first: the cluster's address and TLS material), ``ask``
(a decision: tier, seed, the bot seat's observation, thinking time) and ``cancel``.
Gateway → host: ``started`` (a worker began a decision: twice means the first worker was
lost and it was retried), ``answer`` (a move in the notation, iterations, seconds, the
worker), ``failed`` (no answer, in words) and ``presence`` (connected to the scheduler or
not, and how many workers it has).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Final

#: The longest line the host reads from the gateway: its replies are a few hundred bytes.
MAX_REPLY: Final = 4096
#: The longest move text, worker address and reason a reply may carry.
MAX_MOVE: Final = 64
MAX_WORKER: Final = 200
MAX_WHY: Final = 300
#: More workers, iterations or a larger id than this is not a sane answer.
MAX_WORKERS: Final = 100_000
MAX_ITERATIONS: Final = 10**9
MAX_ID: Final = 2**53


class BadReply(ValueError):
    """A gateway line that is not one of the replies below, with every field as expected."""


@dataclass(frozen=True)
class Answer:
    """A decision answered on the cluster."""

    id: int
    move: str
    iterations: int
    seconds: float
    worker: str


@dataclass(frozen=True)
class Started:
    """A worker began the decision (a second start: the first worker was lost)."""

    id: int


@dataclass(frozen=True)
class Failed:
    """A decision the cluster gave no answer for: ``why`` in words."""

    id: int
    why: str


@dataclass(frozen=True)
class Presence:
    """Whether the gateway is connected to the scheduler, and the workers it has."""

    connected: bool
    workers: int


Reply = Answer | Failed | Presence | Started


def line(message: dict[str, Any]) -> bytes:
    """One line of this wire (either way)."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode() + b"\n"


def ask(ident: int, tier: str, seed: int, observation: dict[str, Any],
        seconds: float) -> bytes:
    """The line asking the gateway for a decision."""
    return line({"type": "ask", "id": ident, "tier": tier, "seed": seed,
                 "observation": observation, "seconds": seconds})


def cancel(ident: int) -> bytes:
    return line({"type": "cancel", "id": ident})


def parse_reply(raw: bytes) -> Reply:
    """The gateway's reply on one line; BadReply, saying why, for anything else."""
    if len(raw) > MAX_REPLY:
        raise BadReply(f"a line of {len(raw)} bytes (at most {MAX_REPLY})")
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise BadReply(f"not JSON ({str(exc)[:80]})") from None
    if not isinstance(data, dict):
        raise BadReply("not a JSON object")
    kind = data.get("type")
    fields = set(data) - {"type"}
    if kind == "answer" and fields == {"id", "move", "iterations", "seconds", "worker"}:
        return Answer(_ident(data), _text(data, "move", MAX_MOVE),
                      _whole(data, "iterations", MAX_ITERATIONS), _seconds(data),
                      _text(data, "worker", MAX_WORKER))
    if kind == "started" and fields == {"id"}:
        return Started(_ident(data))
    if kind == "failed" and fields == {"id", "why"}:
        return Failed(_ident(data), _text(data, "why", MAX_WHY))
    if kind == "presence" and fields == {"connected", "workers"}:
        return Presence(_flag(data, "connected"), _whole(data, "workers", MAX_WORKERS))
    raise BadReply(f"not a started, answer, failed or presence line (type {str(kind)[:20]!r}, "
                   f"fields {sorted(fields)[:8]})")


def named_decision(raw: bytes) -> int | None:
    """The decision a refused line named plainly (``"id"``, a whole number), if any: the host
    then gives up on the fleet for it at once."""
    try:
        data = json.loads(raw, parse_constant=_no_constant)
        value = data["id"]
    except (ValueError, RecursionError, TypeError, KeyError):
        return None
    return value if type(value) is int and 0 <= value <= MAX_ID else None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number here")


def _ident(data: dict[str, Any]) -> int:
    return _whole(data, "id", MAX_ID)


def _whole(data: dict[str, Any], key: str, top: int) -> int:
    value = data[key]
    if type(value) is not int or not 0 <= value <= top:
        raise BadReply(f"{key} must be a whole number from 0 to {top}")
    return value


def _seconds(data: dict[str, Any]) -> float:
    value = data["seconds"]
    if type(value) not in (int, float) or not math.isfinite(value) or not 0 <= value <= 1e6:
        raise BadReply("seconds must be a number from 0 to 1e6")
    return float(value)


def _text(data: dict[str, Any], key: str, top: int) -> str:
    value = data[key]
    if not isinstance(value, str) or len(value) > top or not value.isprintable():
        raise BadReply(f"{key} must be printable text of at most {top} characters")
    return value


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data[key]
    if type(value) is not bool:
        raise BadReply(f"{key} must be true or false")
    return value

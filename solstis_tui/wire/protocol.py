"""The host protocol, version 2: one JSON object per line, UTF-8, at most 64 KiB a line.

Every message has a ``"type"``; a client may add an ``"id"`` that the reply echoes. The
first client message must be ``hello``. See docs/protocol.md for every message.
"""

from __future__ import annotations

import json
from typing import Any

#: Version 2: an observation says what is pending as named steps (``pending``), where
#: version 1 sent the engine's own step stack (``continuation``).
VERSION = 2
MAX_MESSAGE = 64 * 1024
MAX_NAME = 24
MAX_CHAT = 200
MAX_DIGITS = 30  # an integer in a message has at most this many digits
MAX_KEY = 16 * 1024  # characters of a public key in a hello (an RSA-16384 key is ~2.8 K)
#: The highest ``offset`` a ``list`` or ``leaders`` may ask for (far more rows than a host
#: ever has).
MAX_OFFSET = 1_000_000
#: The move clock: seconds a decision, by default and at the shortest a creator may pick.
DEFAULT_CLOCK = 300.0
MIN_CLOCK = 30.0

def version_refusal(version: int) -> str:
    """What a client speaking another protocol ``version`` is told (and nothing else)."""
    if version < VERSION:
        return (f"this host speaks protocol version {VERSION} and your solstis speaks "
                f"version {version}: update solstis-tui to play here")
    return (f"this host speaks protocol version {VERSION}, older than your solstis "
            f"(version {version}): ask the host's owner to update solstis-tui")


class ProtocolError(Exception):
    """A message the host refuses; ``code`` is machine-readable, the text is for people.
    With ``close`` the host closes the connection after sending the error."""

    def __init__(self, code: str, message: str, *, close: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.close = close


def encode(message: dict[str, Any]) -> bytes:
    """One line of the wire format."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ProtocolError("bad_message", f"a number in a message has at most {MAX_DIGITS} "
                            "digits")
    return int(text)


def decode(line: bytes) -> dict[str, Any]:
    """A JSON object from one line, as sent; ProtocolError if it is not one (its type and
    fields are checked by ``wire.messages.parse``)."""
    try:
        message = json.loads(line.decode("utf-8"), parse_int=_integer)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ProtocolError("bad_json", "a message must be one line of JSON") from None
    except RecursionError:
        raise ProtocolError("bad_message", "a message may not be nested that deeply") from None
    if not isinstance(message, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    return message


def field(message: dict[str, Any], name: str, kind: type | tuple[type, ...], *,
          default: Any = ..., max_len: int | None = None) -> Any:
    """``message[name]`` checked against ``kind`` (and a length limit for strings)."""
    if name not in message or message[name] is None:
        if default is ...:
            raise ProtocolError("bad_message", f"{message.get('type')}: {name!r} is missing")
        return default
    value = message[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ProtocolError("bad_message", f"{message.get('type')}: {name!r} has the wrong type")
    if max_len is not None and isinstance(value, str) and len(value) > max_len:
        raise ProtocolError("bad_message", f"{name!r} is longer than {max_len} characters")
    return value


class LineReader:
    """Splits a byte stream into lines, dropping (and reporting) lines over the limit."""

    def __init__(self, limit: int = MAX_MESSAGE) -> None:
        self.limit = limit
        self.buffer = bytearray()
        self.discarding = False

    def feed(self, data: bytes) -> list[bytes | None]:
        """The complete lines in ``data``; None stands for one oversized line."""
        out: list[bytes | None] = []
        self.buffer += data
        while True:
            end = self.buffer.find(b"\n")
            if end < 0:
                if len(self.buffer) > self.limit:
                    if not self.discarding:
                        out.append(None)
                    self.discarding = True
                    self.buffer.clear()
                return out
            line = bytes(self.buffer[:end])
            del self.buffer[: end + 1]
            if self.discarding:
                self.discarding = False
            elif len(line) > self.limit:
                out.append(None)
            elif line.strip():
                out.append(line)


def message_kind(line: bytes | None) -> str:
    """A message's type, for the host's log (at most 20 characters of it)."""
    try:
        return str(decode(line).get("type"))[:20] if line is not None else "too long"
    except ProtocolError:
        return "unreadable"


#: The time bank ("game in N minutes, plus a few seconds a move"): seconds each player has
#: for the whole game, by default and at the least and most a creator may pick, and the
#: seconds each tile a player plays gives back.
DEFAULT_BANK = 20 * 60.0
MIN_BANK, MAX_BANK = 5 * 60.0, 60 * 60.0
BANK_INCREMENT = 5.0
#: A correspondence game's pace: the days a player has for each move (chosen when the
#: table is created; 0 in a ``create`` means a live game, on the move clock and bank).
PACES = (1, 2, 3, 7)
DAY = 24 * 3600.0
#: The rating pools: live games and correspondence games are rated apart, as a player's
#: strength at five minutes a move says little of it at days a move.
POOLS = ("live", "correspondence")
#: The most tiles a game can see played: each comes from a hand, and only the 6 dealt and
#: the 30 of the land pile ever enter one (rules.md §2).
MOST_TILES_PLAYED = 36


def duration_words(seconds: float) -> str:
    """A time left as a person says it: "42 seconds" (up to ten minutes, as the move
    clock's), "17 minutes", "5 hours", "2 days 3 hours" (rounded down, so that it never
    promises more than is left)."""
    seconds = max(0, int(seconds))
    if seconds < 600:
        return f"{seconds} second{'' if seconds == 1 else 's'}"
    if seconds < 2 * 3600:
        return f"{seconds // 60} minutes"
    days, hours = divmod(seconds // 3600, 24)
    if not days:
        return f"{hours} hours"
    words = f"{days} day{'' if days == 1 else 's'}"
    return words + (f" {hours} hour{'' if hours == 1 else 's'}" if hours else "")


def longest_game(bank: float) -> float:
    """The most thinking time a game with this bank can take, both players together, once
    the clocks run: both banks and every increment (downtime aside)."""
    return 2 * bank + MOST_TILES_PLAYED * BANK_INCREMENT

"""What a client may say to the host, as typed messages: each line is parsed once, here.

``parse`` turns a decoded JSON object into one of the frozen messages below, with every
field checked (its type, its length, its range) and turned into what the host works with
(a ``Move``, the game's ``Options``, a name as the host keeps it). A message of a type
nobody knows, or with a field that is wrong, is refused with a ``ProtocolError`` whose
text says what is wrong; nothing of the host is touched before that.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core import Move, Options
from .names import MAX_MARKS, BadName, chat_text, normalize_name, too_many_marks
from .protocol import (
    DEFAULT_BANK,
    DEFAULT_CLOCK,
    MAX_BANK,
    MAX_CHAT,
    MAX_KEY,
    MAX_NAME,
    MAX_OFFSET,
    MIN_BANK,
    MIN_CLOCK,
    PACES,
    POOLS,
    VERSION,
    ProtocolError,
    field,
    version_refusal,
)

#: The longest table id a message may name (ids are ``t`` and six hex digits).
MAX_TABLE_ID = 16
#: The longest move a ``move`` message may carry, in notation (e.g. ``"play 3-5"``).
MAX_MOVE = 40
#: A game's id as the host gives it (``g`` and 32 hex digits: 128 random bits).
GAME_ID = re.compile(r"g[0-9a-f]{32}")


@dataclass(frozen=True, slots=True)
class Hello:
    """``hello``: the protocol ``version`` (checked: another gets ``version``), and who
    the client says it is: a new ``name`` as typed, a resume ``code``, the TCP ``token``,
    the ``ssh_key`` sshd logged the player in with. ``probe``: only asking what waits for
    the player (``solstis online --waiting``): the host sits them nowhere and tells
    nobody they came."""

    name: str | None = None
    code: str | None = None
    token: str = ""
    ssh_key: str | None = None
    probe: bool = False


@dataclass(frozen=True, slots=True)
class Ping:
    """``ping``: a client staying connected."""


@dataclass(frozen=True, slots=True)
class ListTables:
    """``list``: the lobby's page from row ``offset``."""

    offset: int = 0


@dataclass(frozen=True, slots=True)
class Leaders:
    """``leaders``: the leaderboard's page from row ``offset``, of the live games' ratings
    or, with ``pool`` "correspondence", of the correspondence games'."""

    offset: int = 0
    pool: str = "live"


@dataclass(frozen=True, slots=True)
class Rename:
    """``rename``: the player's new ``name``, normalised (see wire.names)."""

    name: str


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """``player``: the page of the rated player ``name`` (None: the sender's own)."""

    name: str | None = None


@dataclass(frozen=True, slots=True)
class Create:
    """``create``: a new table of ``options`` against ``opponent`` (``friend`` or a bot
    tier: which tiers the host's own policy), the creator at ``seat`` (None: by lot)."""

    options: Options
    opponent: str = "friend"
    seat: int | None = None
    rated: bool = False
    clock: int = int(DEFAULT_CLOCK)
    bank: int = int(DEFAULT_BANK // 60)
    """Minutes of the time bank each player has for the whole game."""
    days: int = 0
    """Days a move for a correspondence game (one of ``PACES``); 0: a live game, on
    ``clock`` and ``bank``."""


@dataclass(frozen=True, slots=True)
class Join:
    table: str


@dataclass(frozen=True, slots=True)
class Watch:
    table: str


@dataclass(frozen=True, slots=True)
class Leave:
    """``leave``: back to the lobby, or with ``for_good`` giving the seat up."""

    table: str
    for_good: bool = False


@dataclass(frozen=True, slots=True)
class Resign:
    table: str


@dataclass(frozen=True, slots=True)
class Claim:
    table: str


@dataclass(frozen=True, slots=True)
class Chat:
    """``chat``: a line to everyone at ``table``: printable, its runs of spaces made one,
    some text in it, and at most ``MAX_MARKS`` accents on a letter."""

    table: str
    text: str


@dataclass(frozen=True, slots=True)
class PlayMove:
    """``move``: ``move`` at ``table``, answering the game as it stood after ``seq``
    moves (None: whatever the game is now)."""

    table: str
    move: Move
    seq: int | None = None


#: Rows in a page of ``games`` (the host sends this many; the client pages by it).
GAMES_PAGE = 20


@dataclass(frozen=True, slots=True)
class MyGames:
    """``games``: the page from row ``offset`` (``GAMES_PAGE`` rows) of the finished games
    the sender played or watched."""

    offset: int = 0


@dataclass(frozen=True, slots=True)
class FetchRecord:
    """``record``: the record of the finished game ``game`` (its id, see ``GAME_ID``)."""

    game: str


@dataclass(frozen=True, slots=True)
class Rematch:
    """``rematch``: after the game at ``table``, a new one for the same two players (or
    the answer yes to the other player's offer of one)."""

    table: str


@dataclass(frozen=True, slots=True)
class Decline:
    """``decline``: no to the rematch offered at ``table`` (the new table)."""

    table: str


@dataclass(frozen=True, slots=True)
class Status:
    """``status``: the host's figures (connections, tables, the bots' queue); only the
    host's own account may ask, over the host's Unix socket, and it needs no hello."""


Message = (Hello | Ping | ListTables | Leaders | Rename | PlayerPage | Create | Join | Watch
           | Leave | Resign | Claim | Chat | PlayMove | MyGames | FetchRecord | Rematch
           | Decline | Status)
#: The messages that name a table (the host looks it up before their handler runs).
AtTable = Join | Watch | Leave | Resign | Claim | Chat | PlayMove | Rematch | Decline


def _hello(raw: dict[str, Any]) -> Hello:
    version = field(raw, "version", int)  # first: another version is told only that
    if version != VERSION:
        raise ProtocolError("version", version_refusal(version))
    return Hello(name=field(raw, "name", str, default=None, max_len=4 * MAX_NAME),
                 code=field(raw, "code", str, default=None, max_len=32),
                 token=field(raw, "token", str, default="", max_len=128),
                 ssh_key=field(raw, "ssh_key", str, default=None, max_len=MAX_KEY),
                 probe=field(raw, "probe", bool, default=False))


def _offset(raw: dict[str, Any]) -> int:
    offset: int = field(raw, "offset", int, default=0)
    if not 0 <= offset <= MAX_OFFSET:
        raise ProtocolError("bad_message", f"{raw['type']}: 'offset' is from 0 to {MAX_OFFSET}")
    return offset


def _name(typed: str) -> str:
    try:  # padding and invisible characters may make the raw text longer
        return normalize_name(typed)
    except BadName as exc:
        raise ProtocolError("bad_name", str(exc)) from None


def _pool(raw: dict[str, Any]) -> str:
    pool = field(raw, "pool", str, default="live", max_len=20)
    if pool not in POOLS:
        raise ProtocolError("bad_message", "pool is " + " or ".join(POOLS))
    return str(pool)


def _create(raw: dict[str, Any]) -> Create:
    try:
        options = Options.for_variant(field(raw, "variant", str, default="base", max_len=12))
    except ValueError as exc:
        raise ProtocolError("bad_message", str(exc)) from None
    seat = field(raw, "seat", int, default=None)
    if seat not in (None, 0, 1):
        raise ProtocolError("bad_message", "seat is 0 or 1")
    clock = field(raw, "clock", int, default=int(DEFAULT_CLOCK))
    if not MIN_CLOCK <= clock <= DEFAULT_CLOCK:
        raise ProtocolError("bad_message", f"clock is from {MIN_CLOCK:g} to "
                            f"{DEFAULT_CLOCK:g} seconds a decision")
    bank = field(raw, "bank", int, default=int(DEFAULT_BANK // 60))
    if not MIN_BANK <= bank * 60 <= MAX_BANK:
        raise ProtocolError("bad_message", f"bank is from {MIN_BANK / 60:g} to "
                            f"{MAX_BANK / 60:g} minutes a player")
    days = field(raw, "days", int, default=0)
    if days not in (0, *PACES):
        raise ProtocolError("bad_message", "days is 0 (a live game) or "
                            + ", ".join(map(str, PACES)) + " days a move")
    return Create(options, field(raw, "opponent", str, default="friend", max_len=12), seat,
                  field(raw, "rated", bool, default=False), clock, bank, days)


def _table(raw: dict[str, Any]) -> str:
    table: str | None = field(raw, "table", str, default=None, max_len=MAX_TABLE_ID)
    if table is None:
        raise ProtocolError("no_table", f"{raw['type']}: say which 'table'")
    return table


def _chat(raw: dict[str, Any]) -> Chat:
    table = _table(raw)
    text = field(raw, "text", str, max_len=MAX_CHAT)
    if not text.isprintable():
        raise ProtocolError("bad_message", "chat takes printable text")
    text = chat_text(text)  # no run of spaces can push words onto a line of their own
    if not text:
        raise ProtocolError("bad_message", "chat takes some text, not only spaces")
    if too_many_marks(text):
        raise ProtocolError("bad_message", f"chat puts at most {MAX_MARKS} accents on a "
                            "letter")
    return Chat(table, text)


def _move(raw: dict[str, Any]) -> PlayMove:
    table = _table(raw)
    seq = field(raw, "seq", int, default=None)
    try:
        move = Move.parse(field(raw, "move", str, max_len=MAX_MOVE))
    except ValueError as exc:
        raise ProtocolError("illegal", str(exc)) from None
    return PlayMove(table, move, seq)


def _record(raw: dict[str, Any]) -> FetchRecord:
    game = field(raw, "game", str, max_len=MAX_TABLE_ID * 4)
    if not GAME_ID.fullmatch(game):
        raise ProtocolError("bad_message", "record: 'game' is a game's id: g and 32 "
                            "hex digits")
    return FetchRecord(game)


#: Each message type's parser, by the name it has on the wire.
PARSERS: dict[str, Callable[[dict[str, Any]], Message]] = {
    "hello": _hello,
    "ping": lambda raw: Ping(),
    "list": lambda raw: ListTables(_offset(raw)),
    "leaders": lambda raw: Leaders(_offset(raw), _pool(raw)),
    "rename": lambda raw: Rename(_name(field(raw, "name", str, max_len=4 * MAX_NAME))),
    "player": lambda raw: PlayerPage(field(raw, "name", str, default=None,
                                           max_len=4 * MAX_NAME)),
    "create": _create,
    "join": lambda raw: Join(_table(raw)),
    "watch": lambda raw: Watch(_table(raw)),
    "leave": lambda raw: Leave(_table(raw), field(raw, "for_good", bool, default=False)),
    "resign": lambda raw: Resign(_table(raw)),
    "claim": lambda raw: Claim(_table(raw)),
    "chat": _chat,
    "move": _move,
    "games": lambda raw: MyGames(_offset(raw)),
    "record": _record,
    "rematch": lambda raw: Rematch(_table(raw)),
    "decline": lambda raw: Decline(_table(raw)),
    "status": lambda raw: Status(),
}


def parse(raw: dict[str, Any]) -> Message:
    """The typed message ``raw`` (a decoded line) is; ProtocolError ``bad_type`` for a type
    the host does not know, ``bad_message`` (or the field's own code) for a wrong field."""
    kind = raw.get("type")
    parser = PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise ProtocolError("bad_type", f"unknown message type {kind!r}")
    return parser(raw)

"""What the host sends its clients, typed: one frozen dataclass for each kind of message,
as ``messages`` types what the clients send (docs/protocol.md, "Host → client").

The host builds these and nothing else; ``wire()`` makes the JSON object that goes on the
wire, and the client reads a line back into one with ``parse_reply``, once, checking each
field's type. A field whose metadata names an ``omit`` value is left out while it holds it; a
``spread`` field is a page built by the host's views or standings (a lobby page, the
leaderboard, a player's page, the host's figures), whose keys are the message's own.
"""

from __future__ import annotations

import types
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Union, get_args, get_origin, get_type_hints

#: A page's keys written in the message itself (see the module's docstring).
SPREAD: dict[str, Any] = {"spread": True}


#: A field left out of the message while it holds None, or False.
OMIT_NONE: dict[str, Any] = {"omit": None}
OMIT_FALSE: dict[str, Any] = {"omit": False}


@dataclass(frozen=True, slots=True)
class HostReply:
    """One message from the host; ``KIND`` is its ``type``."""

    KIND: ClassVar[str] = ""

    def wire(self, reply_to: int | str | None = None) -> dict[str, Any]:
        """The JSON object for the wire; ``reply_to``: the ``id`` of the request it
        answers, if the request had one."""
        out: dict[str, Any] = {"type": self.KIND}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.metadata.get("spread"):
                out.update(value)
            elif "omit" not in f.metadata or value != f.metadata["omit"]:
                out[f.name] = value
        if reply_to is not None:
            out["id"] = reply_to
        return out


@dataclass(frozen=True, slots=True)
class Pong(HostReply):
    KIND: ClassVar[str] = "pong"


@dataclass(frozen=True, slots=True)
class Error(HostReply):
    """A refusal: ``code`` (docs/protocol.md lists them) and the sentence to show."""

    KIND: ClassVar[str] = "error"
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Welcome(HostReply):
    """The answer to ``hello``: who the player is, the lobby's first page, their tables."""

    KIND: ClassVar[str] = "welcome"
    name: str
    code: str
    rating: str | None
    version: int
    page: dict[str, Any] = field(metadata=SPREAD)
    seated: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Tables(HostReply):
    """A page of the lobby; ``rating``: the asker's own, as shown now."""

    KIND: ClassVar[str] = "tables"
    page: dict[str, Any] = field(metadata=SPREAD)
    rating: str | None = None


@dataclass(frozen=True, slots=True)
class Leaders(HostReply):
    KIND: ClassVar[str] = "leaders"
    page: dict[str, Any] = field(metadata=SPREAD)


@dataclass(frozen=True, slots=True)
class Player(HostReply):
    KIND: ClassVar[str] = "player"
    page: dict[str, Any] = field(metadata=SPREAD)


@dataclass(frozen=True, slots=True)
class Status(HostReply):
    """The host's figures, for its own account (``solstis host status``)."""

    KIND: ClassVar[str] = "status"
    figures: dict[str, Any] = field(metadata=SPREAD)


@dataclass(frozen=True, slots=True)
class State(HostReply):
    """One seat's view of a table (``views.state_message`` says what each field holds)."""

    KIND: ClassVar[str] = "state"
    table: str
    game: str | None = field(default=None, metadata=OMIT_NONE)
    seat: int | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)
    rated: bool = False
    counts: bool = False
    unrated: str | None = None
    clock: int = 0
    days: int = 0
    time_left: int | None = None
    bank: int = 0
    bank_left: list[int] | None = None
    scores: list[int] = field(default_factory=list)
    observation: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Joined(HostReply):
    KIND: ClassVar[str] = "joined"
    table: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class Watching(HostReply):
    """``record``: whether the host will give this watcher the game's record."""

    KIND: ClassVar[str] = "watching"
    table: str
    record: bool


@dataclass(frozen=True, slots=True)
class Left(HostReply):
    KIND: ClassVar[str] = "left"
    table: str
    for_good: bool = field(default=False, metadata=OMIT_FALSE)


@dataclass(frozen=True, slots=True)
class Renamed(HostReply):
    KIND: ClassVar[str] = "renamed"
    name: str


@dataclass(frozen=True, slots=True)
class ChatLine(HostReply):
    KIND: ClassVar[str] = "chat"
    table: str
    name: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Closed(HostReply):
    KIND: ClassVar[str] = "closed"
    table: str
    message: str


@dataclass(frozen=True, slots=True)
class Games(HostReply):
    """A page of the finished games a player played or watched."""

    KIND: ClassVar[str] = "games"
    games: list[dict[str, Any]]
    offset: int
    total: int


@dataclass(frozen=True, slots=True)
class Record(HostReply):
    """A finished game's record, and the host's analysis of it if it fits."""

    KIND: ClassVar[str] = "record"
    game: str
    seat: int | None
    text: str
    analysis: Any = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class RematchOffered(HostReply):
    """The asker's rematch (``new``) of the game at ``table`` is offered."""

    KIND: ClassVar[str] = "rematch_offered"
    table: str
    new: str


@dataclass(frozen=True, slots=True)
class RematchOffer(HostReply):
    """``name`` offers this player a rematch (``new``) of the game at ``table``."""

    KIND: ClassVar[str] = "rematch_offer"
    table: str
    new: str
    name: str | None
    rated: bool


@dataclass(frozen=True, slots=True)
class Declined(HostReply):
    KIND: ClassVar[str] = "declined"
    table: str


#: Every kind of reply, by its ``type``.
KINDS: dict[str, type[HostReply]] = {cls.KIND: cls for cls in (
    Pong, Error, Welcome, Tables, Leaders, Player, Status, State, Joined, Watching, Left,
    Renamed, ChatLine, Closed, Games, Record, RematchOffered, RematchOffer, Declined)}


class ReplyError(ValueError):
    """A message from the host that is not what its ``type`` says it is."""


def parse_reply(raw: dict[str, Any]) -> HostReply | None:
    """The typed reply ``raw`` (a decoded line from the host) is; None for a ``type`` this
    client does not know. ReplyError when a field is missing or of the wrong type (a
    spread page is taken as it comes: its reader checks it)."""
    kind = KINDS.get(str(raw.get("type")))
    if kind is None:
        return None
    hints = get_type_hints(kind)
    named = {f.name for f in fields(kind) if not f.metadata.get("spread")}
    values: dict[str, Any] = {}
    for f in fields(kind):
        if f.metadata.get("spread"):
            values[f.name] = {k: v for k, v in raw.items()
                              if k not in named and k not in ("type", "id")}
            continue
        if f.name in raw:
            value = raw[f.name]
        elif f.default is not MISSING:
            value = f.default
        elif f.default_factory is not MISSING:
            value = f.default_factory()
        else:
            raise ReplyError(f"a {kind.KIND!r} message without {f.name!r}")
        if not _fits(value, hints[f.name]):
            raise ReplyError(f"a {kind.KIND!r} message whose {f.name!r} is not a "
                             f"{hints[f.name]}")
        values[f.name] = value
    return kind(**values)


def _fits(value: object, hint: Any) -> bool:
    """Whether ``value`` is of the type ``hint`` (as far as JSON's types tell)."""
    origin = get_origin(hint)
    if hint is Any:
        return True
    if origin in (Union, types.UnionType):
        return any(_fits(value, arg) for arg in get_args(hint))
    if hint is type(None):
        return value is None
    if origin is list or hint is list:
        return isinstance(value, list)
    if origin is dict or hint is dict:
        return isinstance(value, dict)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)

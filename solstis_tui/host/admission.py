"""The host's door: who may say hello, under which name, and how often a stranger may try.

``Door.admit`` checks a ``hello`` (protocol version, the TCP token, the identity the
connection has or claims, a new name or a resume code) against the limits on new names and
wrong codes, and says who the connection is. A player who belongs to an identity (a key, a
Unix user: see identity) is that identity's one player: a second hello from it gets the
same player back whatever name it types, and a resume code works only for its identity.
"""

from __future__ import annotations

import logging
import secrets
import socket

from ..wire.messages import Hello
from ..wire.names import BadName, normalize_name
from ..wire.protocol import ProtocolError
from .connection import Connection
from .identity import GUEST_MARK, NotBelieved, Trust, Who
from .limits import Limits, per_minute
from .players import CODE_BYTES, PlayerRegistry

#: A resume code shorter than a new one (the 32-bit codes of old) could be guessed: such
#: codes share a host-wide allowance of wrong tries. Long ones cannot, so wrong long codes
#: never lock anyone else out.
LONG_CODE = len(secrets.token_urlsafe(CODE_BYTES))

log = logging.getLogger("solstis.host")


def taken_words(name: str) -> str:
    """Why a new player may not take ``name``, and how its player comes back: only by the
    resume code given with it (a name alone proves nothing), in the lobby or on the
    command line (``solstis online --code=CODE``: with ``=``, a code that begins with a
    dash is still read as the code)."""
    return (f"the name {name} is taken, or looks too much like one that is. If it is "
            "yours, come back with the resume code the lobby showed you when you took it: "
            "type it here as #code, or start with solstis online --code=CODE (the code "
            "without its #). Otherwise, choose another name.")


class Door:
    """Admits connections: new players by name, returning ones by resume code."""

    def __init__(self, players: PlayerRegistry, limits: Limits,
                 storage_errors: list[str], trust: Trust | None = None) -> None:
        self.players = players
        self.trust = trust or Trust()
        self.limits = limits
        self.tcp_token: str | None = None  # set when the host listens on TCP
        self.new_names = per_minute(limits.new_names_per_minute)
        self.code_failures = per_minute(limits.code_failures_per_minute)
        self.storage_errors = storage_errors  # the host's record of refused saves

    async def admit(self, conn: Connection, msg: Hello) -> str:
        """Check ``msg`` (a hello, its version and fields already checked) and set
        ``conn.code`` and ``conn.name``; returns the resume code to show the player (new for
        a new name or an exchanged old code). ProtocolError, with nothing changed, if the
        hello is refused."""
        if conn.code is not None:
            raise ProtocolError("bad_message", "hello was already said")
        self._check_token(conn, msg.token)
        try:
            who = self.trust.who(conn.writer.get_extra_info("socket"), msg.ssh_key, conn.tls)
        except NotBelieved as exc:
            raise ProtocolError("not_believed", str(exc)) from None
        bans = self.trust.bans
        if who.id is not None and bans is not None and who.id in bans:
            raise ProtocolError("banned", "the host's owner has barred "
                                + ("guests" if who.guest else "you") + " from playing here",
                                close=True)
        code = msg.code
        if who.kind == "key":
            await self._attach(who)
        known = self.players.code_of(who.id) if who.id and not who.guest else None
        if code is not None:
            name, code = await self._returning(conn, code, who)
        elif known is not None:  # this identity's player, whatever name it typed
            name, code = await self._returning(conn, known, who)
        else:
            name, code = await self._new(msg.name, who)
        conn.code, conn.name = self.players.seat_code(code), name  # code: what seats know
        conn.who = who
        return code

    async def _attach(self, who: Who) -> None:
        """If the host's owner attached an earlier player (a guest, or one of before
        identities) to ``who``'s key and the key has no player yet, that player becomes the
        key's: their code, seats and history stay theirs, their name becomes the key's."""
        assert who.id is not None and who.label is not None
        attachments = self.trust.attachments
        code = None if attachments is None else attachments.code_for(who.id)
        if code is None or self.players.code_of(who.id) is not None:
            return
        before = self.players.lookup(code)
        if before is None or self.players.identity_of(code) not in (None, "guest"):
            return  # expired, or someone's already: the key starts afresh
        try:
            await self.players.attach(code, who.id, who.label)
        except OSError as exc:
            raise self.refused(exc, "your player (the host's owner attached it to your "
                               "key)") from None
        log.info("%s's key took over the player who played as %s before, as the host's "
                 "owner asked", who.label, before)

    async def _returning(self, conn: Connection, code: str, who: Who) -> tuple[str, str]:
        short = len(code) < LONG_CODE
        if short and not self.code_failures.ready():
            raise ProtocolError("busy", "too many wrong resume codes were tried here just now: "
                                "try again in a minute", close=True)
        name = self.players.lookup(code)  # None: unknown, or expired
        if name is None:
            raise self._wrong_code(conn, short)
        if self.players.identity_of(code) != who.id:
            raise ProtocolError("not_yours", "that resume code belongs to a player who logs "
                                "in another way (another key or account): it cannot move "
                                "their seats to you")
        if self.players.is_legacy(code):  # an old 32-bit code: exchanged once, for good
            try:
                code = await self.players.exchange(code)
            except OSError as exc:
                raise self.refused(exc, "your new resume code") from None
        self.players.touch(code)
        return name, code

    async def _new(self, typed: str | None, who: Who) -> tuple[str, str]:
        if who.kind == "key":
            typed = who.label  # the name the host's owner gave with the key
        if typed is None:
            raise ProtocolError("name_needed", "say which name you play under")
        try:  # padding and invisible characters may make the raw text longer
            name = normalize_name(typed)
        except BadName as exc:
            raise ProtocolError("bad_name", str(exc)) from None
        holder = self.trust.kept_for(name, who)
        if holder is not None:
            raise ProtocolError("name_taken", f"the name {name} is kept for {holder}, a "
                                "player the host's owner added by key, or looks too much "
                                "like it: choose another")
        if who.guest:
            name += GUEST_MARK
        if who.kind == "key" and self.players.name_taken(name):
            raise ProtocolError("name_taken", f"the name {name}, which the host's owner gave "
                                "your key, is taken, or looks too much like one that is: "
                                "ask them to give your key another name")
        if self.players.name_taken(name):
            raise ProtocolError("name_taken", taken_words(name))
        if not self.new_names.take():
            raise ProtocolError("busy", "many new players arrived just now: try again in "
                                "a minute (or type your #code to come back as yourself)")
        try:
            return name, await self.players.register(name, who.id)
        except OSError as exc:
            raise self.refused(exc, "your name") from None

    def _wrong_code(self, conn: Connection, short: bool) -> ProtocolError:
        """Count a wrong resume code against the connection (and the host, if short)."""
        if short:
            self.code_failures.take()
        conn.code_failures += 1
        if conn.code_failures >= self.limits.code_failures_per_connection:
            return ProtocolError("unknown_code", "that resume code is not known here; too many "
                                 "wrong codes, disconnected", close=True)
        return ProtocolError("unknown_code", "that resume code is not known here")

    def _check_token(self, conn: Connection, token: str) -> None:
        """Over TCP (open to every local user) a hello must carry the host's token; over
        TLS, a front end's certificate replaces it (and a guest needs none)."""
        sock = conn.writer.get_extra_info("socket")
        if sock is None or sock.family == socket.AF_UNIX or conn.tls is not None:
            return
        if not self.tcp_token or not secrets.compare_digest(token.encode(),
                                                           self.tcp_token.encode()):
            raise ProtocolError("bad_token", "this host needs its token on TCP (see the file "
                                "'tcp-token' in its data folder)")

    def refused(self, exc: OSError, what: str) -> ProtocolError:
        """Record (and log for the operator) that the disk would not store ``what``; the
        client's refusal."""
        self.storage_errors.append(f"{what}: {exc}")
        log.warning("could not save %s: %s", what, exc)
        return ProtocolError("storage", f"the host could not save {what} (its disk refused: "
                             f"{exc.strerror or exc}); nothing changed")

"""Who is at the other end of a connection: the host believes a claimed identity only from
the account it trusts to make claims.

- **A key** (``key:<player>``): the players' shared SSH account (``--players-account``)
  runs ``solstis online --ssh-key``, which sends the public key sshd logged the player in
  with (sshd's ``ExposeAuthInfo``). The host finds that key in the players' keys file
  (``--keys-file``), whose line names the player (``solstis:<player>`` as its comment, as
  ``solstis host players add`` writes it). Several keys may name one player.
- **A Unix user** (``user:<login>``): any other local account that reaches the socket is
  that account (the kernel says which: ``SO_PEERCRED``), whatever name it types.
- **A guest**: the players' account with a key no line names, or with no key at all.
  Guests play under a marked name and share one small pool of connections.
- **The host's own account** (or a TCP client holding the host's secret token) can read
  the host's files anyway: its connections name themselves as before (``local``).
- **Over TLS** (``solstis host --listen-tls``), a connection whose client certificate the
  front-end CA signed (an SSH front end on another machine, where sshd checked the key) is
  believed like the players' account: its key is the player the keys file names. Any
  other TLS connection is a guest, and a key it claims is ignored. A front end states
  keys only, never accounts: only its players' account can read its certificate's key.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import pwd
import re
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")

#: The comment that names a key's player in the keys file.
PLAYER_TAG = "solstis:"
#: The options ``solstis host players add`` puts before a key (sshd's ``restrict``: no
#: forwarding of any kind, no ~/.ssh/rc; ``pty``: the game needs a terminal).
KEY_OPTIONS = "restrict,pty"
#: The file in the host's data folder that lists barred identities.
BANS_FILE = "bans"
#: The file in the host's data folder that attaches earlier players to keys.
ATTACH_FILE = "attach"
#: The mark put after a guest's name (a person cannot type it: see wire/posing.py).
GUEST_MARK = " (guest)"

_KEY_TYPES = (r"ssh-ed25519|ssh-rsa|ssh-dss|ecdsa-sha2-nistp(?:256|384|521)"
              r"|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com")
_KEY = re.compile(rf"(?:^|\s)({_KEY_TYPES})\s+([A-Za-z0-9+/]+=*)(?:\s+(.*))?$")


@dataclass(frozen=True)
class Who:
    """A connection's identity: ``kind`` is local, user, key or guest; ``id`` is what the
    host counts allowances and binds names to (None for local: each name is its own)."""

    kind: str
    id: str | None
    label: str | None = None  # the player a key line names, the login of a Unix user

    @property
    def guest(self) -> bool:
        return self.kind == "guest"


LOCAL = Who("local", None)
GUEST = Who("guest", "guest")


@dataclass(frozen=True)
class TlsPeer:
    """A connection over TLS: the front end its verified client certificate names (its
    common name), or None if it showed no certificate."""

    frontend: str | None


class NotBelieved(Exception):
    """A claim the host does not take from this connection; the message says why."""


def peer_uid(sock: Any) -> int | None:
    """The user id of the process at the other end of a Unix socket (a ``socket`` or the
    ``TransportSocket`` asyncio gives; None for TCP, no socket, or a system without
    ``SO_PEERCRED``, where every connection counts as the host's own account's)."""
    peercred = getattr(socket, "SO_PEERCRED", None)  # Linux; elsewhere nobody is told apart
    if sock is None or sock.family != socket.AF_UNIX or peercred is None:
        return None
    creds = sock.getsockopt(socket.SOL_SOCKET, peercred, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    return int(uid)


def is_owner(sock: Any) -> bool:
    """Whether the peer on ``sock`` is the host's own account, as the kernel says (a Unix
    socket only: over TCP nobody is)."""
    uid = peer_uid(sock)
    return uid is not None and uid == os.getuid()


def key_blob(text: str) -> tuple[str, bytes]:
    """The type and the decoded blob of a public key written ``type base64 [comment]``
    (options before it allowed); ValueError if it is not one."""
    match = _KEY.search(text.strip())
    if match is None:
        raise ValueError("not an SSH public key (expected e.g. 'ssh-ed25519 AAAA...')")
    try:
        blob = base64.b64decode(match.group(2), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("the key's base64 text is damaged") from None
    return match.group(1), blob


def fingerprint(blob: bytes) -> str:
    """OpenSSH's SHA256 fingerprint of a key blob (as ``ssh-keygen -lf`` prints it)."""
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def key_line(public_key: str, player: str) -> str:
    """The keys file's line for ``public_key`` belonging to ``player``."""
    kind, blob = key_blob(public_key)
    return f"{KEY_OPTIONS} {kind} {base64.b64encode(blob).decode()} {PLAYER_TAG}{player}"


class WatchedFile(Generic[T]):
    """What a file says, read again whenever the file changes (its modification time, size
    or inode); ``empty`` while there is no file."""

    def __init__(self, path: Path | None, parse: Callable[[str], T], empty: T) -> None:
        self.path, self.parse, self.empty = path, parse, empty
        self.value = empty
        self._stamp: tuple[int, int, int] | None = None  # when the file was read

    def current(self) -> T:
        if self.path is None:
            return self.value
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            self.value, self._stamp = self.empty, None
            return self.value
        stamp = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
        if stamp != self._stamp:
            self._stamp = stamp
            self.value = self.parse(self.path.read_text(encoding="utf-8", errors="replace"))
        return self.value


class KeyRing:
    """The players' keys file, read again whenever it changes: key blob -> player. The
    names it gives are kept for their keys from the moment they are written (``holder``)."""

    def __init__(self, path: Path | None) -> None:
        self.file: WatchedFile[tuple[dict[bytes, str], list[str]]] = WatchedFile(
            path, parse_keys, ({}, []))
        self._keyed: dict[bytes, str] | None = None  # the players the keys below are of
        self._names: dict[str, str] = {}  # clash key -> the player a key line names

    def player_of(self, blob: bytes) -> str | None:
        players, _problems = self.file.current()
        return players.get(blob)

    def holder(self, name: str) -> str | None:
        """The player a key line names whose name cannot be told from ``name`` (the same
        clash keys, see player_db), or None: that name is theirs even before their key
        first logs in, and after their player expires."""
        from .player_db import clash_keys  # names and the look-alike table: only if asked

        players, _problems = self.file.current()
        if players is not self._keyed:
            self._names = {key: label for label in set(players.values())
                           for key in clash_keys(label)}
            self._keyed = players
        return next((self._names[k] for k in clash_keys(name) if k in self._names), None)


class Attachments:
    """Players the host's owner attached to a key (``attach`` in the data folder, written by
    ``solstis host players add --attach``): identity -> the resume code of the player
    (a guest, or one of before identities) who becomes that key's at its next login."""

    def __init__(self, path: Path | None) -> None:
        self.file: WatchedFile[dict[str, str]] = WatchedFile(path, parse_attachments, {})

    def code_for(self, identity: str) -> str | None:
        return self.file.current().get(identity)


def parse_attachments(text: str) -> dict[str, str]:
    """identity -> code, from ``attach``'s lines ``<identity> <code>`` (# starts a comment
    line; a later line for one identity wins)."""
    found = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) == 2 and not line.startswith("#"):
            found[words[0]] = words[1]
    return found


def _player_in(line: str) -> str | None:
    """The player a key line's comment names (``solstis:<name>``), if any."""
    match = _KEY.search(line.strip())
    comment = (match.group(3) or "").strip() if match else ""
    if not comment.startswith(PLAYER_TAG):
        return None
    return comment[len(PLAYER_TAG):].strip() or None


def parse_keys(text: str) -> tuple[dict[bytes, str], list[str]]:
    """Key blob -> player for every line of a keys file that names one; and a sentence for
    each key line that names none (that key logs in as a guest)."""
    players: dict[bytes, str] = {}
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            _kind, blob = key_blob(line)
        except ValueError as exc:
            problems.append(f"line {number} of the keys file: {exc}")
            continue
        player = _player_in(line)
        if player is None:
            problems.append(f"line {number} of the keys file names no player (no "
                            f"'{PLAYER_TAG}<name>' comment): that key plays as a guest")
            continue
        players[blob] = player
    return players, problems


class Bans:
    """Identities the host's owner barred (``bans`` in the data folder, one a line, written
    by ``solstis host players ban``), read again whenever the file changes."""

    def __init__(self, path: Path | None) -> None:
        self.file: WatchedFile[frozenset[str]] = WatchedFile(path, parse_bans, frozenset())

    def __contains__(self, identity: object) -> bool:
        return identity in self.file.current()


def read_bans(path: Path) -> frozenset[str]:
    """The identities in a bans file (none if there is no file)."""
    try:
        return parse_bans(path.read_text(encoding="utf-8", errors="replace"))
    except FileNotFoundError:
        return frozenset()


def parse_bans(text: str) -> frozenset[str]:
    """The identities a bans file's text names, one a line (# starts a comment line)."""
    return frozenset(line.strip() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


@dataclass
class Trust:
    """Whom the host believes: the players' shared account (a uid, or None: no such
    account) and its keys file."""

    players_uid: int | None = None
    keys: KeyRing | None = None
    bans: Bans | None = None
    attachments: Attachments | None = None

    def __post_init__(self) -> None:
        if self.keys is None:
            self.keys = KeyRing(None)
        if self.bans is None:
            self.bans = Bans(None)
        if self.attachments is None:
            self.attachments = Attachments(None)

    def kept_for(self, name: str, who: Who) -> str | None:
        """The player whose key the owner gave ``name`` (or one that cannot be told from
        it), unless that is ``who``'s own key; None: the name is nobody's key's."""
        assert self.keys is not None
        holder = self.keys.holder(name)
        return None if holder is None or (who.kind == "key" and who.label == holder) \
            else holder

    def key_problems(self) -> list[str]:
        """What is wrong with the keys file's lines, a sentence each (read now)."""
        assert self.keys is not None
        _players, problems = self.keys.file.current()
        return list(problems)

    def who(self, sock: Any, claimed_key: str | None, tls: TlsPeer | None = None) -> Who:
        """The identity of a connection on ``sock`` (over TLS: ``tls``) that claims
        ``claimed_key`` (a public key, or None); NotBelieved if it may not claim one."""
        if tls is not None:  # never local: the certificate, not the socket, says who
            if tls.frontend is None or claimed_key is None:
                return GUEST  # whatever it claims
            return self._keyed(claimed_key)
        uid = peer_uid(sock)
        players = uid is not None and uid == self.players_uid
        if claimed_key is not None and not players:
            raise NotBelieved("this host takes a key only from its players' account (the "
                              "one the SSH login runs the game as)")
        if players:
            if claimed_key is None:
                return GUEST if uid != os.getuid() else LOCAL
            return self._keyed(claimed_key)
        if uid is None or uid == os.getuid():
            return LOCAL  # TCP with the host's token, or the host's own account
        try:
            login = pwd.getpwuid(uid).pw_name
        except KeyError:
            login = str(uid)
        return Who("user", f"user:{login}", login)

    def _keyed(self, claimed_key: str) -> Who:
        """The player the keys file names for ``claimed_key`` (a guest if none does)."""
        try:
            _kind, blob = key_blob(claimed_key)
        except ValueError as exc:
            raise NotBelieved(str(exc)) from None
        assert self.keys is not None
        player = self.keys.player_of(blob)
        return GUEST if player is None else Who("key", f"key:{player}", player)

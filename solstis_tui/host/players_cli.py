"""``solstis host players``: the host owner's view of who plays there, and the keys file's
lines that make an SSH key a player (see identity and docs/ssh.md).

``list`` reads the host's data folder without writing anything (a running host may own
it); ``add`` and ``remove`` change only the keys file, which the host reads again by itself.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import write_atomic
from ..wire.names import BadName, normalize_name
from ..wire.paths import default_data_dir
from .database import Unreadable
from .glicko2 import PROVISIONAL_RD
from .identity import (
    ATTACH_FILE,
    BANS_FILE,
    GUEST_MARK,
    PLAYER_TAG,
    fingerprint,
    key_blob,
    key_line,
    parse_keys,
    read_bans,
)
from .players import PlayerRegistry, clash_keys
from .rating_pools import CORRESPONDENCE, pool_key
from .ratings import bot_starts


class Refused(Exception):
    """The command cannot do what it was asked; the message says why (nothing changed)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solstis host players",
        description="List the host's players; add or remove a player's SSH key.")
    parser.add_argument("--data", type=Path, default=None,
                        help=f"the host's data folder (default: {default_data_dir()})")
    parser.add_argument("--keys-file", type=Path, default=None, metavar="PATH",
                        help="the players' keys file (the host's --keys-file)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="every player: name, identity, rating, last seen, "
                                     "keys; then the bots' ratings")
    add = commands.add_parser("add", help="make a public key the player NAME: prints its "
                                          "line, and adds it to --keys-file if given; "
                                          "refused if a player of the host at --data "
                                          "holds NAME")
    add.add_argument("name")
    add.add_argument("public_key", type=Path, help="the player's key, e.g. ann.pub")
    add.add_argument("--attach", action="store_true",
                     help="NAME's player from before keys (an imported players.json, the "
                          "host's own account, a guest) becomes this key's at its first "
                          "login, keeping their code, seats and history")
    remove = commands.add_parser("remove", help="take every key of NAME out of --keys-file")
    remove.add_argument("name")
    for command, does in (("ban", "bar"), ("unban", "let back")):
        sub = commands.add_parser(command, help=f"{does} a player (a name, or an identity "
                                                "such as key:Ann, user:bob, or guest: every "
                                                "guest)")
        sub.add_argument("who")
    return parser


def identity_of(who: str, data: Path, keys_file: Path | None) -> str:
    """The identity ``who`` names: an identity as written, else the identity of the
    player with that name (or of the keys file's player); Refused if none."""
    if who == "guest" or who.startswith(("key:", "user:")):
        return who
    registry = read_registry(data)
    wanted = set(clash_keys(who))
    for player in registry.players():
        if wanted & set(clash_keys(player.name)):
            if player.identity is None:
                raise Refused(f"{player.name} plays from the host's own account, which "
                              "cannot be barred")
            return player.identity
    if keys_file is not None and keys_file.exists():
        players, _ = parse_keys(keys_file.read_text(encoding="utf-8", errors="replace"))
        if who in players.values():
            return f"key:{who}"
    raise Refused(f"no player here is called {who}")


def read_registry(data: Path) -> PlayerRegistry:
    """The host's players, read without writing anything; Refused if unreadable."""
    registry = PlayerRegistry(data)
    try:
        registry.read()
    except (Unreadable, OSError) as exc:
        raise Refused(str(exc)) from None
    return registry


def ban(identity: str, data: Path, barred: bool) -> bool:
    """Bar ``identity`` (or let it back); False if that changed nothing."""
    path = data / BANS_FILE
    now = read_bans(path)
    new = now | {identity} if barred else now - {identity}
    if new == now:
        return False
    data.mkdir(parents=True, exist_ok=True)
    write_atomic(path, "".join(f"{i}\n" for i in sorted(new)))
    return True


@dataclass(frozen=True)
class Holder:
    """A player of the host whose name (or a former one) cannot be told from a name."""

    name: str
    identity: str | None
    seen: float
    code: str

    @property
    def attachable(self) -> bool:
        """A player of before identities, or a guest: the owner may give them a key."""
        return self.identity in (None, "guest")

    def described(self) -> str:
        seen = time.strftime("%Y-%m-%d", time.gmtime(self.seen))
        who = {None: "a player of before keys (an imported players.json or the host's own "
                     "account)", "guest": "a guest"}.get(self.identity, self.identity)
        return f"{self.name} ({who}, last seen {seen})"


def holders(name: str, data: Path) -> list[Holder]:
    """The players of the host at ``data`` whose names cannot be told from ``name`` (none
    if it has no players yet). Read as the data folder's owner (see ``as_owner``)."""
    if not any((data / f).exists() for f in ("players.db", "players.json")):
        return []

    def read() -> list[dict[str, Any]]:
        wanted = set(clash_keys(name))
        found = []
        for code, player in read_registry(data).players_by_code().items():
            names = [n.removesuffix(GUEST_MARK) for n in player.names]
            if any(wanted & set(clash_keys(n)) for n in names):
                found.append({"name": player.name, "identity": player.identity,
                              "seen": player.seen, "code": code})
        return found

    return [Holder(**h) for h in as_owner(data, read)]


def as_owner(data: Path, work: Callable[[], Any]) -> Any:
    """``work()`` (its result JSON), done as the owner of the folder ``data`` when run as
    root for another owner (``sudo``): files it opens or writes there stay the host's
    (root's -wal or -shm files next to players.db would lock the host out)."""
    try:
        stat = data.stat()
    except FileNotFoundError:
        return work()
    if os.geteuid() != 0 or stat.st_uid == 0:
        return work()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's coverage is not collected
        os.close(read_end)
        try:
            os.setgroups([])
            os.setgid(stat.st_gid)
            os.setuid(stat.st_uid)
            said = {"done": work()}
        except Refused as exc:
            said = {"refused": str(exc)}
        except BaseException as exc:  # whatever it was, the parent says it
            said = {"refused": f"{data} could not be read as its owner ({exc})"}
        with os.fdopen(write_end, "w", encoding="utf-8") as out:
            json.dump(said, out)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, encoding="utf-8") as answer:
        text = answer.read()
    os.waitpid(pid, 0)
    said = json.loads(text) if text else {"refused": f"{data} could not be read"}
    if "refused" in said:
        raise Refused(said["refused"])
    return said["done"]


def attach(data: Path, identity: str, holder: Holder) -> None:
    """Note in ``data``'s ``attach`` file that ``holder`` becomes ``identity``'s player at
    that key's next login (written as the folder's owner, readable by them alone)."""

    def write() -> None:
        path = data / ATTACH_FILE
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        kept = "".join(line + "\n" for line in old.splitlines()
                       if line.split()[:1] != [identity])
        write_atomic(path, kept + f"{identity} {holder.code}\n")
        os.chmod(path, 0o600)

    as_owner(data, write)


def add(name: str, public_key: Path, keys_file: Path | None, data: Path | None = None,
        attach_holder: bool = False) -> str:
    """The keys file's line for ``public_key`` as player ``name`` (added to ``keys_file``
    when given); Refused, with nothing written, for a bad name or key, a key the file
    already has, or a name a player of the host at ``data`` holds. With
    ``attach_holder``, a holder from before keys (or else a guest under that name) becomes
    the key's player at its first login instead. A guest's name ("Ann (guest)") does not
    stop the key: guests carry their mark, and go after a day."""
    try:
        name = normalize_name(name)
    except BadName as exc:
        raise Refused(f"'{name}' cannot be a player's name: {exc}") from None
    identity = f"key:{name}"
    held = [] if data is None else [h for h in holders(name, data) if h.identity != identity]
    others = [h for h in held if not h.attachable]
    if others:
        raise Refused(f"the name {name} is held by {others[0].described()}, at {data}: "
                      "choose another name for this key")
    before = [h for h in held if h.identity is None]  # a guest's name carries its mark
    if before and not attach_holder:
        raise Refused(f"the name {name} is held by {before[0].described()}, at {data}. If "
                      "that is this key's owner, add --attach: that player becomes this "
                      "key's at its first login, with their seats and history; otherwise "
                      "choose another name")
    held = (before or held) if attach_holder else []
    if len(held) > 1:
        raise Refused(f"the name {name} is held by {len(held)} players at {data} "
                      f"({'; '.join(h.described() for h in held)}): choose another name")
    try:
        text = public_key.read_text(encoding="utf-8", errors="replace")
        line = key_line(text, name)
        _kind, blob = key_blob(text)
    except OSError as exc:
        raise Refused(f"cannot read {public_key}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise Refused(f"{public_key}: {exc}") from None
    if keys_file is not None:
        old = keys_file.read_text(encoding="utf-8") if keys_file.exists() else ""
        players, _problems = parse_keys(old)
        clash = set(clash_keys(name))
        for other in set(players.values()) - {name}:
            if clash & set(clash_keys(other)):
                raise Refused(f"{keys_file} already has a player called {other}, a name "
                              f"that cannot be told from {name}: add this key to {other}, "
                              "or choose another name")
        if blob in players:
            raise Refused(f"{keys_file} already has this key, for {players[blob]}: remove "
                          "that player first")
        if any(_same_line_blob(line_text, blob) for line_text in old.splitlines()):
            raise Refused(f"{keys_file} already has this key on a line that names no "
                          "player: delete that line first")
    if held and data is not None:
        attach(data, identity, held[0])
    if keys_file is not None:
        _rewrite(keys_file, old + ("" if not old or old.endswith("\n") else "\n")
                 + line + "\n")
    return line


def _same_line_blob(line: str, blob: bytes) -> bool:
    try:
        return key_blob(line)[1] == blob
    except ValueError:
        return False


def remove(name: str, keys_file: Path) -> int:
    """Take ``name``'s lines out of ``keys_file``; how many there were (Refused: none)."""
    old = keys_file.read_text(encoding="utf-8") if keys_file.exists() else ""
    tag = f"{PLAYER_TAG}{name}"
    kept = [line for line in old.splitlines() if not line.rstrip().endswith(f" {tag}")]
    gone = len(old.splitlines()) - len(kept)
    if not gone:
        raise Refused(f"{keys_file} has no key of {name}")
    _rewrite(keys_file, "".join(line + "\n" for line in kept))
    return gone


def _rewrite(path: Path, text: str) -> None:
    """Replace ``path`` atomically, keeping its mode (sshd reads it as the players'
    account: 0644 for a new file)."""
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    write_atomic(path, text)
    os.chmod(path, mode)


def stored_ratings(data: Path) -> dict[str, tuple[float, float, int]]:
    """identity -> (rating, deviation, rated games) from ``ratings.db``, read only (an
    empty mapping if there is none yet)."""
    path = data / "ratings.db"
    if not path.exists():
        return {}
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            rows = db.execute("SELECT identity, rating, rd, games FROM ratings").fetchall()
    except sqlite3.Error as exc:
        raise Refused(f"cannot read {path}: {exc}") from None
    return {identity: (rating, rd, games) for identity, rating, rd, games in rows}


def _shown(entry: tuple[float, float, int] | None) -> str:
    if entry is None:
        return "unrated"
    rating, rd, games = entry
    return f"{round(rating)}{'?' if rd > PROVISIONAL_RD else ''} ({games} games)"


def listing(data: Path, keys_file: Path | None) -> list[str]:
    """One line per player (newest first), then the bots' ratings and the keys file's
    complaints."""
    registry = read_registry(data)
    ratings = stored_ratings(data)
    barred = read_bans(data / BANS_FILE)
    keys: dict[str, list[str]] = {}
    problems: list[str] = []
    if keys_file is not None and keys_file.exists():
        players, problems = parse_keys(keys_file.read_text(encoding="utf-8",
                                                           errors="replace"))
        for blob, owner in players.items():
            keys.setdefault(owner, []).append(fingerprint(blob))
    rows = []
    for player in sorted(registry.players(), key=lambda p: -p.seen):
        who = player.identity or "local"
        label = player.identity[4:] if player.identity and player.identity.startswith(
            "key:") else None
        seen = time.strftime("%Y-%m-%d %H:%M", time.gmtime(player.seen))
        prints = " ".join(keys.pop(label, [])) if label else ""
        rated = _shown(ratings.get(who)) if player.identity else "unrated"
        slow = ratings.get(pool_key(who, CORRESPONDENCE)) if player.identity else None
        if slow is not None:
            rated += f"; correspondence {_shown(slow)}"
        if who in barred:
            rated += " BARRED"
        rows.append(f"{player.name!s:<32} {who:<24} {rated:<16} seen {seen} UTC "
                    f"{prints}".rstrip())
    for owner, owned in sorted(keys.items()):  # keys whose player never came yet
        rows.append(f"{owner:<32} {'key:' + owner:<24} {'unrated':<16} never came "
                    f"{' '.join(owned)}")
    for tier, start in bot_starts().items():
        entry = ratings.get(tier, (start.rating, start.rd, 0))
        rows.append(f"{tier[4:] + ' bot':<32} {tier:<24} {_shown(entry)}")
    return rows + [f"warning: {p}" for p in problems + registry.problems]


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            for row in listing(args.data or default_data_dir(), args.keys_file):
                print(row)
        elif args.command == "add":
            print(add(args.name, args.public_key, args.keys_file,
                      args.data or default_data_dir(), args.attach))
            if args.attach:
                print(f"{args.name}'s player from before becomes this key's at its first "
                      "login (kept in the host's data folder, file 'attach')",
                      file=sys.stderr)
        elif args.command in ("ban", "unban"):
            data = args.data or default_data_dir()
            identity = identity_of(args.who, data, args.keys_file)
            barred = args.command == "ban"
            changed = ban(identity, data, barred)
            state = "barred" if barred else "not barred"
            print(f"{identity} is {state}" + ("" if changed else " already") + (
                " (from their next connection on)" if barred and changed else ""))
        else:
            if args.keys_file is None:
                parser.error("remove needs --keys-file")
            gone = remove(args.name, args.keys_file)
            print(f"removed {gone} key line(s) of {args.name} from {args.keys_file}")
    except Refused as exc:
        print(f"solstis host players: {exc}", file=sys.stderr)
        return 1
    return 0

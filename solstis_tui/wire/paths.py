"""Where the host is found: its data folder, its TCP token file, its default Unix socket and
the loopback TCP addresses it listens on. The host and its clients both read these."""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path

#: The file in the host's data folder that holds the token TCP clients must give.
TOKEN_FILE = "tcp-token"
#: The names of the loopback interface the host may listen on over TCP.
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


class NoSocketFolder(Exception):
    """There is no safe folder for the host's default socket."""


def default_data_dir() -> Path:
    """The host's data folder: ``$SOLSTIS_HOST_DATA``, else ``solstis/host`` in the user's
    state directory."""
    override = os.environ.get("SOLSTIS_HOST_DATA")
    if override:
        return Path(override)
    from platformdirs import user_state_dir

    return Path(user_state_dir("solstis", appauthor=False)) / "host"


def default_socket() -> Path:
    """The host's socket: ``$SOLSTIS_SOCKET``, else ``solstis/host.sock`` in the user's
    runtime directory; NoSocketFolder if that directory is missing and the fallback one is
    not safe (e.g. ``/tmp/runtime-<uid>`` made by another user)."""
    override = os.environ.get("SOLSTIS_SOCKET")
    if override:
        return Path(override)
    import warnings

    from platformdirs import user_runtime_dir

    with warnings.catch_warnings():  # no XDG_RUNTIME_DIR: platformdirs picks /tmp/runtime-*
        warnings.simplefilter("ignore")
        try:
            return Path(user_runtime_dir("solstis", appauthor=False)) / "host.sock"
        except OSError as exc:
            raise NoSocketFolder(f"there is no safe folder for the host's socket ({exc}); "
                                 "set XDG_RUNTIME_DIR or SOLSTIS_SOCKET, or give --socket"
                                 ) from None


def runtime_dir_problem(path: str) -> str | None:
    """Why the runtime folder ``path`` (``$XDG_RUNTIME_DIR``) is not safe for the socket:
    it must be an absolute path to a folder of this user's with mode 0700; None if it is."""
    if not os.path.isabs(path):
        return "is not an absolute path"
    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"cannot be used ({exc.strerror or exc})"
    mode = stat.S_IMODE(info.st_mode)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        return "is not a folder"
    if info.st_uid != os.geteuid():
        return f"belongs to user {info.st_uid}, not this one"
    if mode != 0o700:
        return (f"has mode {mode:04o}, not 0700"
                + (" (other users could reach what is in it)" if mode & 0o077 else ""))
    return None


def ignored_runtime_dir() -> str | None:
    """A sentence when ``$XDG_RUNTIME_DIR`` is set but the default socket is not in it,
    saying why and where the socket is instead; None otherwise."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if not runtime or os.environ.get("SOLSTIS_SOCKET"):
        return None
    try:
        socket = default_socket()
    except NoSocketFolder as exc:
        where = f"and {exc}"
    else:
        if socket.is_relative_to(runtime):
            return None
        where = f"so the socket is {socket}"
    why = runtime_dir_problem(runtime) or "was refused by platformdirs"
    return f"XDG_RUNTIME_DIR {runtime} is not used for the socket: it {why}, {where}"


def describe_default_socket() -> str:
    """``default_socket()`` for a help text: never fails."""
    try:
        return str(default_socket())
    except NoSocketFolder:
        return "$SOLSTIS_SOCKET or the runtime folder (none is usable now)"


def tcp_address(text: str) -> tuple[str, int]:
    """argparse type: a loopback ``HOST:PORT`` (``[::1]:PORT`` for IPv6)."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError("write HOST:PORT, e.g. 127.0.0.1:7017")
    if host not in LOOPBACK:
        raise argparse.ArgumentTypeError("the host listens on loopback only")
    return host.strip("[]"), int(port)

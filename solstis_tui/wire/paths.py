"""Where the host is found: its data folder, its TCP token file, its default Unix socket and
the loopback TCP addresses it listens on. The host and its clients both read these."""

from __future__ import annotations

import argparse
import os
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

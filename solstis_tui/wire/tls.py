"""TLS between SSH front ends and the game host: the context each side uses, and their
addresses (``HOST:PORT``, ``tls://HOST:PORT``).

The host's context asks every client for a certificate and verifies one it gets against
the front-end CA (a wrong or expired one fails the handshake); a client without one is
let in, as a guest (see host/identity.py). The client's context verifies the host's
certificate (against ``--host-ca``, else the system's CAs) and its name, and shows the
front end's own certificate if it has one. Both speak TLS 1.2 at least.
"""

from __future__ import annotations

import argparse
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

MIN_VERSION = ssl.TLSVersion.TLSv1_2
#: What a URL given to ``solstis online --host`` starts with.
SCHEME = "tls://"


@dataclass(frozen=True)
class TlsTarget:
    """Where a client reaches the host over TLS, and the context it does so with."""

    host: str
    port: int
    context: ssl.SSLContext

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{SCHEME}{host}:{self.port}"


class BadTlsFile(Exception):
    """A certificate, key or CA file that cannot be used; the message says which and why."""


def server_context(cert: Path, key: Path, frontend_ca: Path) -> ssl.SSLContext:
    """The host's context: its certificate and key; front ends' certificates verified
    against ``frontend_ca``, and optional (a client without one is a guest)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = MIN_VERSION
    _load_pair(context, cert, key, "the host's")
    _load_ca(context, frontend_ca, "the front-end CA")
    context.verify_mode = ssl.CERT_OPTIONAL
    return context


def client_context(host_ca: Path | None = None, cert: Path | None = None,
                   key: Path | None = None) -> ssl.SSLContext:
    """A client's context: the host's certificate verified against ``host_ca`` (else the
    system's CAs) with its name checked; ``cert`` and ``key``, a front end's, shown to
    the host if given."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    context.minimum_version = MIN_VERSION
    if host_ca is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # only this CA, not the system's
        context.minimum_version = MIN_VERSION
        _load_ca(context, host_ca, "the host's CA")
    if (cert is None) != (key is None):
        raise BadTlsFile("a front-end certificate needs its key, and a key its certificate "
                         "(give both --frontend-cert and --frontend-key)")
    if cert is not None and key is not None:
        _load_pair(context, cert, key, "the front end's")
    return context


def frontend_name(peercert: Mapping[str, Any] | None) -> str | None:
    """The common name of a verified client certificate (``peercert`` as ``getpeercert()``
    gives it); None without a certificate, ``?`` for one that names nobody."""
    if not peercert:
        return None
    for rdn in peercert.get("subject", ()):
        for field, value in rdn:
            if field == "commonName":
                return str(value)
    return "?"


def host_port(text: str) -> tuple[str, int]:
    """argparse type: ``HOST:PORT`` (``[::1]:PORT`` for IPv6), any host name or address
    (port 0: one the system chooses, for a listener)."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise argparse.ArgumentTypeError("write HOST:PORT, e.g. game.example.org:7018")
    return host, int(port)


def tls_url(text: str) -> tuple[str, int]:
    """argparse type: ``tls://HOST:PORT``, the host's TLS address."""
    if not text.startswith(SCHEME):
        raise argparse.ArgumentTypeError("write tls://HOST:PORT, e.g. "
                                         "tls://game.example.org:7018 (only TLS is offered)")
    host, port = host_port(text[len(SCHEME):])
    if port == 0:
        raise argparse.ArgumentTypeError("give the port the host listens on (not 0)")
    return host, port


def _no_passphrase() -> NoReturn:
    raise BadTlsFile("is protected by a passphrase; give a key without one (readable only "
                     "by the account that uses it)")


def _read(path: Path, what: str, marker: bytes, kind: str) -> None:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadTlsFile(f"cannot read {what} {path} ({exc.strerror or exc})") from None
    if marker not in data:
        raise BadTlsFile(f"{what} {path} is not a PEM {kind} (no '{marker.decode()}' line)")


def _load_pair(context: ssl.SSLContext, cert: Path, key: Path, whose: str) -> None:
    _read(cert, f"{whose} certificate", b"-----BEGIN CERTIFICATE-----", "certificate")
    _read(key, f"{whose} key", b"PRIVATE KEY-----", "private key")
    try:
        context.load_cert_chain(cert, key, password=_no_passphrase)
    except BadTlsFile as exc:
        raise BadTlsFile(f"{whose} key {key} {exc}") from None
    except ssl.SSLError as exc:
        if "KEY_VALUES_MISMATCH" in str(exc):
            raise BadTlsFile(f"{whose} key {key} is not the key of the certificate {cert}"
                             ) from None
        raise BadTlsFile(f"{whose} certificate {cert} or key {key} cannot be used "
                         f"({exc.reason or exc})") from None


def _load_ca(context: ssl.SSLContext, path: Path, what: str) -> None:
    _read(path, what, b"-----BEGIN CERTIFICATE-----", "certificate")
    try:
        context.load_verify_locations(cafile=path)
    except ssl.SSLError as exc:
        raise BadTlsFile(f"{what} {path} cannot be used ({exc.reason or exc})") from None

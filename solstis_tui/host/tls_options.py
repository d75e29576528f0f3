"""``solstis host``'s TLS options: where it listens for SSH front ends on other machines,
its certificate and key, and the CA whose certificates mark a front end (docs/ssh.md)."""

from __future__ import annotations

import argparse
import ssl
from pathlib import Path

from ..wire.tls import BadTlsFile, host_port, server_context

_TOGETHER = ("listen_tls", "cert", "key", "frontend_ca")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("TLS front ends (see docs/ssh.md)")
    group.add_argument("--listen-tls", type=host_port, default=None, metavar="HOST:PORT",
                       help="also accept clients over TLS here (e.g. 0.0.0.0:7018): SSH "
                            "front ends on other machines; a client without a front-end "
                            "certificate is a guest, whatever it claims")
    group.add_argument("--cert", type=Path, default=None, metavar="FILE",
                       help="with --listen-tls: the host's certificate (PEM; its chain after "
                            "it)")
    group.add_argument("--key", type=Path, default=None, metavar="FILE",
                       help="with --listen-tls: the host's private key (PEM, no passphrase)")
    group.add_argument("--frontend-ca", type=Path, default=None, metavar="FILE",
                       help="with --listen-tls: the CA that signs the front ends' client "
                            "certificates; only those may say which key a player is")


def context_from(args: argparse.Namespace) -> ssl.SSLContext | None:
    """The TLS context the options ask for (None: no --listen-tls); BadTlsFile, one
    sentence, for options given without the others or files that cannot be used."""
    given = [name for name in _TOGETHER if getattr(args, name) is not None]
    if not given:
        return None
    if len(given) < len(_TOGETHER):
        missing = ", ".join("--" + n.replace("_", "-") for n in _TOGETHER if n not in given)
        raise BadTlsFile(f"TLS needs --listen-tls, --cert, --key and --frontend-ca together "
                         f"(missing: {missing})")
    return server_context(args.cert, args.key, args.frontend_ca)

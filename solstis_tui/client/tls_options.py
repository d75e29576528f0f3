"""``solstis online``'s TLS options: the host's ``tls://`` address, the CA its certificate
is checked against, and a front end's own certificate and key (docs/ssh.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..wire.tls import BadTlsFile, TlsTarget, client_context, tls_url


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", type=tls_url, default=None, metavar="tls://HOST:PORT",
                        help="reach a host on another machine over TLS (its certificate "
                             "must name HOST)")
    parser.add_argument("--host-ca", type=Path, default=None, metavar="FILE",
                        help="with --host: the CA the host's certificate is checked against "
                             "(default: the system's CAs)")
    parser.add_argument("--frontend-cert", type=Path, default=None, metavar="FILE",
                        help="with --host: this SSH front end's certificate; only with it "
                             "does the host believe --ssh-key")
    parser.add_argument("--frontend-key", type=Path, default=None, metavar="FILE",
                        help="with --frontend-cert: its private key (PEM, no passphrase)")


def target_from(args: argparse.Namespace) -> TlsTarget | None:
    """Where and how to reach the host over TLS (None: no --host); BadTlsFile, one
    sentence, for options that do not go together or files that cannot be used."""
    if args.host is None:
        if args.host_ca or args.frontend_cert or args.frontend_key:
            raise BadTlsFile("--host-ca, --frontend-cert and --frontend-key go with "
                             "--host tls://HOST:PORT")
        return None
    if args.socket is not None or args.tcp is not None:
        raise BadTlsFile("give one of --host, --socket and --tcp")
    if args.ssh_key and args.frontend_cert is None:
        raise BadTlsFile("over TLS the host believes --ssh-key only from a front end: "
                         "give --frontend-cert and --frontend-key (see docs/ssh.md)")
    context = client_context(args.host_ca, args.frontend_cert, args.frontend_key)
    host, port = args.host
    return TlsTarget(host, port, context)

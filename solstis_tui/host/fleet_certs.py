"""``solstis fleet certs DIR``: the bot fleet's TLS files, made in one step.

A CA of the fleet's own, and a certificate and key for each part: the scheduler, each
worker, and the host's fleet gateway. Every part presents its certificate and checks the
other side's against the CA (mutual TLS), so whoever holds no certificate from this CA can
neither reach the scheduler nor any worker. The key usages say what each may do: the CA
only signs; the scheduler and the workers serve and connect (they call each other); the
gateway only connects. Every file is readable by its owner alone (0600, in a 0700 folder).

Copy to each machine its own certificate and key and ``ca.pem``, never ``ca.key``.
"""

from __future__ import annotations

import argparse
import datetime
import ipaddress
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

EXTRA = "pip install 'solstis-tui[cluster]'"
CA_DAYS = 3650
LEAF_DAYS = 825


def _name(text: str) -> Any:
    from cryptography import x509
    from cryptography.x509.oid import NameOID

    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def _alt_names(hosts: Iterable[str]) -> Any:
    from cryptography import x509

    names: list[Any] = []
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    return x509.SubjectAlternativeName(names)


def _write(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.chmod(path, 0o600)


def _key() -> Any:
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1())


def _key_pem(key: Any) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return bytes(key.private_bytes(serialization.Encoding.PEM,
                                   serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption()))


def make(folder: Path, scheduler: list[str], workers: list[str]) -> list[Path]:
    """Make the CA, then the scheduler's (named by ``scheduler``: its names or addresses),
    each worker's and the gateway's certificate in ``folder``; the files made."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.x509.oid import ExtendedKeyUsageOID

    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    now = datetime.datetime.now(datetime.UTC)
    ca_key = _key()
    ca_name = _name("Solstis bot fleet CA")
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False,
                                       False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()),
                         critical=False)
          .sign(ca_key, hashes.SHA256()))
    made = [folder / "ca.pem", folder / "ca.key"]
    _write(made[0], ca.public_bytes(serialization.Encoding.PEM))
    _write(made[1], _key_pem(ca_key))
    serve_and_connect = [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]
    parts: list[tuple[str, list[str], list[Any]]] = [
        ("scheduler", scheduler, serve_and_connect),
        *((f"worker-{name}", [name], serve_and_connect) for name in workers),
        ("gateway", [], [ExtendedKeyUsageOID.CLIENT_AUTH]),
    ]
    for part, hosts, usages in parts:
        key = _key()
        builder = (x509.CertificateBuilder().subject_name(_name(f"solstis-{part}"))
                   .issuer_name(ca_name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=LEAF_DAYS))
                   .add_extension(x509.BasicConstraints(ca=False, path_length=None),
                                  critical=True)
                   .add_extension(x509.KeyUsage(True, False, False, False, True, False,
                                                False, False, False), critical=True)
                   .add_extension(x509.ExtendedKeyUsage(usages), critical=False)
                   .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                       ca_key.public_key()), critical=False))
        if hosts:
            builder = builder.add_extension(_alt_names(hosts), critical=False)
        cert = builder.sign(ca_key, hashes.SHA256())
        pem, key_file = folder / f"{part}.pem", folder / f"{part}.key"
        _write(pem, cert.public_bytes(serialization.Encoding.PEM))
        _write(key_file, _key_pem(key))
        made += [pem, key_file]
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="solstis fleet certs",
        description="Make the bot fleet's TLS files in DIR: a CA of its own (ca.pem, and "
                    "ca.key to keep off the fleet), then a certificate and key for the "
                    "scheduler, each worker and the host's gateway (docs/cluster.md).")
    parser.add_argument("dir", type=Path, help="a folder for the files (made 0700)")
    parser.add_argument("--scheduler", default="127.0.0.1", metavar="NAME[,NAME...]",
                        help="the scheduler's names or addresses, as the workers and the "
                             "host reach it (default %(default)s)")
    parser.add_argument("--workers", default="localhost", metavar="NAME[,NAME...]",
                        help="the workers' names or addresses: one certificate each, "
                             "worker-NAME.pem (default %(default)s)")
    parser.add_argument("--force", action="store_true", help="replace files already there")
    args = parser.parse_args(argv)
    scheduler = [n.strip() for n in args.scheduler.split(",") if n.strip()]
    workers = [n.strip() for n in args.workers.split(",") if n.strip()]
    if not scheduler or not workers:
        parser.error("give at least one scheduler name and one worker")
    bad = [n for n in workers if not n.replace("-", "").replace(".", "").isalnum()]
    if bad:
        parser.error(f"a worker's name is letters, digits, '.' and '-': not {bad[0]!r}")
    try:
        import cryptography  # noqa: F401
    except ImportError:
        parser.error(f"needs the cryptography package: {EXTRA}")
    if (args.dir / "ca.key").exists() and not args.force:
        print(f"solstis fleet certs: {args.dir} already holds a fleet CA (ca.key); "
              "--force makes a new one, and every certificate must then be copied again",
              file=sys.stderr)
        return 1
    try:
        made = make(args.dir, scheduler, workers)
    except OSError as exc:
        print(f"solstis fleet certs: cannot write in {args.dir} ({exc.strerror or exc})",
              file=sys.stderr)
        return 1
    print(f"solstis fleet certs: made {len(made)} files in {args.dir} (each 0600): "
          + ", ".join(p.name for p in made))
    print("Copy to each machine its own .pem and .key and ca.pem; keep ca.key off the fleet.")
    return 0

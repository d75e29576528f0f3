"""``solstis host``: start the game host and keep it running until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import grp
import os
import signal
from pathlib import Path

from .client import default_socket
from .host import Host


def default_data_dir() -> Path:
    override = os.environ.get("SOLSTIS_HOST_DATA")
    if override:
        return Path(override)
    from platformdirs import user_state_dir

    return Path(user_state_dir("solstis", appauthor=False)) / "host"


def _tcp(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError("write HOST:PORT, e.g. 127.0.0.1:7017")
    if host not in ("127.0.0.1", "localhost", "::1", "[::1]"):
        raise argparse.ArgumentTypeError("the host listens on loopback only")
    return host.strip("[]"), int(port)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solstis host",
        description="Run the Solstis game host: it owns the online tables.")
    parser.add_argument("--socket", type=Path, default=None,
                        help=f"Unix socket path (default: {default_socket()})")
    parser.add_argument("--tcp", type=_tcp, default=None, metavar="HOST:PORT",
                        help="also listen on loopback TCP, e.g. 127.0.0.1:7017")
    parser.add_argument("--data", type=Path, default=None,
                        help=f"where tables are saved (default: {default_data_dir()})")
    parser.add_argument("--group", default=None,
                        help="let this Unix group use the socket (mode 0660)")
    parser.add_argument("--expire-hours", type=float, default=24.0,
                        help="drop tables idle this long with nobody connected (default 24)")
    parser.add_argument("--bot-seconds", type=float, default=1.0,
                        help="thinking time of bots at the host (default 1.0)")
    return parser


async def run(args: argparse.Namespace, ready: asyncio.Event | None = None) -> None:
    host = Host(args.data or default_data_dir(), bot_seconds=args.bot_seconds,
                expire_seconds=args.expire_hours * 3600)
    host.load()
    for problem in host.problems:
        print(f"solstis host: could not read a table: {problem}")
    sock = args.socket or default_socket()
    await host.serve_unix(sock, mode=0o660 if args.group else 0o600)
    if args.group:
        os.chown(sock, -1, grp.getgrnam(args.group).gr_gid)
    where = [str(sock)]
    if args.tcp:
        port = await host.serve_tcp(*args.tcp)
        where.append(f"{args.tcp[0]}:{port}")
    print(f"solstis host: {len(host.tables)} tables; listening on {', '.join(where)}",
          flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    if ready:
        ready.set()
    await stop.wait()
    await host.close()
    print("solstis host: stopped; every table is saved", flush=True)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.group:
        try:
            grp.getgrnam(args.group)
        except KeyError:
            build_parser().error(f"no such group: {args.group}")
    asyncio.run(run(args))
    return 0

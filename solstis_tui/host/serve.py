"""``solstis host``: start the game host and keep it running until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import grp
import importlib.util
import logging
import os
import pwd
import secrets
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from ..wire.paths import (
    TOKEN_FILE,
    NoSocketFolder,
    default_data_dir,
    default_socket,
    describe_default_socket,
    ignored_runtime_dir,
    tcp_address,
)
from ..wire.tls import BadTlsFile
from .fleet import DEFAULT_FLEET_USER, EXTRA, FleetProblem, FleetSettings, fleet_settings
from .host import Host
from .hostlock import StartRefused, unreachable_for_group
from .identity import KeyRing, Trust
from .limits import Limits
from .tls_options import add_arguments, context_from


def ensure_token(data_dir: Path) -> tuple[str, Path]:
    """The TCP token in ``data_dir/tcp-token`` (made, mode 0600, if missing) and its path."""
    path = data_dir / TOKEN_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        os.chmod(path, 0o600)
        token = path.read_text(encoding="utf-8").strip()
        if len(token) >= 22:
            return token, path
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    token = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(token + "\n")
    return token, path


def _workers(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("give a whole number of at least 1")
    return int(text)


def _at_least(low: float, kind: Callable[[str], float] = float) -> Callable[[str], float]:
    def parse(text: str) -> float:
        value: float | None
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or value < low:
            raise argparse.ArgumentTypeError(f"give a number of at least {low:g}")
        return value
    return parse


def limits_from(args: argparse.Namespace) -> Limits:
    """The host's limits from the command line (the rest keep their defaults)."""
    return Limits(max_connections=args.max_connections, idle_seconds=args.idle_minutes * 60,
                  max_open_tables=args.max_open_tables,
                  open_table_seconds=args.open_table_minutes * 60,
                  new_names_per_minute=args.new_names_per_minute,
                  table_expire_seconds=args.expire_hours * 3600)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solstis host",
        description="Run the Solstis game host: it owns the online tables. "
                    "'solstis host players --help': the host's players and their keys; "
                    "'solstis host status': the running host's figures.")
    parser.add_argument("--socket", type=Path, default=None,
                        help=f"Unix socket path (default: {describe_default_socket()})")
    parser.add_argument("--tcp", type=tcp_address, default=None, metavar="HOST:PORT",
                        help="also listen on loopback TCP, e.g. 127.0.0.1:7017; every local "
                             "user can reach it, so clients must send the token kept in "
                             f"{TOKEN_FILE} in the data folder")
    parser.add_argument("--data", type=Path, default=None,
                        help=f"where tables are saved (default: {default_data_dir()})")
    parser.add_argument("--group", default=None,
                        help="let this Unix group use the socket (mode 0660; a socket folder "
                             "the host makes is 0750 for the group)")
    parser.add_argument("--players-account", default=None, metavar="USER",
                        help="the shared account SSH players log in as: the host believes "
                             "the key its `solstis online --ssh-key` names (see docs/ssh.md)")
    parser.add_argument("--keys-file", type=Path, default=None, metavar="PATH",
                        help="the players' SSH keys file, whose lines name their players "
                             "('solstis host players add' writes them)")
    parser.add_argument("--expire-hours", type=float, default=24.0,
                        help="drop tables idle this long with nobody connected (default 24)")
    parser.add_argument("--bot-seconds", type=float, default=1.0,
                        help="thinking time of bots at the host (default 1.0)")
    parser.add_argument("--bot-workers", type=_workers, default=None, metavar="N",
                        help="processes that run bots (default: cores - 1, at least 1)")
    parser.add_argument("--bot-cluster", default=None, metavar="tls://SCHEDULER:8786",
                        help="let bots decide on this Dask bot fleet (needs "
                             f"{EXTRA!r}; mutual TLS only); when it cannot answer in time "
                             "they decide in the local pool (see docs/cluster.md)")
    parser.add_argument("--bot-cluster-tls", default=None, metavar="DIR|CA,CERT,KEY",
                        help="the fleet's TLS files: the folder 'solstis fleet certs' made "
                             "(its ca.pem, gateway.pem, gateway.key), or CA,CERT,KEY")
    parser.add_argument("--fleet-user", default=DEFAULT_FLEET_USER, metavar="USER",
                        help="where the host runs as root, the account its fleet gateway "
                             "runs as (default %(default)s)")
    parser.add_argument("--fleet-same-user", action="store_true",
                        help="where the host does not run as root, let its fleet gateway "
                             "run as the host's own account: a hostile fleet worker could "
                             "then act as that account (docs/cluster.md)")
    parser.add_argument("--no-analysis", action="store_true",
                        help="do not judge finished games here (by default each is judged "
                             "once, at the lowest priority, and its analysis sent with "
                             "its record; docs/analysis.md)")
    parser.add_argument("--metrics-port", type=int, default=None, metavar="PORT",
                        help="serve the host's figures as Prometheus text on "
                             "127.0.0.1:PORT/metrics (needs 'pip install "
                             "solstis-tui[metrics]')")
    limits = parser.add_argument_group("limits (see docs/protocol.md)")
    limits.add_argument("--max-connections", type=_at_least(1, int),
                        default=Limits.max_connections, metavar="N",
                        help="players connected at once; more are told the host is full "
                             "(default %(default)s, lowered to keep 192 of the open-file "
                             "limit free)")
    limits.add_argument("--idle-minutes", type=_at_least(2), default=Limits.idle_seconds / 60,
                        metavar="M", help="close connections silent this long (default "
                                          "%(default)g; the app pings every minute)")
    limits.add_argument("--max-open-tables", type=_at_least(1, int),
                        default=Limits.max_open_tables, metavar="N",
                        help="tables waiting for a second player, host-wide (default "
                             "%(default)s)")
    limits.add_argument("--open-table-minutes", type=_at_least(1),
                        default=Limits.open_table_seconds / 60, metavar="M",
                        help="close a table nobody joined after this long (default %(default)g)")
    limits.add_argument("--new-names-per-minute", type=_at_least(1),
                        default=Limits.new_names_per_minute, metavar="N",
                        help="new players accepted a minute, host-wide (default %(default)g)")
    add_arguments(parser)  # --listen-tls and its certificates
    return parser


async def run(args: argparse.Namespace, ready: asyncio.Event | None = None) -> int:
    """Serve until SIGINT/SIGTERM; 1 (said on stderr) if the host cannot start."""
    data = args.data or default_data_dir()
    uid = pwd.getpwnam(args.players_account).pw_uid if args.players_account else None
    host = Host(data, bot_seconds=args.bot_seconds,
                bot_workers=args.bot_workers, limits=limits_from(args),
                trust=Trust(uid, KeyRing(args.keys_file)), bot_cluster=cluster_of(args),
                judge_games=not args.no_analysis)
    gid = grp.getgrnam(args.group).gr_gid if args.group else None
    if args.socket is None and (ignored := ignored_runtime_dir()):
        print(f"solstis host: {ignored}", flush=True)
    try:
        host.load()
        for problem in host.problems + host.door.trust.key_problems():
            print(f"solstis host: {problem}", flush=True)
        sock = args.socket or default_socket()
        await host.serve_unix(sock, mode=0o660 if gid is not None else 0o600, group=gid)
        where = [str(sock)]
        if args.tcp:
            token, token_path = ensure_token(data)
            address, wanted = args.tcp
            port = await host.serve_tcp(address, wanted, token=token)
            where.append(f"{address}:{port}")
            print(f"solstis host: TCP clients must send the token in {token_path} (only "
                  "this user can read it; `solstis online --tcp` reads it from there or "
                  "from $SOLSTIS_TOKEN)", flush=True)
        if (tls := context_from(args)) is not None:
            address, wanted = args.listen_tls
            port = await host.serve_tls(address, wanted, tls)
            where.append(f"tls://{address}:{port}")
    except (StartRefused, NoSocketFolder, OSError, BadTlsFile) as exc:
        print(f"solstis host: not started: {exc}", file=sys.stderr, flush=True)
        await host.close()
        return 1
    if gid is not None and (closed := unreachable_for_group(sock, gid)) is not None:
        print(f"solstis host: warning: members of group {args.group} cannot enter {closed}, "
              "so they cannot reach the socket; choose a --socket in a folder they can "
              "enter", flush=True)
    metrics_task = None
    if args.metrics_port is not None:
        from .metrics import MetricsServer

        try:
            metrics = MetricsServer(args.metrics_port, host.status)
        except OSError as exc:
            print(f"solstis host: not started: the metrics port 127.0.0.1:"
                  f"{args.metrics_port}: {exc.strerror or exc}", file=sys.stderr, flush=True)
            await host.close()
            return 1
        metrics_task = asyncio.get_running_loop().create_task(metrics.run())
        where.append(f"metrics on http://127.0.0.1:{args.metrics_port}/metrics")
    print(f"solstis host: {len(host.tables)} tables; listening on {', '.join(where)} "
          f"(at most {host.crowd.cap} connections)", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    if ready:
        ready.set()
    await stop.wait()
    if metrics_task is not None:
        metrics_task.cancel()
        await asyncio.gather(metrics_task, return_exceptions=True)
    await host.close()
    print("solstis host: stopped; every table is saved", flush=True)
    return 0


def log_to_stderr() -> None:
    """Send what the host logs (storage errors among it) to stderr, one prefixed line each."""
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="solstis host: %(message)s")


def cluster_of(args: argparse.Namespace) -> FleetSettings | None:
    """The bot fleet the flags name (None: the local pool only); exits with status 2 and
    the reason if the flags or files will not do or the cluster extra is missing. The host
    itself never imports Dask: only its gateway does."""
    if args.bot_cluster is None:
        if args.bot_cluster_tls is not None:
            build_parser().error("--bot-cluster-tls needs --bot-cluster")
        return None
    try:
        settings = fleet_settings(args.bot_cluster, args.bot_cluster_tls, args.fleet_user)
    except FleetProblem as exc:
        build_parser().error(str(exc))
    if importlib.util.find_spec("distributed") is None:
        build_parser().error(f"--bot-cluster needs Dask: {EXTRA}")
    if os.geteuid() != 0 and not args.fleet_same_user:
        build_parser().error(
            "--bot-cluster: the fleet gateway hears from machines the host does not control, "
            "so it runs as another account (--fleet-user) where the host runs as root; "
            "started as an ordinary account, the host cannot separate it: start the host "
            "as root, or accept the risk with --fleet-same-user (docs/cluster.md)")
    return settings


def main(argv: list[str] | None = None) -> int:
    if argv and argv[0] == "players":
        from .players_cli import main as players_main

        return players_main(argv[1:])
    if argv and argv[0] == "status":
        from .status_cli import main as status_main

        return status_main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        context_from(args)  # checked before anything starts (again as it starts)
    except BadTlsFile as exc:
        build_parser().error(str(exc))
    if args.metrics_port is not None:
        from .metrics import EXTRA as METRICS_EXTRA
        from .metrics import available

        if not 0 < args.metrics_port < 65536:
            build_parser().error("--metrics-port: give a port from 1 to 65535")
        if not available():
            build_parser().error(f"--metrics-port needs prometheus_client: {METRICS_EXTRA}")
    log_to_stderr()
    if args.group:
        try:
            grp.getgrnam(args.group)
        except KeyError:
            build_parser().error(f"no such group: {args.group}")
    if args.players_account:
        try:
            pwd.getpwnam(args.players_account)
        except KeyError:
            build_parser().error(f"no such user: {args.players_account}")
    return asyncio.run(run(args))

"""``solstis host status``: ask the running host, over its Unix socket, for its figures
(connections, tables, where bots decide and how long decisions wait) and print them."""

from __future__ import annotations

import argparse
import json
import socket
import sys
import time
from pathlib import Path
from typing import Any

from ..wire.paths import NoSocketFolder, default_socket, describe_default_socket
from ..wire.protocol import ProtocolError, decode, encode

#: Seconds to wait for the host's answer (a host that does not answer is reported as such).
ANSWER_SECONDS = 10.0


def ask(path: Path, timeout: float = ANSWER_SECONDS) -> dict[str, Any]:
    """The host's ``status`` answer over the socket at ``path``; OSError if the host cannot
    be reached, ProtocolError if it refuses."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(str(path))
        sock.sendall(encode({"type": "status", "id": 1}))
        data = b""
        while b"\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                raise OSError("the host closed the connection")
            data += chunk
    reply = decode(data.split(b"\n", 1)[0])
    if reply.get("type") == "error":
        raise ProtocolError(str(reply.get("code")), str(reply.get("message")))
    return reply


def _count(n: Any, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _figures(name: str, figures: Any) -> str:
    if not isinstance(figures, dict) or not figures.get("count"):
        return f"{name}: none yet"
    return (f"{name}: median {figures['p50']:g} ms, 95th percentile {figures['p95']:g} ms "
            f"(the last {figures['count']} decisions)")


def lines(status: dict[str, Any], now: float | None = None) -> list[str]:
    """The status in plain sentences, one a line."""
    now = time.time() if now is None else now
    out = [f"{_count(status.get('connections', 0), 'connection')}; "
           f"{_count(status.get('tables', 0), 'table')} ({status.get('playing', 0)} being "
           f"played, {status.get('finished', 0)} finished)"]
    bots = status.get("bots", {})
    local = bots.get("local", bots)
    seats = status.get("bot_seats", {})
    if "bot_tables" in status:
        out.append(f"{_count(status['bot_tables'], 'game')} against bots, of at most "
                   f"{status.get('bot_table_capacity', 0)} the bot workers take now")
    if "cluster" in bots:
        since = max(0, int(now - float(bots.get("since", now))))
        workers = _count(bots.get("cluster_workers", 0), "worker")
        if bots.get("gateway") != "running":
            out.append(f"bots decide in the local pool: the fleet gateway is down (started "
                       f"{_count(bots.get('gateway_starts', 0), 'time')})")
        elif bots.get("path") == "cluster":
            out.append(f"bots decide on the fleet {bots['cluster']} ({workers}) for {since} s")
        else:
            out.append(f"bots decide in the local pool: the fleet {bots['cluster']} has "
                       f"had no workers for {since} s")
        out.append(f"fleet: {bots.get('answered', 0)} decisions answered, "
                   f"{bots.get('retried', 0)} of them retried after a worker was lost; "
                   f"{bots.get('to_local', 0)} sent to the local pool, "
                   f"{bots.get('refused', 0)} bad answers refused")
        whys = bots.get("to_local_why", {})
        if whys:
            out.append("sent to the local pool: " + "; ".join(
                f"{n} as {why}" for why, n in sorted(whys.items(), key=lambda kv: -kv[1])))
        for refusal in bots.get("refusals", [])[-3:]:
            out.append(f"refused: {refusal}")
        out.append(_figures("fleet queue wait and transfer", bots.get("queue_wait_ms")))
        out.append(_figures("fleet thinking", bots.get("thinking_ms")))
    out.append(f"local pool: {len(local.get('workers', []))} workers, "
               f"{local.get('running', 0)} deciding, {local.get('queued', 0)} waiting, "
               f"{local.get('lost', 0)} workers lost")
    out.append(_figures("local queue wait", local.get("queue_wait_ms")))
    out.append(_figures("local thinking", local.get("thinking_ms")))
    if seats:
        lost = seats.get("random_moves", 0)
        out.append(f"{_count(lost, 'decision')} nobody answered, played as a random legal "
                   "move (the log names each)" if lost else
                   "0 random moves: every bot decision was answered")
    if status.get("storage_errors") or status.get("internal_errors"):
        out.append(f"{status.get('storage_errors', 0)} storage errors and "
                   f"{status.get('internal_errors', 0)} internal errors since the start "
                   "(the host's log says which)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="solstis host status",
        description="Print the running host's figures: connections, tables, where bots "
                    "decide, and how long decisions wait. Run it as the host's own account.")
    parser.add_argument("--socket", type=Path, default=None,
                        help=f"the host's Unix socket (default: {describe_default_socket()})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--prometheus", action="store_true",
                        help="print the figures as Prometheus text (needs prometheus_client: "
                             "pip install 'solstis-tui[metrics]')")
    args = parser.parse_args(argv)
    if args.prometheus:
        from .metrics import EXTRA, available

        if not available():
            parser.error(f"--prometheus needs prometheus_client: {EXTRA}")
    try:
        path = args.socket or default_socket()
        status = ask(path)
    except NoSocketFolder as exc:
        print(f"solstis host status: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"solstis host status: no host answers at {args.socket or 'the default socket'} "
              f"({exc})", file=sys.stderr)
        return 1
    except ProtocolError as exc:
        print(f"solstis host status: the host refused: {exc.message}", file=sys.stderr)
        return 1
    status.pop("id", None)
    if args.prometheus:
        from .metrics import prometheus_text

        print(prometheus_text(status), end="")
    elif args.json:
        print(json.dumps(status, indent=1, sort_keys=True))
    else:
        print("\n".join(lines(status)))
    return 0

"""``solstis online`` and ``solstis web``: command lines for the client and browser play."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from themes import THEMES

from .serve import _tcp


def online_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solstis online",
        description="Play at a Solstis game host (start one with 'solstis host').")
    parser.add_argument("--socket", type=Path, default=None,
                        help="the host's Unix socket (default: $SOLSTIS_SOCKET or the "
                             "user's runtime directory)")
    parser.add_argument("--tcp", type=_tcp, default=None, metavar="HOST:PORT",
                        help="reach the host on loopback TCP instead")
    parser.add_argument("--name", default=None, help="your name (asked in the lobby if absent)")
    parser.add_argument("--code", default=None, help="your resume code, to get your seats back")
    parser.add_argument("--theme", choices=sorted(THEMES), default="dark")
    parser.add_argument("--ascii", action="store_true", help="plain ASCII drawing")
    parser.add_argument("--no-mouse", action="store_true", help="do not capture the mouse")
    return parser


def online_main(argv: list[str]) -> int:
    args = online_parser().parse_args(argv)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("solstis online needs a terminal: connect with 'ssh -t'.", file=sys.stderr)
        return 2
    if args.name is not None and not (0 < len(args.name.strip()) <= 24):
        online_parser().error("--name takes 1 to 24 characters")
    from .app import OnlineApp

    app = OnlineApp(socket=args.socket, tcp=args.tcp, name=args.name, code=args.code,
                    theme_name=args.theme, ascii_mode=args.ascii)
    app.run(mouse=not args.no_mouse)
    return 0


def web_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="solstis web",
        description="Serve the game to a browser on localhost (needs the 'web' extra: "
                    "pip install 'solstis-tui[web]').")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("game_args", nargs=argparse.REMAINDER,
                        help="arguments for the game, e.g. -- --opponent greedy")
    args = parser.parse_args(argv)
    try:
        from textual_serve.server import Server
    except ImportError:
        print("solstis web: textual-serve is not installed; run "
              "pip install 'solstis-tui[web]'", file=sys.stderr)
        return 2
    extra = [a for a in args.game_args if a != "--"]
    command = shlex.join([sys.executable, "-m", "solstis_tui.cli", *extra])
    Server(command, host="localhost", port=args.port, title="Solstis").serve()
    return 0

"""``solstis online`` and ``solstis web``: command lines for the client and browser play."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from solstis_tui.themes import THEMES

from ..wire.paths import tcp_address
from ..wire.tls import BadTlsFile, TlsTarget
from . import tls_options

if TYPE_CHECKING:
    from textual_serve.server import Server


def online_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solstis online",
        description="Play at a Solstis game host (start one with 'solstis host').")
    parser.add_argument("--socket", type=Path, default=None,
                        help="the host's Unix socket (default: $SOLSTIS_SOCKET or the "
                             "user's runtime directory)")
    parser.add_argument("--tcp", type=tcp_address, default=None, metavar="HOST:PORT",
                        help="reach the host on loopback TCP instead")
    parser.add_argument("--name", default=None, help="your name (asked in the lobby if absent)")
    parser.add_argument("--code", default=None,
                        help="your resume code, to get your seats back (write --code=CODE: "
                             "a code may begin with '-')")
    parser.add_argument("--ssh-key", action="store_true",
                        help="tell the host the key sshd logged you in with (read from "
                             "$SSH_USER_AUTH: sshd's ExposeAuthInfo); for the players' "
                             "shared SSH account, see docs/ssh.md")
    parser.add_argument("--token-file", type=Path, default=None,
                        help="with --tcp: the host's token file (default: $SOLSTIS_TOKEN, "
                             "else tcp-token in the host's default data folder)")
    tls_options.add_arguments(parser)  # --host tls://…, --host-ca, --frontend-cert/-key
    parser.add_argument("--waiting", action="store_true",
                        help="print in one line how many of your games wait for your move, "
                             "and exit (0: some wait, 1: none, 2: the host could not say); "
                             "knows you by --ssh-key, --code or your account, never by a "
                             "name (see docs/ssh.md)")
    parser.add_argument("--ssh-command", action="store_true",
                        help="for the players' shared SSH account: act on the command the "
                             "SSH client asked for ($SSH_ORIGINAL_COMMAND): none opens the "
                             "lobby, 'waiting' is --waiting; anything else is refused")
    parser.add_argument("--theme", choices=sorted(THEMES), default="dark")
    parser.add_argument("--ascii", action="store_true", help="plain ASCII drawing")
    parser.add_argument("--no-mouse", action="store_true", help="do not capture the mouse")
    return parser


def online_main(argv: list[str]) -> int:
    args = online_parser().parse_args(argv)
    try:
        tls = tls_options.target_from(args)
    except BadTlsFile as exc:
        online_parser().error(str(exc))
    if args.ssh_command:
        asked = os.environ.get("SSH_ORIGINAL_COMMAND", "").strip()
        if asked == "waiting":
            args.waiting = True
        elif asked:
            print("solstis: this SSH login opens the lobby, or with the command 'waiting' "
                  "says how many games wait for your move; nothing else.", file=sys.stderr)
            return 2
    if args.waiting:
        return print_waiting(args, tls)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("solstis online needs a terminal: connect with 'ssh -t'.", file=sys.stderr)
        return 2
    if os.environ.get("TERM", "") == "dumb":  # as the local game: the board cannot be drawn
        print("solstis online: this terminal (TERM=dumb) cannot draw the lobby or the board. "
              "Connect from a terminal such as xterm or tmux, or set TERM (e.g. "
              "TERM=xterm-256color).", file=sys.stderr)
        return 2
    if args.name is not None and not (0 < len(args.name.strip()) <= 24):
        online_parser().error("--name takes 1 to 24 characters")
    ssh_key = None
    if args.ssh_key:
        ssh_key = login_key()
        if ssh_key is None:
            print("solstis online --ssh-key: sshd did not say which key logged you in "
                  "($SSH_USER_AUTH; sshd needs ExposeAuthInfo yes); you play as a guest.",
                  file=sys.stderr)
    if args.token_file is not None:  # read by HostClient.connect (client.read_token)
        os.environ["SOLSTIS_TOKEN_FILE"] = str(args.token_file)
    from .app import OnlineApp

    app = OnlineApp(socket=args.socket, tcp=args.tcp, name=args.name, code=args.code,
                    theme_name=args.theme, ascii_mode=args.ascii, ssh_key=ssh_key, tls=tls)
    app.run(mouse=not args.no_mouse)
    return 0


def print_waiting(args: argparse.Namespace, tls: TlsTarget | None) -> int:
    """``--waiting``: print the line, return the exit status (see client.waiting)."""
    import asyncio

    from .waiting import UNKNOWN, waiting_line

    if args.name is not None:
        print("solstis online --waiting knows you by --ssh-key, --code or your account, "
              "not by a name (a name would make a new player).", file=sys.stderr)
        return UNKNOWN
    if args.token_file is not None:
        os.environ["SOLSTIS_TOKEN_FILE"] = str(args.token_file)
    ssh_key = login_key() if args.ssh_key else None
    status, line = asyncio.run(waiting_line(args.socket, args.tcp, tls, args.code, ssh_key))
    print(line, file=sys.stdout if status != UNKNOWN else sys.stderr)
    return status


def login_key() -> str | None:
    """The public key of this SSH login, from the file sshd names in ``$SSH_USER_AUTH``
    (``ExposeAuthInfo yes``); None without one."""
    from ..wire.ssh_auth import exposed_key

    path = os.environ.get("SSH_USER_AUTH")
    if not path:
        return None
    try:
        return exposed_key(Path(path).read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None


def web_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="solstis web",
        description="Serve the game to a browser on localhost (needs textual-serve, the "
                    "'web' extra: pip install -e '.[web]' in the checkout).")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("game_args", nargs=argparse.REMAINDER,
                        help="arguments for the game, e.g. -- --opponent greedy")
    args = parser.parse_args(argv)
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        print("solstis web: textual-serve is not installed; in the checkout run "
              "pip install -e '.[web]'", file=sys.stderr)
        return 2
    extra = [a for a in args.game_args if a != "--"]
    use_browser_saves()
    command = shlex.join([sys.executable, "-m", "solstis_tui.cli", *extra])
    web_server(command, args.port).serve()
    return 0


def use_browser_saves() -> None:
    """Games served to a browser keep their own save, settings and tutorial place (the
    'web' folder of the data directory), inherited by every game the server starts: the
    first page no longer offers to continue a game started in the terminal."""
    from ..files import DATA_DIR_VARIABLE, data_dir

    os.environ[DATA_DIR_VARIABLE] = str(data_dir() / "web")


def local_origins(port: int) -> frozenset[str]:
    """The pages allowed to open the game's WebSocket: the ones this server serves."""
    return frozenset(f"http://{host}:{port}" for host in ("localhost", "127.0.0.1", "[::1]"))


def web_server(command: str, port: int) -> Server:
    """A textual-serve server on localhost whose WebSocket refuses any other page's Origin
    (so a web site open in the same browser cannot drive the game)."""
    from aiohttp import web
    from textual_serve.server import Server

    class LocalServer(Server):
        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            if request.headers.get("Origin") not in local_origins(self.port):
                raise web.HTTPForbidden(text="the game only talks to the page it served")
            return await super().handle_websocket(request)

    return LocalServer(command, host="localhost", port=port, title="Solstis")

"""Probes for the SSH deployment test: terminals, login processes and a TCP target."""

from __future__ import annotations

import os
import shlex
import socket
import socketserver
import subprocess
import threading
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Answer(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        self.server.hits += 1  # type: ignore[attr-defined]
        self.request.sendall(b"PONG\n")


class Target(socketserver.ThreadingTCPServer):
    """A loopback TCP service that answers PONG: where forwarding probes try to go."""

    daemon_threads = True

    def __init__(self) -> None:
        self.hits = 0
        super().__init__(("127.0.0.1", 0), _Answer)
        self.port = self.server_address[1]
        threading.Thread(target=self.serve_forever, daemon=True).start()


class Tmux:
    """A private tmux server for the test's terminals."""

    def __init__(self, name: str) -> None:
        self.base = ["tmux", "-L", f"{name}-{os.getpid()}"]

    def new(self, session: str, command: list[str], env: dict[str, str]) -> None:
        line = " ".join([*(f"{k}={shlex.quote(v)}" for k, v in env.items()), shlex.join(command)])
        subprocess.run([*self.base, "new-session", "-d", "-s", session, "-x", "80", "-y", "24",
                        line], check=True)

    def keys(self, session: str, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", session, *keys], check=True)

    def screen(self, session: str) -> str:
        out = subprocess.run([*self.base, "capture-pane", "-p", "-t", session],
                             capture_output=True, text=True)
        return out.stdout

    def wait_for(self, session: str, text: str, timeout: float = 60) -> str:
        """The screen once it shows ``text`` (``timeout``: a guard, long enough for a
        login on a loaded machine; it looks every 50 ms)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen(session)
            if text in screen:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen(session)}")

    def kill(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)

    def play_to_the_end(self, players: tuple[str, ...], timeout: float = 120,
                        patience: float = 10) -> None:
        """Each player presses Enter at each of their decisions until every player's
        screen says "Game over".

        Enter goes only to a screen that shows a decision ("Your decision") and has
        changed since that player's last Enter: until the host's answer shows, the screen
        still shows the decision just answered, and a second Enter would land on whatever
        comes next, such as the end screen (where Enter leaves for the lobby). A screen
        unchanged for ``patience`` seconds gets Enter again (a decision that looks like
        the last one). A screen must also look the same twice in a row (0.1 s apart):
        a decision drawn just before the end screen replaces it gets no Enter."""
        answered: dict[str, tuple[str, float]] = {}
        seen: dict[str, str] = {}
        ended: set[str] = set()
        deadline = time.monotonic() + timeout
        while ended != set(players):
            if time.monotonic() > deadline:
                shown = {who: self.screen(who) for who in players}
                raise AssertionError(f"no game over after {timeout} s: {shown}")
            for who in set(players) - ended:
                screen = self.screen(who)
                if "Game over" in screen:
                    ended.add(who)
                    continue
                last = answered.get(who)
                steady, seen[who] = seen.get(who) == screen, screen
                if not steady or "Your decision" not in screen or (
                        last and last[0] == screen and time.monotonic() - last[1] < patience):
                    continue
                self.keys(who, "Enter")
                answered[who] = (screen, time.monotonic())
            time.sleep(0.1)



def session_pids(port: int) -> set[int]:
    """Processes of logins to the sshd on ``port`` (by their SSH_CONNECTION)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            env = environ(int(entry.name))
            if env.get("SSH_CONNECTION", "").split()[-1:] == [str(port)]:
                found.add(int(entry.name))
    return found


def environ(pid: int) -> dict[str, str]:
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    pairs = (item.decode(errors="replace").partition("=") for item in raw.split(b"\0") if item)
    return {name: value for name, _, value in pairs}


def connect_when_listening(port: int, proc: subprocess.Popen,
                           timeout: float = 10) -> socket.socket | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            time.sleep(0.05)
    return None


def talk(conn: socket.socket, socks_to: int | None = None) -> bytes:
    """Send ping (through a SOCKS5 handshake to ``socks_to`` first); what came back."""
    with conn:
        try:
            if socks_to is not None:
                conn.sendall(b"\x05\x01\x00")
                if conn.recv(2) != b"\x05\x00":
                    return b""
                conn.sendall(b"\x05\x01\x00\x01" + socket.inet_aton("127.0.0.1")
                             + socks_to.to_bytes(2, "big"))
                reply = conn.recv(10)
                if len(reply) < 2 or reply[1] != 0:
                    return b""
            conn.sendall(b"ping\n")
            return conn.recv(16)
        except OSError:
            return b""

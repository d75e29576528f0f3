"""End to end through real OpenSSH: two `ssh -tt` logins play a game by key presses.

The test starts its own sshd on 127.0.0.1 with its own host key, an authorized test key and
`ForceCommand solstis online`, a game host, and two tmux sessions running `ssh -tt`. Without
sshd, ssh or tmux on the machine it is skipped, saying so (.ci/run installs them).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

NEEDED = ("sshd", "ssh", "ssh-keygen", "tmux")


def _which(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin")


missing = [n for n in NEEDED if _which(n) is None]
pytestmark = pytest.mark.skipif(
    bool(missing), reason=f"needs {', '.join(missing)} (apt install openssh-server "
                          "openssh-client tmux)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Tmux:
    """A private tmux server for the test's terminals."""

    def __init__(self, name: str) -> None:
        self.base = ["tmux", "-L", name]

    def new(self, session: str, command: str) -> None:
        subprocess.run([*self.base, "new-session", "-d", "-s", session, "-x", "80", "-y", "24",
                        command], check=True)

    def keys(self, session: str, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", session, *keys], check=True)

    def screen(self, session: str) -> str:
        out = subprocess.run([*self.base, "capture-pane", "-p", "-t", session],
                             capture_output=True, text=True)
        return out.stdout

    def wait_for(self, session: str, text: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen(session)
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen(session)}")

    def kill(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)


@pytest.fixture
def sshd(tmp_path):
    """sshd on a free loopback port whose only command is `solstis online`."""
    keys = tmp_path / "keys"
    keys.mkdir()
    for key in ("host", "user"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", keys / key],
                       check=True)
    (keys / "authorized").write_text((keys / "user.pub").read_text())
    os.chmod(keys / "authorized", 0o600)
    sock, data = tmp_path / "host.sock", tmp_path / "host-data"
    solstis = Path(sys.executable).with_name("solstis")
    host = subprocess.Popen([solstis, "host", "--socket", sock, "--data", data,
                             "--bot-seconds", "0.1"], stdout=subprocess.PIPE, text=True)
    assert "listening" in host.stdout.readline()
    port = free_port()
    config = tmp_path / "sshd_config"
    config.write_text(f"""
Port {port}
ListenAddress 127.0.0.1
HostKey {keys / 'host'}
AuthorizedKeysFile {keys / 'authorized'}
PidFile {tmp_path / 'sshd.pid'}
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
DisableForwarding yes
PermitTTY yes
PermitUserEnvironment no
ForceCommand {solstis} online --socket {sock}
""")
    Path("/run/sshd").mkdir(exist_ok=True) if os.geteuid() == 0 else None
    daemon = subprocess.Popen([_which("sshd"), "-D", "-e", "-f", config],
                              stderr=subprocess.PIPE, text=True)
    for _ in range(50):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if daemon.poll() is not None:
                pytest.skip(f"sshd cannot run here: {daemon.stderr.read()[-300:]}")
            time.sleep(0.1)
    user = os.environ.get("USER") or subprocess.run(
        ["id", "-un"], capture_output=True, text=True).stdout.strip()
    ssh = (f"ssh -i {keys / 'user'} -p {port} -o StrictHostKeyChecking=no "
           f"-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes "
           f"{user}@127.0.0.1")
    yield ssh, data
    daemon.terminate()
    host.terminate()
    daemon.wait(5)
    host.wait(5)


def table_file(data: Path) -> dict | None:
    files = list((data / "tables").glob("t*.json"))
    return json.loads(files[0].read_text()) if files else None


def test_two_ssh_players_play_a_game_to_the_end(sshd):
    ssh, data = sshd
    tmux = Tmux(f"solstis-test-{os.getpid()}")
    env = "TERM=xterm-256color"
    try:
        tmux.new("ann", f"{env} {ssh} -tt")
        tmux.new("bob", f"{env} {ssh} -tt")
        tmux.wait_for("ann", "Your name")
        tmux.keys("ann", "Ann", "Enter")
        tmux.wait_for("ann", "resume code")
        tmux.keys("ann", "c")
        tmux.wait_for("ann", "New table")
        tmux.keys("ann", "s", "Enter")  # friend table, Ann plays first
        tmux.wait_for("ann", "Your decision")
        tmux.wait_for("bob", "Your name")
        tmux.keys("bob", "Bob", "Enter")
        tmux.wait_for("bob", "open")
        tmux.keys("bob", "Enter")
        tmux.wait_for("bob", "Waiting for Ann")
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            state = table_file(data)
            if state and state["game"]["over"]:
                break
            for who in ("ann", "bob"):
                if "Your decision" in tmux.screen(who):
                    tmux.keys(who, "Enter")
            time.sleep(0.15)
        state = table_file(data)
        assert state["game"]["over"], "the game did not finish"
        assert len(state["game"]["history"]) > 20
        assert [s["name"] for s in state["seats"]] == ["Ann", "Bob"]
        screen = tmux.wait_for("ann", "Game over")
        assert "stars" in screen or "★" in screen
    finally:
        tmux.kill()


def test_the_forced_command_account_runs_nothing_else(sshd):
    ssh, _ = sshd
    out = subprocess.run(f"{ssh} 'cat /etc/hostname; echo SHELL-RAN'", shell=True,
                         capture_output=True, text=True, timeout=30)
    assert "SHELL-RAN" not in out.stdout + out.stderr
    assert "needs a terminal" in out.stderr
    out = subprocess.run(f"{ssh} -W 127.0.0.1:9", shell=True, capture_output=True,
                         text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert out.returncode != 0  # no forwarding through the account either

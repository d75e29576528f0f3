"""The SSH deployment of docs/ssh.md, verbatim, against a real OpenSSH server.

The sshd drop-in, the systemd unit and the expected `sshd -T` lines are read from
docs/ssh.md (see ssh_doc.py). The drop-in is included by a Debian 12 style sshd_config on a
loopback port; the game host starts from the unit's ExecStart. Only names change: the
account becomes the current user, and the program, socket and keys paths the test's own.
Then two `ssh -tt` players play a game, and every other use of the account is refused. The
same probes run once more with the drop-in's guard lines removed, where each gets through,
so no refusal passes by accident.
"""

from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from solstis_tui.client.launch import online_parser
from solstis_tui.host.serve import build_parser as host_parser
from tests.online import ssh_doc
from tests.online.ssh_probes import (
    Target,
    Tmux,
    connect_when_listening,
    environ,
    free_port,
    session_pids,
    talk,
)

NEEDED = ("sshd", "ssh", "ssh-keygen", "ssh-agent", "scp", "sftp", "tmux")


def _which(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin")


missing = [n for n in NEEDED if _which(n) is None]
# Skipped on a developer's machine without them; in CI (CI set) a missing tool fails the run.
needs_openssh = pytest.mark.skipif(
    bool(missing) and not os.environ.get("CI"),
    reason=f"needs {', '.join(missing)} (apt install openssh-server openssh-client tmux; "
           ".ci/run does)")

PROGRAM = Path(sys.executable).with_name("solstis")
USER = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
GROUP = subprocess.run(["id", "-gn"], capture_output=True, text=True).stdout.strip()
SFTP_SERVER = next((p for p in ("/usr/lib/openssh/sftp-server", "/usr/libexec/openssh/"
                                "sftp-server", "/usr/libexec/sftp-server") if Path(p).exists()),
                   "internal-sftp")

# sshd_config around the doc's drop-in: the test's own port, keys and pid file first, then
# Debian 12's stock /etc/ssh/sshd_config (its first line includes sshd_config.d/*.conf).
# UsePAM no lets sshd run unprivileged and in containers; StrictModes no accepts keys under
# /tmp; XAuthLocation is a stand-in for xauth so that X11 forwarding could work at all.
# SetEnv HOME gives the logins an empty home: the tests log in as whoever runs them, and
# that account's shell start-up files (a bash ~/.bashrc that runs ``pyenv rehash``, say)
# are not the doc's to run; the doc's own account has /bin/sh and a home with nothing in it.
MAIN_CONFIG = """\
Port {port}
ListenAddress 127.0.0.1
HostKey {dir}/host_key
PidFile {dir}/sshd.pid
StrictModes no
UsePAM no
XAuthLocation {dir}/xauth
Include {dir}/sshd_config.d/*.conf
KbdInteractiveAuthentication no
X11Forwarding yes
PrintMotd no
AcceptEnv LANG LC_*
Subsystem sftp {sftp_server}
SetEnv HOME={dir}/home
"""

# The drop-in's lines that refuse things; the control run deletes them and accepts any
# environment variable, and every probe must then get through.
GUARDS = ("ForceCommand", "DisableForwarding", "AllowTcpForwarding", "AllowStreamLocalForwarding",
          "AllowAgentForwarding", "X11Forwarding", "PermitOpen", "PermitListen", "AcceptEnv")


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(ssh_doc.the_block(file=ssh_doc.UNIT).text)
    return parser


def dropin_swaps(tmp: Path) -> dict[str, str]:
    return {f"Match User {ssh_doc.ACCOUNT}": f"Match User {USER}",
            ssh_doc.PROGRAM: str(PROGRAM), ssh_doc.SOCKET: str(tmp / "run" / "host.sock"),
            ssh_doc.KEYS: str(tmp / "authorized_keys")}


def weakened(dropin: str) -> str:
    """The drop-in without its guard lines, accepting any environment variable."""
    lines = dropin.splitlines()
    for guard in GUARDS:
        assert any(line.split()[:1] == [guard] for line in lines), f"no {guard} in the doc"
    kept = [line for line in lines if line.split()[:1] not in ([g] for g in GUARDS)]
    return "\n".join([*kept, "    AcceptEnv *", ""])


@dataclass
class Deployment:
    """An sshd with the doc's drop-in and a game host started as the unit says."""

    dir: Path
    port: int
    processes: list[subprocess.Popen] = field(default_factory=list)

    def options(self, key: str = "user_key") -> list[str]:
        return ["-F", "/dev/null", "-i", str(self.dir / key), "-o", f"Port={self.port}",
                "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
                "-o", "BatchMode=yes", "-o", "ConnectTimeout=10"]

    def ssh(self, *args: str, key: str = "user_key") -> list[str]:
        return ["ssh", *self.options(key), *args, f"{USER}@127.0.0.1"]

    def run(self, *args: str, command: str | None = None,
            stdin: str = "") -> subprocess.CompletedProcess[str]:
        argv = self.ssh(*args) + ([command] if command else [])
        return subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=30)

    def log(self) -> str:
        return (self.dir / "sshd.log").read_text(errors="replace")[-2000:]


def wait_for_line(proc: subprocess.Popen, text: str, timeout: float = 30) -> None:
    seen: list[str] = []

    def read() -> None:
        for line in proc.stdout:
            seen.append(line)
            if text in line:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    assert seen and text in seen[-1], f"the game host never said {text!r}: {''.join(seen)}"


def start_host(tmp: Path, exec_start: str | None = None,
               more: dict[str, str] | None = None) -> subprocess.Popen:
    """The game host, run with the unit's ExecStart, or ``exec_start`` (program, socket,
    data, group swapped, and the options in ``more``)."""
    argv = shlex.split(exec_start or unit()["Service"]["ExecStart"])
    assert argv[:2] == [ssh_doc.PROGRAM, "host"], argv
    swaps = {"--socket": str(tmp / "run" / "host.sock"), "--data": str(tmp / "data"),
             "--group": GROUP, "--players-account": USER,
             "--keys-file": str(tmp / "authorized_keys"), **(more or {})}
    for option, value in swaps.items():
        assert option in argv, f"the unit's ExecStart has no {option}"
        argv[argv.index(option) + 1] = value
    host = subprocess.Popen([str(PROGRAM), *argv[1:]], stdout=subprocess.PIPE, text=True)
    wait_for_line(host, "listening")
    return host


def deploy(tmp: Path, dropin: str,
           host: Callable[[Path], subprocess.Popen] = start_host) -> Deployment:
    for key in ("host_key", "user_key"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", tmp / key],
                       check=True)
    (tmp / "authorized_keys").write_text((tmp / "user_key.pub").read_text())
    # xauth's stand-in: sshd feeds it commands ("-q -"); ssh asks it for a list (none)
    (tmp / "xauth").write_text('#!/bin/sh\n[ "$1" = -q ] && cat > /dev/null\nexit 0\n')
    (tmp / "xauth").chmod(0o755)
    (tmp / "sshd_config.d").mkdir()
    (tmp / "home").mkdir()
    (tmp / "sshd_config.d" / "solstis.conf").write_text(dropin)
    deployment = Deployment(tmp, free_port())
    (tmp / "sshd_config").write_text(MAIN_CONFIG.format(
        port=deployment.port, dir=tmp, sftp_server=SFTP_SERVER))
    if os.geteuid() == 0:
        # sshd's privilege separation directory; ``sshd -t`` needs it too. A system that
        # runs sshd as a service makes it at boot; a fresh container has none.
        Path("/run/sshd").mkdir(exist_ok=True)
    checked = subprocess.run([_which("sshd"), "-t", "-f", tmp / "sshd_config"],
                             capture_output=True, text=True)
    assert (checked.returncode, checked.stdout + checked.stderr) == (0, ""), checked.stderr
    deployment.processes.append(host(tmp))
    with open(tmp / "sshd.log", "w") as log:
        daemon = subprocess.Popen([_which("sshd"), "-D", "-e", "-f", tmp / "sshd_config"],
                                  stderr=log)
    deployment.processes.append(daemon)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and daemon.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", deployment.port), timeout=0.2).close()
            return deployment
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"sshd did not start:\n{deployment.log()}")


def stop(deployment: Deployment) -> None:
    for proc in reversed(deployment.processes):
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def doc_sshd(tmp_path_factory) -> Iterator[Deployment]:
    tmp = tmp_path_factory.mktemp("ssh")
    text = ssh_doc.the_block(file=ssh_doc.DROPIN).text
    deployment = deploy(tmp, ssh_doc.substitute(text, dropin_swaps(tmp)))
    yield deployment
    stop(deployment)


@pytest.fixture(scope="module")
def open_sshd(tmp_path_factory) -> Iterator[Deployment]:
    tmp = tmp_path_factory.mktemp("ssh-open")
    text = ssh_doc.substitute(ssh_doc.the_block(file=ssh_doc.DROPIN).text, dropin_swaps(tmp))
    deployment = deploy(tmp, weakened(text))
    yield deployment
    stop(deployment)


@pytest.fixture(scope="module")
def target() -> Iterator[Target]:
    server = Target()
    yield server
    server.shutdown()
    server.server_close()


# ---- probes: each says whether the thing got through -------------------------------------

def login_environment(deployment: Deployment, app: bool) -> dict[str, str]:
    """The environment of an `ssh -tt -A -Y -o SetEnv=…` login's process (the game when
    ``app``), with an agent and an X display on the client side."""
    tmux = Tmux("solstis-env")  # -Y: the X11 request of -X, sent even without xauth data
    agent_sock = deployment.dir / f"agent-{app}.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", agent_sock], stdout=subprocess.DEVNULL)
    before = session_pids(deployment.port)
    try:
        tmux.new("eve", deployment.ssh("-tt", "-A", "-Y", "-o",
                                       f"XAuthLocation={deployment.dir / 'xauth'}", "-o",
                                       "SetEnv=SOLSTIS_X=1 LC_SOLSTIS=1"),
                 {"TERM": "xterm-256color", "DISPLAY": ":99", "SSH_AUTH_SOCK": str(agent_sock)})
        if app:
            tmux.wait_for("eve", "Your name")
        deadline = time.monotonic() + 15
        while not (new := session_pids(deployment.port) - before):
            assert time.monotonic() < deadline, f"no login process:\n{deployment.log()}"
            time.sleep(0.1)
        env = environ(min(new))
        assert env, "the login ended before its environment could be read"
        return env
    finally:
        tmux.kill()
        agent.terminate()
        agent.wait(5)


def forwarded(deployment: Deployment, flag: str, target: Target) -> bool:
    """Whether ssh ``flag`` (-L, -R, -D or -W) carried a connection to ``target``."""
    hits = target.hits
    if flag == "-W":
        out = deployment.run("-W", f"127.0.0.1:{target.port}", stdin="ping\n")
        return "PONG" in out.stdout and target.hits > hits
    port = free_port()
    spec = {"-L": f"{port}:127.0.0.1:{target.port}", "-R": f"{port}:127.0.0.1:{target.port}",
            "-D": str(port)}[flag]
    proc = subprocess.Popen(deployment.ssh("-N", "-o", "ExitOnForwardFailure=yes", flag, spec),
                            stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        conn = connect_when_listening(port, proc)
        answer = talk(conn, target.port if flag == "-D" else None) if conn else b""
    finally:
        proc.kill()  # after a refused channel, ssh -N sometimes ignores SIGTERM for seconds
        proc.wait(10)
    return answer.startswith(b"PONG") and target.hits > hits


def transferred(deployment: Deployment, tool: str) -> bool:
    """Whether ``tool`` (sftp, scp or scp -O) copied a file out through the account."""
    source, dest = deployment.dir / "secret.txt", deployment.dir / f"copy-{tool[-2:]}.txt"
    source.write_text("SECRET\n")
    dest.unlink(missing_ok=True)
    if tool == "sftp":
        (deployment.dir / "batch").write_text(f"get {source} {dest}\n")
        argv = ["sftp", *deployment.options(), "-b", str(deployment.dir / "batch"),
                f"{USER}@127.0.0.1"]
    else:
        argv = [*tool.split(), *deployment.options(), f"{USER}@127.0.0.1:{source}", str(dest)]
    subprocess.run(argv, capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    return dest.exists() and dest.read_text() == "SECRET\n"


# ---- the documented configuration --------------------------------------------------------

def test_the_unit_is_valid_and_serves_the_socket_the_forced_command_uses(tmp_path):
    service = unit()["Service"]
    argv = shlex.split(service["ExecStart"])
    host = host_parser().parse_args(argv[2:])  # every option of the unit exists
    forced = shlex.split(next(line.split(None, 1)[1] for line in ssh_doc.directive_lines(
        ssh_doc.the_block(file=ssh_doc.DROPIN).text) if line.startswith("ForceCommand ")))
    assert forced[:2] == [ssh_doc.PROGRAM, "online"]
    client = online_parser().parse_args(forced[2:])
    assert client.socket == host.socket == Path(ssh_doc.SOCKET)
    assert host.group == ssh_doc.ACCOUNT == service["SupplementaryGroups"]
    assert Path("/run", service["RuntimeDirectory"]) == host.socket.parent
    assert Path("/var/lib", service["StateDirectory"]) in host.data.parents
    assert host.players_account == ssh_doc.ACCOUNT  # the account of the drop-in's Match
    assert host.keys_file == Path(ssh_doc.KEYS)  # the drop-in's AuthorizedKeysFile
    assert client.ssh_key
    analyze = _which("systemd-analyze")
    if analyze:  # else the strict parse above is the check
        text = ssh_doc.the_block(file=ssh_doc.UNIT).text
        path = tmp_path / "solstis-host.service"
        path.write_text(ssh_doc.substitute(text, {ssh_doc.PROGRAM: str(PROGRAM)}))
        out = subprocess.run([analyze, "verify", path], capture_output=True, text=True)
        complaints = [line for line in out.stderr.splitlines() if path.name in line]
        assert (out.returncode, complaints) == (0, []), out.stderr


def test_the_documented_steps_add_keys_only_after_sshd_is_checked_and_reloaded():
    lines = ssh_doc.shell_lines()

    def first(text: str) -> int:
        hits = [i for i, line in enumerate(lines) if text in line]
        assert hits, f"no step runs {text!r}"
        return hits[0]

    account, wheel = first("useradd"), first("pip install /tmp/solstis-wheel/")
    check, show, reload = first("sshd -t"), first("sshd -T -C"), first("systemctl reload ssh")
    keys = first(ssh_doc.KEYS)
    assert account < wheel < check < show < reload < keys
    assert not any("authorized_keys" in line for line in lines[:reload]), \
        "a key is written before sshd runs the new configuration"
    assert not any(re.search(r"useradd.*(\s-p\s|--password)", line) for line in lines)


def test_the_docs_install_the_game_from_this_repository_never_by_name():
    targets = ssh_doc.pip_install_targets()
    assert targets, "docs/ssh.md installs nothing"
    for name in targets:  # a path to a wheel built from the checkout, or the checkout
        assert name.startswith(("/tmp/solstis-wheel/", ".")), f"pip install {name}: by name"
    assert not re.search(r"pip3?\s+install\s+['\"]?solstis", ssh_doc.read())
    assert any("pip wheel --no-deps --wheel-dir /tmp/solstis-wheel ." in line
               for line in ssh_doc.shell_lines())
    for block in (b for b in ssh_doc.blocks() if b.lang == "sh"):
        syntax = subprocess.run(["bash", "-n"], input=block.text, capture_output=True, text=True)
        assert syntax.returncode == 0, syntax.stderr


def test_the_weakened_control_drops_only_guard_lines():
    text = ssh_doc.the_block(file=ssh_doc.DROPIN).text
    gone = set(ssh_doc.directive_lines(text)) - set(ssh_doc.directive_lines(weakened(text)))
    assert {line.split()[0] for line in gone} == set(GUARDS)


@needs_openssh
def test_sshd_accepts_the_drop_in_and_gives_the_documented_settings(doc_sshd):
    line = next(x for x in ssh_doc.shell_lines() if x.startswith("sudo sshd -T -C"))
    spec = shlex.split(line.split("|")[0])[4]
    assert spec.startswith(f"user={ssh_doc.ACCOUNT},")
    spec = spec.replace(f"user={ssh_doc.ACCOUNT},", f"user={USER},", 1)
    out = subprocess.run([_which("sshd"), "-T", "-f", doc_sshd.dir / "sshd_config", "-C", spec],
                         capture_output=True, text=True, check=True)
    back = {new: old for old, new in dropin_swaps(doc_sshd.dir).items()}
    pattern = ssh_doc.grep_pattern("sudo sshd -T -C")
    shown = set()
    for setting in out.stdout.splitlines():
        if pattern.search(setting):
            for new, old in back.items():
                setting = setting.replace(new, old)
            shown.add(setting)
    expected = set(ssh_doc.the_block(output="sshd-T").text.splitlines())
    assert shown == expected


# ---- several machines: a front end's drop-in, the host's TLS listener ---------------------

def forced_command(dropin: str) -> list[str]:
    return shlex.split(next(line.split(None, 1)[1] for line in ssh_doc.directive_lines(
        ssh_doc.the_block(file=dropin).text) if line.startswith("ForceCommand ")))


def test_a_front_end_is_locked_down_as_the_single_machine_is():
    one, front = (set(ssh_doc.directive_lines(ssh_doc.the_block(file=f).text))
                  for f in (ssh_doc.DROPIN, ssh_doc.FRONTEND_DROPIN))
    assert {line.split()[0] for line in one ^ front} == {"ForceCommand"}


def test_the_front_ends_forced_command_reaches_the_listener_the_host_drop_in_adds():
    forced = forced_command(ssh_doc.FRONTEND_DROPIN)
    assert forced[:2] == [ssh_doc.PROGRAM, "online"]
    client = online_parser().parse_args(forced[2:])
    text = ssh_doc.the_block(file=ssh_doc.HOST_TLS).text
    lines = [line for line in text.splitlines() if line.startswith("ExecStart=")]
    assert lines[0] == "ExecStart=", "the drop-in must clear the unit's ExecStart first"
    argv = shlex.split(lines[-1].split("=", 1)[1])
    unit_argv = shlex.split(unit()["Service"]["ExecStart"])
    assert argv[:len(unit_argv)] == unit_argv  # the unit's command, and TLS after it
    host = host_parser().parse_args(argv[2:])
    assert client.host[1] == host.listen_tls[1] and client.ssh_key
    assert client.host_ca == host.frontend_ca  # the CA that signs the host and front ends
    assert client.frontend_cert.parent == client.frontend_key.parent == host.cert.parent


@needs_openssh
def test_sshd_accepts_the_front_ends_drop_in_and_gives_the_documented_settings(tmp_path):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                    tmp_path / "host_key"], check=True)
    (tmp_path / "sshd_config.d").mkdir()
    text = ssh_doc.substitute(ssh_doc.the_block(file=ssh_doc.FRONTEND_DROPIN).text,
                              {f"Match User {ssh_doc.ACCOUNT}": f"Match User {USER}"})
    (tmp_path / "sshd_config.d" / "solstis-frontend.conf").write_text(text)
    (tmp_path / "sshd_config").write_text(MAIN_CONFIG.format(
        port=free_port(), dir=tmp_path, sftp_server=SFTP_SERVER))
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(exist_ok=True)
    config = tmp_path / "sshd_config"
    checked = subprocess.run([_which("sshd"), "-t", "-f", config], capture_output=True,
                             text=True)
    assert (checked.returncode, checked.stdout + checked.stderr) == (0, ""), checked.stderr
    out = subprocess.run([_which("sshd"), "-T", "-f", config, "-C",
                          f"user={USER},host=localhost,addr=127.0.0.1"],
                         capture_output=True, text=True, check=True)
    pattern = ssh_doc.grep_pattern("sudo sshd -T -C")
    shown = {line for line in out.stdout.splitlines() if pattern.search(line)}
    forced = " ".join(forced_command(ssh_doc.FRONTEND_DROPIN))
    expected = {line if not line.startswith("forcecommand ") else f"forcecommand {forced}"
                for line in ssh_doc.the_block(output="sshd-T").text.splitlines()}
    assert shown == expected


# ---- what it promises, over real ssh -----------------------------------------------------

@needs_openssh
@pytest.mark.whole_game
def test_two_players_play_a_whole_game_over_ssh_tt(doc_sshd):
    tmux = Tmux("solstis-game")
    env = {"TERM": "xterm-256color"}
    data = doc_sshd.dir / "data"
    try:
        tmux.new("ann", doc_sshd.ssh("-tt"), env)
        tmux.new("bob", doc_sshd.ssh("-tt"), env)
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
        tmux.play_to_the_end(("ann", "bob"))
        for who in ("ann", "bob"):  # the end screen: the result, the sheet and its buttons
            screen = tmux.wait_for(who, "Rematch (m)")
            assert "Game over." in screen and "★" in screen, screen
            assert " stars to " in screen or "A shared win" in screen, screen
        assert list((data / "tables").glob("t*.json")), "the host saved no table"
    finally:
        tmux.kill()


@needs_openssh
def test_a_plain_command_gets_the_game_which_refuses_it(doc_sshd):
    out = doc_sshd.run(command="id; echo SHELL-RAN")
    assert "uid=" not in out.stdout + out.stderr and "SHELL-RAN" not in out.stdout
    assert "opens the lobby, or with the command 'waiting'" in out.stderr
    assert out.returncode != 0


@needs_openssh
def test_the_login_answers_waiting_and_says_when_it_knows_no_player_yet(doc_sshd):
    """The word ``waiting`` reaches the host through the forced command (the count itself:
    test_correspondence); this key has never played, so the host has nothing to say."""
    out = doc_sshd.run(command="waiting")
    assert out.returncode == 2 and out.stdout == "", out.stdout
    assert "knows no player of yours yet" in out.stderr and "open the lobby once" in out.stderr


@needs_openssh
@pytest.mark.parametrize("flag", ["-L", "-R", "-D", "-W"])
def test_port_forwarding_is_refused(doc_sshd, target, flag):
    assert not forwarded(doc_sshd, flag, target)


@needs_openssh
@pytest.mark.parametrize("tool", ["sftp", "scp", "scp -O"])
def test_file_transfer_is_refused(doc_sshd, tool):
    assert not transferred(doc_sshd, tool)


@needs_openssh
def test_the_game_gets_no_agent_no_display_and_no_client_variables(doc_sshd):
    env = login_environment(doc_sshd, app=True)
    assert env.get("TERM") == "xterm-256color"  # the process read is the login's game
    leaked = {name: env[name] for name in ("SSH_AUTH_SOCK", "DISPLAY", "SOLSTIS_X",
                                           "LC_SOLSTIS") if name in env}
    assert leaked == {}, "these reached the game"


@needs_openssh
def test_without_the_guard_lines_every_probe_gets_through(open_sshd, target):
    """The control: the probes above are not refused by anything but the drop-in."""
    got_through = {flag: forwarded(open_sshd, flag, target) for flag in ("-L", "-R", "-D", "-W")}
    got_through |= {tool: transferred(open_sshd, tool) for tool in ("sftp", "scp", "scp -O")}
    got_through["command"] = "uid=" in open_sshd.run(command="id").stdout
    env = login_environment(open_sshd, app=False)
    got_through |= {name: name in env for name in ("SSH_AUTH_SOCK", "DISPLAY", "SOLSTIS_X",
                                                   "LC_SOLSTIS")}
    assert all(got_through.values()), f"refused without the drop-in's guards: {got_through}"


def add_player(deployment: Deployment, key: str, name: str) -> None:
    """A key of ``name``'s, added with the doc's own `solstis host players add` line."""
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                    deployment.dir / key], check=True)
    line = next(x for x in ssh_doc.shell_lines() if " host players " in x and " add " in x)
    argv = shlex.split(line)
    assert argv[:2] == ["sudo", ssh_doc.PROGRAM], line
    argv = [str(PROGRAM), *argv[2:]]
    argv[argv.index(ssh_doc.KEYS)] = str(deployment.dir / "authorized_keys")
    argv[argv.index("--data") + 1] = str(deployment.dir / "data")
    argv[-2:] = [name, str(deployment.dir / f"{key}.pub")]
    subprocess.run(argv, check=True, capture_output=True)


@needs_openssh
@pytest.mark.skipif(_which("openssl") is None, reason="needs openssl (apt install openssl)")
def test_a_front_end_passes_the_key_sshd_checked_to_the_host_over_tls(tmp_path):
    """The several-machines layout on one machine: the doc's certificates (for localhost),
    the host run with the TLS drop-in's ExecStart, sshd with the front end's drop-in."""
    pki = tmp_path / "pki"
    pki.mkdir()
    script = ssh_doc.substitute(ssh_doc.the_block(run="certificates").text,
                                {"game.example.org": "localhost"})
    subprocess.run(["bash", "-e", "-c", script], cwd=pki, check=True, capture_output=True)
    port = free_port()
    exec_start = [line for line in ssh_doc.the_block(file=ssh_doc.HOST_TLS).text.splitlines()
                  if line.startswith("ExecStart=")][-1].split("=", 1)[1]
    tls = {"--listen-tls": f"127.0.0.1:{port}", "--cert": str(pki / "host.pem"),
           "--key": str(pki / "host.key"), "--frontend-ca": str(pki / "ca.pem")}
    dropin = ssh_doc.substitute(ssh_doc.the_block(file=ssh_doc.FRONTEND_DROPIN).text, {
        f"Match User {ssh_doc.ACCOUNT}": f"Match User {USER}", ssh_doc.PROGRAM: str(PROGRAM),
        ssh_doc.KEYS: str(tmp_path / "authorized_keys"),
        "tls://game.example.org:7018": f"tls://localhost:{port}", "/etc/solstis/": f"{pki}/"})
    front_end = deploy(tmp_path, dropin, lambda tmp: start_host(tmp, exec_start, tls))
    tmux = Tmux("solstis-front-end")
    try:
        add_player(front_end, "ann_key", "Ann")  # the host's keys file, and sshd's copy
        env = {"TERM": "xterm-256color"}
        tmux.new("ann", front_end.ssh("-tt", key="ann_key"), env)
        tmux.wait_for("ann", "You are Ann.")
        tmux.new("gus", front_end.ssh("-tt"), env)  # the key whose line names nobody
        tmux.wait_for("gus", "Your name")
        tmux.keys("gus", "Gus", "Enter")
        tmux.wait_for("gus", "You are Gus (guest).")
    finally:
        tmux.kill()
        stop(front_end)


@needs_openssh
def test_each_key_is_one_player_and_a_key_without_a_player_is_a_guest(doc_sshd):
    add_player(doc_sshd, "ann_key", "Ann")
    add_player(doc_sshd, "bob_key", "Bob")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                    doc_sshd.dir / "eve_key"], check=True)
    tmux = Tmux("solstis-who")
    env = {"TERM": "xterm-256color"}
    try:
        tmux.new("ann", doc_sshd.ssh("-tt", key="ann_key"), env)
        tmux.new("bob", doc_sshd.ssh("-tt", key="bob_key"), env)
        ann = tmux.wait_for("ann", "You are Ann.")
        tmux.wait_for("bob", "You are Bob.")
        code = re.search(r"resume code is #(\S+):", ann).group(1)
        tmux.new("ann2", doc_sshd.ssh("-tt", key="ann_key"), env)  # the same key again
        assert f"#{code}:" in tmux.wait_for("ann2", "You are Ann.")
        tmux.new("gus", doc_sshd.ssh("-tt"), env)  # the key whose line names nobody
        tmux.wait_for("gus", "Your name")
        tmux.keys("gus", f"#{code}", "Enter")  # Ann's seats from another key: refused
        tmux.wait_for("gus", "cannot move their seats to you")
        tmux.keys("gus", *["BSpace"] * (len(code) + 1))
        tmux.wait_for("gus", "▊  name ")  # the box is empty again
        tmux.keys("gus", "Gus", "Enter")
        tmux.wait_for("gus", "You are Gus (guest).")
    finally:
        tmux.kill()
    refused = subprocess.run([*doc_sshd.ssh(key="eve_key"), "id"], capture_output=True,
                             text=True, timeout=30)  # a key nobody added
    assert refused.returncode == 255 and "Permission denied" in refused.stderr

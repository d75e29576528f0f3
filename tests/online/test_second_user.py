"""A second local Unix user, for real: the kernel (``SO_PEERCRED``), not a stand-in, tells
the host who is at the other end of its socket.

It runs only when asked, with ``SOLSTIS_TEST_UNIX_USER=1`` in the environment (``.ci/run``
sets it), since it changes the machine's accounts. Run so as root, the test makes a
throwaway account, serves the socket the way
``solstis host --group`` does (mode 0660 for the group, in a 0750 folder of the group:
docs/ssh.md), and runs a client as that account with ``runuser``. The host's own account
and the second user are told apart, and the second user is one player whatever name it
types. The account (and its group) is removed afterwards. Elsewhere the test is skipped,
saying why."""

from __future__ import annotations

import asyncio
import json
import os
import pwd
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from solstis_tui.client.client import HostClient
from solstis_tui.host.host import Host
from solstis_tui.host.identity import Trust
from solstis_tui.wire.protocol import VERSION

from .conftest import quick_bot

TOOLS = ("useradd", "userdel", "runuser")
missing = [t for t in TOOLS if shutil.which(t, path="/usr/sbin:/usr/bin:/sbin:/bin") is None]
#: The environment variable that asks for this test (it makes and deletes an account).
ASK = "SOLSTIS_TEST_UNIX_USER"


def not_asked_reason(environ: Mapping[str, str]) -> str:
    """Why the test is skipped when nobody asked for it ('' when asked)."""
    if environ.get(ASK) == "1":
        return ""
    return (f"creates and deletes a real Unix account as root: set {ASK}=1 to run it "
            "(.ci/run does)")


pytestmark = [
    pytest.mark.skipif(bool(not_asked_reason(os.environ)),
                       reason=not_asked_reason(os.environ) or "asked"),
    pytest.mark.skipif(os.geteuid() != 0, reason="making a second Unix user needs root "
                       "(run the suite as root, e.g. in a container, to check the kernel's "
                       "answer for real)"),
    pytest.mark.skipif(bool(missing), reason=f"needs {', '.join(missing)} (the passwd and "
                       "util-linux packages)"),
    pytest.mark.skipif(not hasattr(__import__("socket"), "SO_PEERCRED"),
                       reason="the kernel names a socket's peer only on Linux (SO_PEERCRED)"),
]

#: What the second user runs: a client of the wire protocol (docs/protocol.md) in the
#: standard library only, since the account may not reach this checkout's packages; it
#: says one hello on the socket and prints the host's answer.
CLIENT = """
import json, socket, sys
sock = socket.socket(socket.AF_UNIX)
sock.connect(sys.argv[1])
hello = {"type": "hello", "version": int(sys.argv[3]), "name": sys.argv[2]}
sock.sendall(json.dumps(hello).encode() + b"\\n")
lines = sock.makefile("rb")
while True:
    answer = json.loads(lines.readline())
    if answer["type"] in ("welcome", "error"):
        print(json.dumps(answer))
        break
"""


def tool(name: str) -> str:
    found = shutil.which(name, path="/usr/sbin:/usr/bin:/sbin:/bin")
    assert found is not None
    return found


@pytest.fixture
def second_user() -> Iterator[pwd.struct_passwd]:
    """A throwaway account with a group of its own and no home; removed afterwards."""
    login = f"solstis-t{secrets.token_hex(4)}"
    subprocess.run([tool("useradd"), "--user-group", "--no-create-home", "--shell",
                    "/usr/sbin/nologin", login], check=True, capture_output=True)
    try:
        yield pwd.getpwnam(login)
    finally:
        subprocess.run([tool("userdel"), login], check=False, capture_output=True)
        subprocess.run(["groupdel", login], check=False, capture_output=True)
    with pytest.raises(KeyError):  # gone
        pwd.getpwnam(login)


@pytest.fixture
def socket_folder() -> Iterator[Path]:
    """A folder outside pytest's own (which only root may enter) that anyone may pass
    through but not list; the host makes the socket's folder inside it."""
    top = Path(tempfile.mkdtemp(prefix="solstis-second-user-", dir="/tmp"))
    top.chmod(0o711)
    try:
        yield top
    finally:
        shutil.rmtree(top, ignore_errors=True)


def python_for(user: pwd.struct_passwd) -> str:
    """A Python the account may run (this one may live in root's home); skip if none."""
    for candidate in (sys.executable, "/usr/bin/python3", "/usr/local/bin/python3"):
        ran = subprocess.run([tool("runuser"), "-u", user.pw_name, "--", candidate, "-c",
                              "pass"], capture_output=True, env={"PATH": "/usr/bin:/bin"})
        if ran.returncode == 0:
            return candidate
    pytest.skip(f"no Python that the account {user.pw_name} may run (tried "
                f"{sys.executable}, /usr/bin/python3, /usr/local/bin/python3)")


async def run_as(user: pwd.struct_passwd, sock: Path, name: str) -> tuple[int, str, str]:
    """The client run as ``user`` saying hello as ``name``: exit status, output, errors."""
    proc = await asyncio.create_subprocess_exec(
        tool("runuser"), "-u", user.pw_name, "--", python_for(user), "-c", CLIENT, str(sock),
        name, str(VERSION), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={"PATH": "/usr/bin:/bin", "HOME": "/"})
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def hello_as(user: pwd.struct_passwd, sock: Path, name: str) -> dict:
    """The host's answer to a hello from a client run as ``user``."""
    status, out, err = await run_as(user, sock, name)
    assert status == 0, err
    answer: dict = json.loads(out.strip().splitlines()[-1])
    return answer


async def test_the_host_tells_a_second_local_user_from_its_own_account(
        tmp_path, second_user, socket_folder):
    sock = socket_folder / "run" / "host.sock"
    host = Host(tmp_path / "data", trust=Trust(), bot_factory=quick_bot)
    host.load()
    await host.serve_unix(sock, mode=0o660, group=second_user.pw_gid)  # as --group does
    try:
        folder, made = sock.parent.stat(), sock.stat()
        assert (folder.st_mode & 0o777, folder.st_gid) == (0o750, second_user.pw_gid)
        assert (made.st_mode & 0o777, made.st_gid) == (0o660, second_user.pw_gid)
        mine = await HostClient.connect(sock)  # the host's own account (root)
        ann = await mine.hello("Ann")
        theirs = await hello_as(second_user, sock, "Zed")
        assert theirs["type"] == "welcome", theirs
        assert host.players.identity_of(ann["code"]) is None  # the host's own: local
        assert host.players.identity_of(theirs["code"]) == f"user:{second_user.pw_name}"
        again = await hello_as(second_user, sock, "Yan")  # another name, the same player
        assert (again["type"], again["name"], again["code"]) == ("welcome", "Zed",
                                                                theirs["code"])
        await mine.close()
    finally:
        await host.close()


async def test_without_the_group_the_second_user_cannot_reach_the_socket(
        tmp_path, second_user, socket_folder):
    sock = socket_folder / "run" / "host.sock"
    host = Host(tmp_path / "data", trust=Trust(), bot_factory=quick_bot)
    host.load()
    await host.serve_unix(sock)  # no --group: 0600 in a 0700 folder, the host's alone
    try:
        status, _out, err = await run_as(second_user, sock, "Zed")
        assert status != 0 and "Permission denied" in err
        assert len(host.players) == 0
    finally:
        await host.close()

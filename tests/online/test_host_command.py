"""``solstis host`` as its operator meets it: a flag it cannot use stops it before anything is
made, with the reason; started, it says where it listens, keeps its TCP token private, and
on SIGTERM stops saying every table is saved."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import stat

import pytest

from solstis_tui.client.client import HostClient
from solstis_tui.host import serve
from solstis_tui.wire.paths import TOKEN_FILE

from .ssh_probes import free_port


@pytest.mark.parametrize(("flags", "says"), [
    (["--bot-workers", "0"], "give a whole number of at least 1"),
    (["--bot-workers", "two"], "give a whole number of at least 1"),
    (["--max-connections", "0"], "give a number of at least 1"),
    (["--idle-minutes", "1"], "give a number of at least 2"),
    (["--idle-minutes", "soon"], "give a number of at least 2"),
    (["--open-table-minutes", "0.5"], "give a number of at least 1"),
    (["--tcp", "7017"], "write HOST:PORT"),
    (["--tcp", "0.0.0.0:7017"], "the host listens on loopback only"),
    (["--bot-cluster-tls", "certs"], "--bot-cluster-tls needs --bot-cluster"),
    (["--metrics-port", "70000"], "--metrics-port: give a port from 1 to 65535"),
    (["--group", "no-such-group-here"], "no such group: no-such-group-here"),
    (["--players-account", "no-such-user-here"], "no such user: no-such-user-here"),
    (["--bot-cluster", "tls://10.0.0.5:8786", "--bot-cluster-tls", "nowhere"],
     "cannot read nowhere/ca.pem"),
])
def test_a_flag_the_host_cannot_use_stops_it_with_the_reason_and_makes_nothing(
        tmp_path, capsys, flags, says):
    data = tmp_path / "data"
    with pytest.raises(SystemExit) as stop:
        serve.main(["--data", str(data), "--socket", str(tmp_path / "h.sock"), *flags])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert says in err and "Traceback" not in err
    assert not data.exists() and not (tmp_path / "h.sock").exists()


@pytest.mark.parametrize(("command", "usage"), [
    ("players", "solstis host players"),
    ("status", "solstis host status"),
])
def test_host_players_and_host_status_are_commands_of_their_own(capsys, command, usage):
    with pytest.raises(SystemExit) as stop:
        serve.main([command, "--help"])
    assert stop.value.code == 0
    assert usage in capsys.readouterr().out


def test_a_missing_or_too_short_tcp_token_is_made_anew_and_only_its_owner_reads_it(tmp_path):
    token, path = serve.ensure_token(tmp_path)
    assert path == tmp_path / TOKEN_FILE and len(token) >= 22
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert serve.ensure_token(tmp_path) == (token, path)  # kept while it is good

    os.chmod(path, 0o644)
    assert serve.ensure_token(tmp_path) == (token, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # made private again

    path.write_text("short\n", encoding="utf-8")  # a guessable token is never used
    fresh, _ = serve.ensure_token(tmp_path)
    assert fresh != "short" and len(fresh) >= 22
    assert path.read_text(encoding="utf-8") == fresh + "\n"


async def run_host(flags: list[str]) -> tuple[asyncio.Task[int], asyncio.Event]:
    """``solstis host`` with ``flags``, in this process; ready once it listens."""
    ready = asyncio.Event()
    task = asyncio.get_running_loop().create_task(
        serve.run(serve.build_parser().parse_args(flags), ready))
    ready_or_done = asyncio.ensure_future(ready.wait())
    await asyncio.wait([task, ready_or_done], return_when=asyncio.FIRST_COMPLETED)
    ready_or_done.cancel()
    return task, ready


async def stopped(task: asyncio.Task[int]) -> int:
    """What a host that is listening (its SIGTERM handler set) returns once sent SIGTERM."""
    os.kill(os.getpid(), signal.SIGTERM)
    return await asyncio.wait_for(task, 60)


async def test_the_host_serves_tcp_with_a_private_token_and_stops_on_sigterm_saving_all(
        tmp_path, capsys):
    data = tmp_path / "data"
    metrics = free_port()
    flags = ["--data", str(data), "--socket", str(tmp_path / "h.sock"), "--bot-workers", "1",
             "--tcp", "127.0.0.1:0", "--metrics-port", str(metrics), "--max-connections", "50",
             "--idle-minutes", "5"]
    task, ready = await run_host(flags)
    assert ready.is_set(), capsys.readouterr().err
    said = capsys.readouterr().out
    token_file = data / TOKEN_FILE
    assert f"TCP clients must send the token in {token_file}" in said
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    listening = next(line for line in said.splitlines() if "listening on" in line)
    assert str(tmp_path / "h.sock") in listening
    assert f"metrics on http://127.0.0.1:{metrics}/metrics" in listening
    assert "(at most 50 connections)" in listening
    port = int(listening.split("127.0.0.1:")[1].split()[0].rstrip(","))

    ann = await HostClient.connect(tcp=("127.0.0.1", port),
                                   token=token_file.read_text(encoding="utf-8").strip())
    try:
        assert (await ann.hello("Ann"))["name"] == "Ann"
    finally:
        ann.writer.close()

    assert await stopped(task) == 0
    assert "solstis host: stopped; every table is saved" in capsys.readouterr().out
    with socket.socket() as probe:  # the metrics port is given back
        probe.bind(("127.0.0.1", metrics))


async def test_a_metrics_port_in_use_stops_the_host_saying_so_and_frees_its_socket(
        tmp_path, capsys):
    flags = ["--data", str(tmp_path / "data"), "--socket", str(tmp_path / "h.sock"),
             "--bot-workers", "1"]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        task, ready = await run_host([*flags, "--metrics-port", str(port)])
        assert await asyncio.wait_for(task, 60) == 1
    assert not ready.is_set()
    assert f"not started: the metrics port 127.0.0.1:{port}" in capsys.readouterr().err
    again, ready = await run_host(flags)  # the operator drops the flag and starts it again
    assert ready.is_set(), capsys.readouterr().err
    assert await stopped(again) == 0


async def test_a_file_where_the_socket_goes_is_left_alone_and_the_host_says_why(
        tmp_path, capsys):
    sock = tmp_path / "h.sock"
    sock.write_text("someone's notes", encoding="utf-8")
    task, _ready = await run_host(["--data", str(tmp_path / "data"), "--socket", str(sock),
                                  "--bot-workers", "1"])
    assert await asyncio.wait_for(task, 60) == 1
    err = capsys.readouterr().err
    assert f"not started: {sock} exists and is not a socket" in err
    assert sock.read_text(encoding="utf-8") == "someone's notes"


async def test_a_group_that_cannot_reach_the_socket_folder_is_warned_about(tmp_path, capsys):
    import grp

    group = grp.getgrgid(os.getgid()).gr_name
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    sock = closed / "run" / "h.sock"
    task, ready = await run_host(["--data", str(tmp_path / "data"), "--socket", str(sock),
                                  "--bot-workers", "1", "--group", group])
    assert ready.is_set(), capsys.readouterr().err
    try:
        said = capsys.readouterr().out
        assert f"warning: members of group {group} cannot enter {closed}," in said
        assert stat.S_IMODE(sock.stat().st_mode) == 0o660
        assert stat.S_IMODE(sock.parent.stat().st_mode) == 0o750  # the folder it made
    finally:
        assert await stopped(task) == 0

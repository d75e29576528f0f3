"""Storage faults, a second host, and the host's doors.

A change is acknowledged only once it is on disk; a host that cannot write, or that would
share its data folder or socket with another host, does not start; the socket's folder,
the TCP port and the browser WebSocket let in only who they should.
"""

from __future__ import annotations

import asyncio
import errno
import grp
import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from solstis_tui.client.client import HostClient, HostError, read_token
from solstis_tui.host.host import Host
from solstis_tui.host.hostlock import StartRefused
from solstis_tui.wire.protocol import VERSION

from .conftest import quick_bot
from .states import after, seated, state_where, your_turn
from .test_host import start_friend_game
from .test_players import locked

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


def disk_full(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


async def nothing_more(client: HostClient) -> list[dict]:
    """Everything the host still had queued for ``client`` (a ping marks the end)."""
    await client.send({"type": "ping"})
    seen = []
    while (message := await asyncio.wait_for(client.receive(), 10))["type"] != "pong":
        seen.append(message)
    return seen


def table_file(host: Host, table: str) -> str:
    return host.store.path(table).read_text()


async def first_legal(client: HostClient, table: str) -> tuple[str, int]:
    """A move ``client`` may make once it is their decision, and the history's length."""
    obs = (await your_turn(client, table))["observation"]
    return obs["legal_moves"][0], len(obs["history"])


# ---------------------------------------------------------------------- refused changes
async def test_a_move_the_disk_refuses_changes_nothing(host, connect, monkeypatch):
    ann, bob, table = await start_friend_game(connect)
    await state_where(bob, table, seated)
    move, seq = await first_legal(ann, table)
    before_memory = host.tables[table].to_dict()  # the game, its seats and its times
    before_disk = table_file(host, table)

    real_write = host.store.write
    monkeypatch.setattr(host.store, "write", disk_full)
    await ann.send({"type": "move", "table": table, "move": move, "seq": seq, "id": 7})
    error = await ann.receive_until("error")
    assert error["code"] == "storage" and error["id"] == 7
    assert "could not save that move" in error["message"] and "nothing changed" in error["message"]
    assert host.tables[table].to_dict() == before_memory
    assert table_file(host, table) == before_disk
    assert not [m for m in await nothing_more(bob) if m["type"] == "state"]

    monkeypatch.setattr(host.store, "write", real_write)  # room again: the same move is fine
    await ann.send({"type": "move", "table": table, "move": move, "seq": seq})
    await state_where(bob, table, after(seq))
    assert json.loads(table_file(host, table))["game"] == json.loads(
        host.tables[table].game.to_json())


async def test_a_tables_folder_that_vanished_refuses_moves(host, connect):
    """A real fault, not a simulated one (root is not stopped by chmod): the tables folder
    is replaced by a file, so every save fails in the operating system."""
    ann, bob, table = await start_friend_game(connect)
    await state_where(bob, table, seated)
    move, seq = await first_legal(ann, table)
    before = host.tables[table].game.to_json()
    folder = host.store.directory
    folder.rename(folder.with_name("tables.away"))
    folder.write_text("not a folder")
    try:
        await ann.send({"type": "move", "table": table, "move": move, "seq": seq})
        assert (await ann.receive_until("error"))["code"] == "storage"
        assert host.tables[table].game.to_json() == before
        assert not [m for m in await nothing_more(bob) if m["type"] == "state"]
    finally:
        folder.unlink()
        folder.with_name("tables.away").rename(folder)
    await ann.send({"type": "move", "table": table, "move": move, "seq": seq})
    await state_where(bob, table, after(seq))  # the move, as Bob is told it


async def test_a_new_table_the_disk_refuses_is_never_listed(host, connect, monkeypatch):
    ann = await connect("Ann")
    monkeypatch.setattr(host.store, "write", disk_full)
    await ann.send({"type": "create", "variant": "base", "opponent": "friend", "seat": 0})
    error = await ann.receive_until("error")
    assert error["code"] == "storage" and "nothing changed" in error["message"]
    assert host.tables == {}
    assert list(host.store.directory.glob("t*.json")) == []
    await ann.send({"type": "list"})
    assert (await ann.receive_until("tables"))["tables"] == []


async def test_a_seat_the_disk_refuses_stays_open(host, connect, monkeypatch):
    ann = await connect("Ann")
    await ann.send({"type": "create", "variant": "base", "opponent": "friend", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    await state_where(ann, table, lambda s: True)  # her new table, one seat taken
    bob = await connect("Bob")
    real_write = host.store.write
    monkeypatch.setattr(host.store, "write", disk_full)
    await bob.send({"type": "join", "table": table})
    assert (await bob.receive_until("error"))["code"] == "storage"
    assert host.tables[table].seats[1].is_open
    assert json.loads(table_file(host, table))["seats"][1]["code"] is None
    assert not [m for m in await nothing_more(ann) if m["type"] == "state"]
    monkeypatch.setattr(host.store, "write", real_write)
    await bob.send({"type": "join", "table": table})
    assert (await bob.receive_until("joined"))["seat"] == 1


async def test_a_bot_move_the_disk_refuses_is_tried_again(host, connect, monkeypatch):
    host.bot_seats.storage_retry = 0.05
    ann = await connect("Ann")
    await ann.send({"type": "create", "variant": "beginner", "opponent": "greedy", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    move, seq = await first_legal(ann, table)
    write, failed = host.store.write, []

    def refuse_the_bot_three_times(table_id: str, text: str) -> None:
        if host.tables[table_id].game.to_play == 1 and len(failed) < 3:  # the bot's turn
            failed.append(text)
            disk_full()
        write(table_id, text)

    monkeypatch.setattr(host.store, "write", refuse_the_bot_three_times)
    await ann.send({"type": "move", "table": table, "move": move, "seq": seq})
    while True:  # Ann's moves are stored at once, the bot's after three refusals
        obs = (await state_where(ann, table, after(seq)))["observation"]
        bot_moved = any(player == 1 for player, _, _ in obs["history"])
        if bot_moved and (obs["to_play"] == 0 or obs["is_over"]):  # the bot's turn is over
            break
        if obs["legal_moves"]:  # Ann's turn goes on
            seq = len(obs["history"])
            await ann.send({"type": "move", "table": table, "move": obs["legal_moves"][0],
                            "seq": seq})
    assert len(failed) == 3
    assert sum("a bot's move" in e for e in host.storage_errors) == 3
    assert json.loads(table_file(host, table))["game"] == json.loads(
        host.tables[table].game.to_json())


# ---------------------------------------------------------------------- refusing to start
def solstis(*args: str, env: dict | None = None, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "solstis_tui.cli", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})}, **kw)


def wait_listening(proc: subprocess.Popen) -> str:
    """What the host printed up to and including its "listening" line."""
    said = [proc.stdout.readline()]
    while said[-1] and "listening" not in said[-1]:
        said.append(proc.stdout.readline())
    assert "listening" in said[-1], proc.stderr.read()
    return "".join(said)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_host_whose_data_folder_cannot_be_written_does_not_start(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("a file where the data folder should be")
    proc = solstis("host", "--data", str(blocker / "data"), "--socket",
                   str(tmp_path / "run" / "h.sock"))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode != 0
    assert "listening" not in out and "not started" in err and str(blocker) in err
    assert not (tmp_path / "run" / "h.sock").exists()


def test_a_full_disk_at_start_refuses_the_host(tmp_path, monkeypatch):
    """The probe writes a real file (a permission check would not stop root)."""
    with monkeypatch.context() as patch, pytest.raises(StartRefused, match="not writable"):
        patch.setattr(os, "fsync", disk_full)
        Host(tmp_path / "data").load()
    again = Host(tmp_path / "data")
    again.load()  # and the refusal left nothing locked behind
    for lock in again.locks:
        lock.release()


async def test_two_hosts_never_share_a_data_folder(tmp_path):
    first = Host(tmp_path / "data", bot_factory=quick_bot)
    first.load()
    second = Host(tmp_path / "data", bot_factory=quick_bot)
    with pytest.raises(StartRefused, match="another host is already using the data folder"):
        second.load()
    await first.close()
    second.load()  # the lock went with the first host
    await second.close()


async def test_two_hosts_never_share_a_socket(tmp_path):
    sock = tmp_path / "run" / "host.sock"
    first = Host(tmp_path / "one", bot_factory=quick_bot)
    await first.serve_unix(sock)
    second = Host(tmp_path / "two", bot_factory=quick_bot)
    with pytest.raises(StartRefused, match="already using the socket"):
        await second.serve_unix(sock)
    await second.close()
    client = await HostClient.connect(sock)  # the first host still owns its socket
    assert (await client.hello("Ann"))["name"] == "Ann"
    await client.close()
    await first.close()


async def test_a_live_listener_on_the_socket_is_not_taken_over(tmp_path):
    sock = tmp_path / "host.sock"
    other = await asyncio.start_unix_server(lambda r, w: w.close(), path=str(sock))
    host = Host(tmp_path / "data", bot_factory=quick_bot)
    with pytest.raises(StartRefused, match="already listening"):
        await host.serve_unix(sock)
    await host.close()
    assert stat.S_ISSOCK(sock.lstat().st_mode)
    await asyncio.open_unix_connection(str(sock))  # still the other program's
    other.close()


def test_a_second_host_process_refuses_and_the_first_plays_on(tmp_path):
    sock, data = tmp_path / "run" / "host.sock", tmp_path / "data"
    first = solstis("host", "--socket", str(sock), "--data", str(data), "--bot-workers", "1")
    try:
        wait_listening(first)
        for args in (["--socket", str(tmp_path / "other.sock"), "--data", str(data)],
                     ["--socket", str(sock), "--data", str(tmp_path / "data2")]):
            second = solstis("host", *args, "--bot-workers", "1")
            try:
                out, err = second.communicate(timeout=60)
            finally:
                stop(second)
            assert second.returncode != 0 and "listening" not in out
            assert "another host is already using" in err, err

        async def hello(name: str) -> str:
            client = await HostClient.connect(sock)
            name = (await client.hello(name))["name"]
            await client.close()
            return name

        assert asyncio.run(hello("Ann")) == "Ann"
        first.kill()  # kill -9 leaves a stale socket: the next host starts anyway
        first.wait(timeout=30)
        assert sock.exists()
        again = solstis("host", "--socket", str(sock), "--data", str(data),
                        "--bot-workers", "1")
        try:
            wait_listening(again)
            assert asyncio.run(hello("Bob")) == "Bob"
        finally:
            stop(again)
    finally:
        stop(first)


def test_the_operator_is_told_in_sentences_what_was_kept_aside(tmp_path):
    data, sock = tmp_path / "data", tmp_path / "run" / "h.sock"
    (data / "tables").mkdir(parents=True)
    (data / "players.json").write_text('{"0a1b2c3d": "Ann", ')
    (data / "tables" / "tabc123.json").write_text("not a table")
    args = ("host", "--socket", str(sock), "--data", str(data), "--bot-workers", "1")
    proc = solstis(*args)
    try:
        said = wait_listening(proc).splitlines()
    finally:
        stop(proc)
    told = [line for line in said if "could not be read" in line]
    assert len(told) == 2, said
    for line, path in zip(sorted(told), [data / "players.json", data / "tables" / "tabc123.json"],
                          strict=True):
        assert line.startswith(f"solstis host: {path} could not be read (") and line.endswith(".")
    kept = sorted(p.name for p in data.rglob("*.corrupt-*"))
    assert [name.split(".corrupt-")[0] for name in kept] == ["players", "tabc123"]
    assert all(name in "\n".join(told) for name in kept)
    again = solstis(*args)  # what was kept aside is not read (nor renamed) again
    try:
        said = wait_listening(again)
    finally:
        stop(again)
    assert "could not be read" not in said
    assert sorted(p.name for p in data.rglob("*.corrupt-*")) == kept


def test_a_write_the_disk_refuses_is_logged_on_stderr(tmp_path):
    data, sock = tmp_path / "data", tmp_path / "run" / "h.sock"
    proc = solstis("host", "--socket", str(sock), "--data", str(data), "--bot-workers", "1")
    try:
        wait_listening(proc)

        async def hello(name: str) -> None:
            client = await HostClient.connect(sock)
            try:
                await client.hello(name)
            finally:
                await client.close()

        with locked(data / "players.db"), pytest.raises(HostError,
                                                        match="could not save your name"):
            asyncio.run(hello("Ann"))  # the host waits for the lock, then gives up
    finally:
        stop(proc)
    err = proc.stderr.read()
    assert f"solstis host: {data / 'players.db'} could not be written (" in err, err


# ---------------------------------------------------------------------- who may connect
def test_group_members_can_enter_the_socket_folder(tmp_path):
    group = grp.getgrgid(os.getgid()).gr_name
    sock = tmp_path / "shared" / "host.sock"
    proc = solstis("host", "--socket", str(sock), "--data", str(tmp_path / "data"),
                   "--group", group, "--bot-workers", "1")
    try:
        line = wait_listening(proc)
        folder = sock.parent.stat()
        assert stat.S_IMODE(folder.st_mode) == 0o750 and folder.st_gid == os.getgid()
        info = sock.stat()
        assert stat.S_IMODE(info.st_mode) == 0o660 and info.st_gid == os.getgid()
        assert "listening" in line
    finally:
        stop(proc)
    # pytest makes its temporary folders 0700: the operator is told the group cannot get in
    assert f"members of group {group} cannot enter" in line


async def test_tcp_needs_the_token(tmp_path):
    host = Host(tmp_path / "data", bot_factory=quick_bot)
    await host.serve_unix(tmp_path / "host.sock")
    port = await host.serve_tcp("127.0.0.1", 0, token="s3cret-token-of-enough-length")
    try:
        for token in (None, "wrong"):
            client = await HostClient.connect(tcp=("127.0.0.1", port),
                                              token=token or "")
            client.token = token
            await client.send({"type": "hello", "version": VERSION, "name": "Eve",
                               **({"token": token} if token else {})})
            error = await client.receive_until("error")
            assert error["code"] == "bad_token" and "token" in error["message"]
            await client.close()
        assert "Eve" not in host.players.values()
        good = await HostClient.connect(tcp=("127.0.0.1", port),
                                        token="s3cret-token-of-enough-length")
        assert (await good.hello("Ann"))["name"] == "Ann"
        await good.close()
        local = await HostClient.connect(tmp_path / "host.sock")  # the socket needs none
        assert (await local.hello("Bob"))["name"] == "Bob"
        await local.close()
    finally:
        await host.close()


def test_solstis_host_tcp_makes_a_private_token_the_client_reads(tmp_path):
    data = tmp_path / "data"
    proc = solstis("host", "--socket", str(tmp_path / "h.sock"), "--data", str(data),
                   "--tcp", "127.0.0.1:0", "--bot-workers", "1")
    try:
        line = wait_listening(proc)
        port = int(line.strip().rsplit(":", 1)[1].split()[0])
        token_file = data / "tcp-token"
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert len(read_token(token_file)) >= 32

        async def hello(token: str | None) -> dict:
            client = await HostClient.connect(tcp=("127.0.0.1", port), token=token)
            try:
                return await client.hello("Ann")
            finally:
                await client.close()

        with pytest.raises(HostError, match="token"):
            asyncio.run(hello("not it"))
        assert asyncio.run(hello(read_token(token_file)))["name"] == "Ann"
    finally:
        stop(proc)


def test_help_survives_a_runtime_folder_owned_by_someone_else(tmp_path, monkeypatch, capsys):
    import platformdirs.unix

    from solstis_tui.host import serve

    foreign = tmp_path / f"runtime-{os.geteuid()}"
    if os.geteuid() == 0:
        foreign.mkdir(mode=0o700)
        os.chown(foreign, 65534, 65534)
    else:  # only root can give a folder away; a symlink is refused the same way
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        foreign.symlink_to(tmp_path / "elsewhere")
    for name in ("XDG_RUNTIME_DIR", "SOLSTIS_SOCKET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(platformdirs.unix, "_temp_runtime_fallback", lambda: str(foreign))
    monkeypatch.setattr(platformdirs.unix, "runtime_base_problem",
                        lambda path, **kw: f"{path} is missing")
    with pytest.raises(SystemExit) as exit_:
        serve.main(["--help"])
    assert exit_.value.code == 0
    assert "--socket" in capsys.readouterr().out
    with pytest.raises(HostError, match="SOLSTIS_SOCKET"):
        asyncio.run(HostClient.connect())
    code = serve.main(["--data", str(tmp_path / "data"), "--bot-workers", "1"])
    assert code == 1 and "XDG_RUNTIME_DIR" in capsys.readouterr().err


# ---------------------------------------------------------------------- the browser
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_the_web_game_refuses_a_foreign_page(monkeypatch):
    from aiohttp import ClientSession, WSServerHandshakeError, web
    from aiohttp.test_utils import TestServer
    from textual_serve.server import Server

    from solstis_tui.client.launch import web_server

    async def game(self, request: web.Request) -> web.WebSocketResponse:
        """Stands in for the served game (textual-serve would start a process)."""
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str("the game")
        await ws.close()
        return ws

    monkeypatch.setattr(Server, "handle_websocket", game)
    port = free_port()
    server = TestServer(await web_server("solstis", port)._make_app(), host="127.0.0.1",
                        port=port)
    await server.start_server()
    try:
        async with ClientSession() as session:
            url = f"http://127.0.0.1:{port}/ws"
            for origin in ("https://evil.example", f"http://evil.example:{port}", "null", None):
                headers = {"Origin": origin} if origin else {}
                with pytest.raises(WSServerHandshakeError) as refused:
                    await session.ws_connect(url, headers=headers)
                assert refused.value.status == 403
            for host in ("localhost", "127.0.0.1"):
                ws = await session.ws_connect(url, headers={"Origin": f"http://{host}:{port}"})
                assert (await ws.receive_str()) == "the game"
                await ws.close()
    finally:
        await server.close()

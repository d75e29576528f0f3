"""Every limit of the host, driven by the abuse it stops, with a normal player still
playing afterwards. Limits are set small so that each test is fast."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import resource
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator, Callable

import pytest

from solstis_tui.client.app import OnlineApp
from solstis_tui.client.client import READ_LIMIT, HostClient, HostError
from solstis_tui.client.game_screen import OnlineGameScreen
from solstis_tui.core import Options
from solstis_tui.host.host import Host
from solstis_tui.host.limits import ACCEPT_BURST, FD_HEADROOM, Limits
from solstis_tui.host.tables import Seat, new_table
from solstis_tui.wire.protocol import MAX_NAME, VERSION

from .conftest import quick_bot
from .states import after, seated, state_where
from .test_host import game_at, play_to_end, start_friend_game
from .test_online_app import wait_for

Reader = asyncio.StreamReader
Writer = asyncio.StreamWriter


@contextlib.asynccontextmanager
async def running(tmp_path, **limits) -> AsyncIterator[Host]:
    """A host on a Unix socket with the given limits (the others at their defaults)."""
    host = Host(tmp_path / "data", bot_seconds=0.05, bot_factory=quick_bot,
                limits=Limits(**limits))
    host.load()
    host.socket_path = tmp_path / "run" / "host.sock"
    await host.serve_unix(host.socket_path)
    try:
        yield host
    finally:
        await host.close()
    assert host.internal_errors == [], host.internal_errors


async def raw(host: Host) -> tuple[Reader, Writer]:
    """A bare connection, reading as much as the real client does."""
    return await asyncio.open_unix_connection(str(host.socket_path), limit=READ_LIMIT)


async def raw_socket(host: Host) -> tuple[socket.socket, Reader, Writer]:
    """A bare connection written to with plain ``send`` (no error once the host closes
    it), and a stream to read it (keep its writer: a dropped writer closes)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(str(host.socket_path))
    reader, writer = await asyncio.open_unix_connection(sock=sock.dup(), limit=READ_LIMIT)
    return sock, reader, writer


async def say(writer: Writer, *messages: dict | bytes) -> None:
    for message in messages:
        line = message if isinstance(message, bytes) else json.dumps(message).encode()
        writer.write(line + b"\n")
    await writer.drain()


async def hear(reader: Reader, timeout: float = 5.0) -> dict | None:
    """The next message, or None once the host closed the connection."""
    line = await asyncio.wait_for(reader.readline(), timeout)
    return json.loads(line) if line else None


async def hear_to_the_end(reader: Reader, timeout: float = 5.0) -> list[dict]:
    """Every message until the host closes the connection (fails if it never does)."""
    messages = []
    while (message := await hear(reader, timeout)) is not None:
        messages.append(message)
    return messages


async def until(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    """Poll until ``predicate()`` holds; ``timeout`` is only a guard against a hang."""
    for _ in range(int(timeout / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out waiting")


def hello(name: str) -> dict:
    return {"type": "hello", "version": VERSION, "name": name}


async def named(host: Host, name: str) -> HostClient:
    client = await HostClient.connect(host.socket_path)
    await client.hello(name)
    return client


async def when_there_is_room(host: Host, name: str, timeout: float = 10.0) -> HostClient:
    """``name`` says hello as soon as the host has room for one more."""
    for _ in range(int(timeout / 0.1)):
        client = await HostClient.connect(host.socket_path)
        with contextlib.suppress(HostError, ConnectionError):
            await asyncio.wait_for(client.hello(name), 5)
            return client
        client.writer.close()
        await asyncio.sleep(0.1)
    raise AssertionError(f"the host never had room for {name}")


def fill_lobby(host: Host, count: int, name: str = "𝕏" * MAX_NAME) -> None:
    """``count`` open tables whose creators have the longest names JSON can spell."""
    now, first = time.time(), len(host.tables)
    while len(host.tables) < first + count:
        i = len(host.tables)
        table = new_table(Options.for_variant("base"), [Seat(name, f"code{i}"), Seat()])
        table.created = now + i
        host.tables.setdefault(table.id, table)


async def players_still_play(host: Host) -> None:
    """Two fresh players sit down at a friend table and play a few moves."""
    pat, sam = await named(host, "Pat"), await named(host, "Sam")
    await pat.send({"type": "create", "opponent": "friend", "seat": 0})
    table = (await pat.receive_until("joined"))["table"]
    await sam.send({"type": "join", "table": table})
    await sam.receive_until("joined")
    await play_to_end(host, {0: pat, 1: sam}, table, random.Random(0), stop_after=4)
    assert len(host.tables[table].game.history) >= 4
    for client in (pat, sam):
        client.writer.close()


# ---------------------------------------------------------------------- messages
async def test_huge_numbers_and_deep_nesting_get_bad_message(host):
    reader, writer = await raw(host)
    huge = b"9" * 5000
    await say(writer, b'{"type":"hello","version":' + huge + b',"name":"Ann"}',
              b'{"type":"hello","version":-' + huge + b',"name":"Ann"}',
              b'{"type":"ping","id":' + huge + b"}",
              b'{"type":"ping","x":' + b"[" * 30000 + b"]" * 30000 + b"}")
    for _ in range(4):
        reply = await hear(reader)
        assert reply["code"] == "bad_message" and "internal" not in json.dumps(reply)
    await say(writer, {"type": "hello", "version": float("inf"), "name": "Ann"},
              hello("Ann"), {"type": "create", "opponent": "friend", "seat": 0})
    assert (await hear(reader))["code"] == "bad_message"
    assert (await hear(reader))["type"] == "welcome"
    table = (await hear(reader))["table"]
    await say(writer, b'{"type":"move","table":"' + table.encode() + b'","move":"pass",'
              b'"seq":' + huge + b"}",
              b'{"type":"create","seat":' + huge + b"}", {"type": "ping"})
    replies = [await hear(reader) for _ in range(3)]
    replies = [r for r in replies if r["type"] != "state"] + [await hear(reader)]
    assert [r.get("code") for r in replies[:2]] == ["bad_message", "bad_message"]
    assert "digits" in replies[0]["message"]
    assert replies[-1]["type"] == "pong"
    assert host.internal_errors == []


# ---------------------------------------------------------------------- the lobby
async def test_a_lobby_of_thousands_of_tables_is_paged_and_everyone_says_hello(host):
    ann = await HostClient.connect(host.socket_path)
    await ann.hello("Ann")
    await ann.send({"type": "create", "opponent": "friend", "seat": 0})
    mine = (await ann.receive_until("joined"))["table"]
    fill_lobby(host, 1600)  # newer than Ann's table, names as long as JSON can make them
    reader, writer = await raw(host)
    await say(writer, {"type": "hello", "version": VERSION, "code": ann.code})
    line = await asyncio.wait_for(reader.readline(), 5)
    assert len(line) < READ_LIMIT
    welcome = json.loads(line)
    page = host.limits.page_size
    assert welcome["type"] == "welcome" and len(welcome["tables"]) == page
    assert welcome["total"] == len(host.tables) == 1601 and welcome["offset"] == 0
    assert welcome["tables"][0]["table"] == mine  # one's own tables come first
    newest = max(host.tables.values(), key=lambda t: t.created).id
    assert welcome["tables"][1]["table"] == newest  # then open tables, newest first
    seen = [row["table"] for row in welcome["tables"]]
    while len(seen) < welcome["total"]:
        await say(writer, {"type": "list", "offset": len(seen)})
        reply = {}
        # (after the state of Ann's table, and a page the host pushed as the lobby
        # changed, which is not the answer: the client drops those the same way)
        while reply.get("type") != "tables" or reply.get("push"):
            line = await asyncio.wait_for(reader.readline(), 5)
            assert len(line) < READ_LIMIT
            reply = json.loads(line)
        assert reply["offset"] == len(seen) and 0 < len(reply["tables"]) <= page
        seen += [row["table"] for row in reply["tables"]]
    assert sorted(seen) == sorted(host.tables)
    await say(writer, {"type": "list", "offset": -1})
    while (reply := await hear(reader))["type"] == "state":
        pass
    assert reply["code"] == "bad_message"
    bob = await HostClient.connect(host.socket_path)  # the real client says hello fine
    assert len((await bob.hello("Bob"))["tables"]) == page
    for client in (ann, bob):
        client.writer.close()


async def test_throwaway_names_cannot_flood_the_lobby(tmp_path):
    async with running(tmp_path, new_names_per_minute=6, tables_per_player=2,
                       max_open_tables=5) as host:
        ann, bob = await named(host, "Ann"), await named(host, "Bob")
        welcomed, refused = [], []
        for i in range(12):
            reader, writer = await raw(host)
            await say(writer, hello(f"Throwaway{i}"))
            reply = await hear(reader)
            (welcomed if reply["type"] == "welcome" else refused).append((reader, writer))
            if reply["type"] != "welcome":
                assert reply["code"] == "busy" and "minute" in reply["message"]
        assert len(welcomed) == 4 and len(refused) == 8
        codes = []
        for reader, writer in welcomed:
            for _ in range(3):
                await say(writer, {"type": "create", "opponent": "friend"})
                while (reply := await hear(reader))["type"] == "state":
                    pass
                codes.append(reply.get("code", reply["type"]))
        assert codes.count("joined") == 5  # the host-wide cap on waiting tables
        assert codes[:3] == ["joined", "joined", "too_many"]  # the per-player cap
        assert codes.count("busy") == 5
        assert sum(t.status() == "open" for t in host.tables.values()) == 5
        # Ann and Bob still play: Bob takes an open seat, which makes room for Ann's table.
        open_table = next(t.id for t in host.tables.values() if t.status() == "open")
        await bob.send({"type": "join", "table": open_table})
        await bob.receive_until("joined")
        await ann.send({"type": "create", "opponent": "friend", "seat": 0})
        table = (await ann.receive_until("joined"))["table"]
        bob2 = await HostClient.connect(host.socket_path)
        await bob2.hello(code=bob.code)
        await bob2.send({"type": "join", "table": table})
        await bob2.receive_until("joined")
        await play_to_end(host, {0: ann, 1: bob2}, table, random.Random(1), stop_after=4)
        for client in (ann, bob, bob2):
            client.writer.close()


async def test_a_table_nobody_joins_closes_and_says_so(tmp_path):
    async with running(tmp_path, open_table_seconds=0.3) as host:
        ghost = await named(host, "Ghost")
        await ghost.send({"type": "create", "opponent": "friend"})
        await ghost.receive_until("joined")
        ghost.writer.close()
        ann = await named(host, "Ann")
        await ann.send({"type": "create", "opponent": "friend", "seat": 0})
        waiting = (await ann.receive_until("joined"))["table"]
        ann2, bob, playing = await start_friend_game(lambda name: named(host, name + "2"))
        closed = await asyncio.wait_for(ann.receive_until("closed", table=waiting), 5)
        assert "nobody took the open seat" in closed["message"]
        await until(lambda: list(host.tables) == [playing])
        assert not host.store.path(waiting).exists()
        await play_to_end(host, {0: ann2, 1: bob}, playing, random.Random(2), stop_after=4)
        for client in (ghost, ann, ann2, bob):
            client.writer.close()


# ---------------------------------------------------------------------- connections
async def test_silent_and_trickling_connections_are_closed_but_pingers_stay(tmp_path):
    async with running(tmp_path, hello_seconds=0.3, idle_seconds=0.6) as host:
        silent, _silent_writer = await raw(host)  # (kept: a dropped writer closes)
        ping_sock, pinger, _ping_writer = await raw_socket(host)  # never says hello
        trickle_sock, trickler, _trickle_writer = await raw_socket(host)
        trickle_sock.send(json.dumps(hello("Tess")).encode() + b"\n")
        thinker = await named(host, "Thinker")
        keeper = asyncio.create_task(thinker.keep_alive(every=0.1))
        for _tick in range(15):  # 1.5 s: a line that never ends; pings that do not help
            with contextlib.suppress(OSError):
                trickle_sock.send(b"x")
            with contextlib.suppress(OSError):
                ping_sock.send(b'{"type": "ping"}\n')
            await asyncio.sleep(0.1)
        said = await hear_to_the_end(silent)
        assert said[-1]["code"] == "timeout" and "hello" in said[-1]["message"]
        said = await hear_to_the_end(pinger)
        assert said[-1]["code"] == "timeout" and "hello" in said[-1]["message"]
        said = await hear_to_the_end(trickler)
        assert said[0]["type"] == "welcome" and said[-1]["code"] == "timeout"
        assert "nothing heard" in said[-1]["message"]
        ping_sock.close()
        trickle_sock.close()
        # The player whose client pings was idle for 1.5 s and still plays.
        assert [c.name for c in host.conns] == ["Thinker"]
        await thinker.send({"type": "create", "opponent": "friend", "seat": 0})
        assert (await thinker.receive_until("joined"))["seat"] == 0
        keeper.cancel()
        thinker.writer.close()


async def test_a_full_host_refuses_clearly_and_idle_sockets_lock_nobody_out(tmp_path):
    async with running(tmp_path, max_connections=6, hello_seconds=30) as host:
        ann = await named(host, "Ann")
        await ann.send({"type": "create", "opponent": "friend", "seat": 0})
        table = (await ann.receive_until("joined"))["table"]
        hogs = [await raw(host) for _ in range(30)]  # the abuse: sockets that say nothing
        for reader, _writer in hogs[:25]:  # each newcomer made room: the oldest silent went
            said = await hear_to_the_end(reader)
            assert said[-1]["code"] == "timeout" and "full" in said[-1]["message"]
        bob = await named(host, "Bob")  # a real player gets in at once, long before the
        await bob.send({"type": "join", "table": table})  # silent ones' hello deadline
        await bob.receive_until("joined")
        await play_to_end(host, {0: ann, 1: bob}, table, random.Random(3), stop_after=4)
        crowd = [await named(host, f"Player {i}") for i in range(4)]  # six said hello
        reader, writer = await raw(host)  # now the host is full of players: a newcomer
        await say(writer, hello("Newcomer"))  # is refused, clearly
        said = await hear_to_the_end(reader)
        assert said[0]["code"] == "busy" and "full" in said[0]["message"]
        await ann.send({"type": "ping"})  # those inside carry on
        await ann.receive_until("pong")
        for client in (ann, bob, *crowd):
            client.writer.close()


async def test_the_deployed_host_never_runs_out_of_file_descriptors(tmp_path):
    sock, soft = tmp_path / "host.sock", 256

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE,
                           (soft, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    host = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "solstis_tui.cli", "host", "--socket", str(sock), "--data",
        str(tmp_path / "data"), stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, preexec_fn=low_limit)
    hogs: list[socket.socket] = []
    try:
        ready = (await asyncio.wait_for(host.stdout.readline(), 30)).decode()
        cap = int(re.search(r"at most (\d+) connections", ready)[1])
        assert cap < soft
        host.send_signal(signal.SIGSTOP)  # the host is busy while the connects pile up
        for _ in range(300):  # idle sockets, more than the host can open
            hogs.append(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
            hogs[-1].setblocking(False)
            hogs[-1].connect(str(sock))  # waits in the host's queue
        host.send_signal(signal.SIGCONT)

        def turned_away() -> int:
            count = 0
            for hog in hogs:
                with contextlib.suppress(BlockingIOError):
                    count += b"the host is full" in hog.recv(4096, socket.MSG_PEEK)
            return count

        await until(lambda: turned_away() == 300 - cap, timeout=10)
        ann = await HostClient.connect(sock)  # a player still gets in: a silent one makes room
        assert (await asyncio.wait_for(ann.hello("Ann"), 5))["name"] == "Ann"
        await ann.send({"type": "create", "opponent": "friend", "seat": 0})
        assert (await asyncio.wait_for(ann.receive_until("joined"), 5))["seat"] == 0
        ann.writer.close()
    finally:
        for hog in hogs:
            hog.close()
        if host.returncode is None:
            host.send_signal(signal.SIGCONT)
            host.terminate()
        _out, err = await asyncio.wait_for(host.communicate(), 30)
    assert b"Too many open files" not in err, err.decode()[-2000:]


def test_the_connection_cap_leaves_file_descriptors_free(monkeypatch):
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (1024, 4096))
    assert Limits().connection_cap() == 256
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (300, 4096))
    assert Limits().connection_cap() == 300 - FD_HEADROOM - 4 * ACCEPT_BURST
    assert Limits(max_connections=10).connection_cap() == 10
    monkeypatch.setattr(resource, "getrlimit",
                        lambda _which: (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    assert Limits().connection_cap() == Limits.max_connections


async def test_two_hundred_clients_connecting_at_once_all_get_in(host):
    socks = []
    try:
        for _ in range(200):  # no await in between: the host accepts none of them meanwhile
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.setblocking(False)
            socks.append(sock)
            sock.connect(str(host.socket_path))  # BlockingIOError once the queue is full
        streams = [await asyncio.open_unix_connection(sock=s, limit=READ_LIMIT) for s in socks]
        for _reader, writer in streams:
            writer.write(b'{"type": "ping"}\n')
        replies = await asyncio.gather(*(hear(reader) for reader, _ in streams))
        assert [r["type"] for r in replies] == ["pong"] * 200
    finally:
        for sock in socks:
            sock.close()


async def test_a_client_waits_while_the_hosts_queue_is_full_then_says_so(tmp_path):
    path = tmp_path / "full.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # a host that is stuck
    listener.bind(str(path))
    listener.listen(0)
    listener.setblocking(False)
    queued = []
    with contextlib.suppress(BlockingIOError):
        while True:
            queued.append(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
            queued[-1].setblocking(False)
            queued[-1].connect(str(path))
    with pytest.raises(HostError, match="too busy"):
        await HostClient.connect(path)

    async def accept_later() -> list[socket.socket]:
        await asyncio.sleep(0.2)
        taken = []
        with contextlib.suppress(BlockingIOError):
            while True:
                taken.append(listener.accept()[0])
        return taken

    later = asyncio.create_task(accept_later())
    client = await HostClient.connect(path)  # gets in once the queue has room
    client.writer.write(b"hi\n")
    await client.writer.drain()
    for sock in [*await later, *queued, listener]:
        sock.close()
    client.writer.close()


# ---------------------------------------------------------------------- slow readers
async def test_watchers_that_never_read_are_dropped_and_slow_nobody(tmp_path):
    async with running(tmp_path, send_buffer=16 * 1024) as host:
        ann, bob, table = await start_friend_game(lambda name: named(host, name))
        lurkers = []
        for i in range(20):  # plain sockets: nothing reads for them behind the scenes
            lurker = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            lurker.connect(str(host.socket_path))
            lurker.sendall(json.dumps(hello(f"Lurker{i}")).encode() + b"\n" + json.dumps(
                {"type": "watch", "table": table}).encode() + b"\n")
            lurkers.append(lurker)  # and never read
        await until(lambda: sum(table in c.watching for c in host.conns) == 20)
        for conn in host.conns:  # slow links: the kernel holds little for them
            if table in conn.watching:
                conn.writer.get_extra_info("socket").setsockopt(
                    socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        # Every move reaches both players while the lurkers sit there.
        await play_to_end(host, {0: ann, 1: bob}, table, random.Random(4), stop_after=30)
        await until(lambda: not any(table in c.watching for c in host.conns))
        assert {c.name for c in host.conns} == {"Ann", "Bob"}
        eve = await named(host, "Eve")  # a watcher who reads still watches
        await eve.send({"type": "watch", "table": table})
        await state_where(eve, table, seated)
        game = host.tables[table].game
        if not game.is_over:
            seat = game.to_play
            made = len(game.history)
            await (ann, bob)[seat].send({"type": "move", "table": table, "seq": made,
                                         "move": str(game.observation(seat).legal_moves[0])})
            state = await state_where(eve, table, after(made))  # the watcher sees it
            assert len(state["observation"]["history"]) == len(game_at(host, table).history) > 30
        for client in (ann, bob, eve):
            client.writer.close()
        for lurker in lurkers:
            lurker.close()


async def test_a_client_that_reads_its_replies_late_is_slowed_not_dropped(tmp_path):
    # this test is about reading, not sending: the message allowance is lifted
    async with running(tmp_path, send_buffer=16 * 1024, message_rate=10_000,
                       message_burst=10_000) as host:
        fill_lobby(host, 60)
        reader, writer = await raw(host)
        await say(writer, hello("Lazy"), *[{"type": "list"}] * 200)
        await asyncio.sleep(0.5)  # reads nothing meanwhile
        kinds = [(await hear(reader))["type"] for _ in range(201)]
        assert kinds == ["welcome"] + ["tables"] * 200
        await players_still_play(host)


# ---------------------------------------------------------------------- resume codes
async def test_wrong_resume_codes_are_limited_per_connection_and_host_wide(tmp_path):
    async with running(tmp_path, code_failures_per_connection=3,
                       code_failures_per_minute=5) as host:
        ann = await named(host, "Ann")

        def resume(code: str) -> dict:
            return {"type": "hello", "version": VERSION, "code": code}

        guesser, writer = await raw(host)
        await say(writer, *[resume(f"guess{i}") for i in range(5)])
        said = await hear_to_the_end(guesser)
        assert [m["code"] for m in said] == ["unknown_code"] * 3  # then disconnected
        assert "disconnected" in said[-1]["message"]
        second, writer = await raw(host)
        await say(writer, resume("guess3"), resume("guess4"), resume("guess5"))
        said = await hear_to_the_end(second)
        # Five wrong short codes host-wide: short codes (guessable, as old 32-bit codes
        # were) are refused for a while, unchecked.
        assert [m["code"] for m in said] == ["unknown_code", "unknown_code", "busy"]
        # A long code cannot be guessed, so it is never held up by others' wrong tries.
        back = await HostClient.connect(host.socket_path)
        assert (await back.hello(code=ann.code))["name"] == "Ann"
        await players_still_play(host)  # new names are not held up
        host.door.code_failures.stamp -= 60  # a minute later short codes are checked again
        fourth, writer = await raw(host)
        await say(writer, resume("guess6"))
        assert (await hear(fourth))["code"] == "unknown_code"
        for client in (ann, back):
            client.writer.close()


# ---------------------------------------------------------------------- the app
async def test_the_app_says_when_the_host_is_full(tmp_path):
    async with running(tmp_path, max_connections=1) as host:
        _hog = await named(host, "Hog")  # a player who said hello holds the only place
        app = OnlineApp(socket=host.socket_path, name="Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(lambda: app.client is None and app.lobby.is_mounted, pilot)
            await pilot.pause(0.2)
            said = str(app.lobby.query_one("#lobby-error").render())
            assert "the host is full" in said and "try again" in said


async def test_the_app_connects_when_named_and_keeps_an_idle_player(tmp_path):
    async with running(tmp_path, hello_seconds=0.4, idle_seconds=0.4) as host:
        app = OnlineApp(socket=host.socket_path)
        app.keep_alive_seconds = 0.1
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.6)  # reading the prompt takes longer than the hello deadline
            assert not host.conns
            await pilot.press(*"Ann", "enter")
            await wait_for(lambda: app.player_name == "Ann", pilot)
            await pilot.pause(1.2)  # three idle limits without a key pressed
            assert app.client is not None and [c.name for c in host.conns] == ["Ann"]
            await pilot.press("c", "s", "enter")
            await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)


# ---------------------------------------------------------------------- table caps
async def test_caps_hold_when_one_player_creates_from_many_connections_at_once(tmp_path):
    async with running(tmp_path, tables_per_player=5, bot_tables_per_player=2,
                       open_tables_per_player=5, connections_per_player=20) as host:
        ann = await named(host, "Ann")
        resume = {"type": "hello", "version": VERSION, "code": ann.code}

        async def create_everywhere(opponent: str, connections: int) -> list[str]:
            """Each connection, resumed as Ann, asks for a table at the same moment."""
            streams = [await raw(host) for _ in range(connections)]
            for reader, writer in streams:
                await say(writer, resume)
                assert (await hear(reader))["type"] == "welcome"
            for _, writer in streams:
                writer.write(json.dumps({"type": "create", "opponent": opponent}).encode()
                             + b"\n")
            await asyncio.gather(*(writer.drain() for _, writer in streams))
            answers = []
            for reader, writer in streams:
                message = await hear(reader)
                while message["type"] not in ("joined", "error"):
                    message = await hear(reader)
                answers.append(message.get("code", message["type"]))
                writer.close()
            return answers

        against_bots = await create_everywhere("random", 12)
        assert against_bots.count("joined") == 2
        assert set(against_bots) == {"joined", "too_many"}
        with_friends = await create_everywhere("friend", 12)
        assert with_friends.count("joined") == 3  # five unfinished tables in all
        mine = [t for t in host.tables.values() if t.seat_of(ann.code) is not None]
        assert len(mine) == 5
        ann.writer.close()


async def test_one_player_cannot_hold_many_connections_or_waiting_tables(tmp_path):
    async with running(tmp_path, connections_per_player=2, open_tables_per_player=2) as host:
        ann = await named(host, "Ann")
        again = await HostClient.connect(host.socket_path)
        assert (await again.hello(code=ann.code))["name"] == "Ann"  # a second window is fine
        reader, writer = await raw(host)
        await say(writer, {"type": "hello", "version": VERSION, "code": ann.code})
        said = await hear_to_the_end(reader)  # a third is refused, and closed
        assert said[0]["code"] == "too_many" and "connected 2 times" in said[0]["message"]
        for _ in range(2):
            await ann.send({"type": "create", "opponent": "friend"})
            await ann.receive_until("joined")
        await ann.send({"type": "create", "opponent": "friend"})
        refusal = await ann.receive_until("error")
        assert refusal["code"] == "too_many" and "waiting for a player" in refusal["message"]
        await ann.send({"type": "create", "opponent": "random"})  # a bot table still can
        await ann.receive_until("joined")
        await players_still_play(host)
        for client in (ann, again):
            client.writer.close()


async def test_a_client_of_the_old_protocol_is_told_to_update_and_nothing_changes(host):
    reader, writer = await raw(host)
    await say(writer, {"type": "hello", "version": VERSION - 1, "name": "Ann"})
    reply = await hear(reader)
    assert reply["type"] == "error" and reply["code"] == "version"
    assert reply["message"] == (f"this host speaks protocol version {VERSION} and your "
                                f"solstis speaks version {VERSION - 1}: update solstis-tui "
                                "to play here")
    await say(writer, hello("Ann"))  # the same connection, now speaking this version
    assert (await hear(reader))["type"] == "welcome"
    assert not host.tables

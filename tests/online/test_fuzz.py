"""Malformed, oversized and flooding input against a live host."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import typing

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solstis_tui.client.client import HostClient
from solstis_tui.core import Move, Options
from solstis_tui.host.host import Host
from solstis_tui.host.limits import Limits
from solstis_tui.wire.messages import PARSERS, parse
from solstis_tui.wire.protocol import MAX_MESSAGE, VERSION, LineReader, ProtocolError

from .conftest import quick_bot
from .states import seated, state_where
from .test_host import start_friend_game

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=10,
)
TYPES = ["hello", "list", "create", "join", "watch", "move", "leave", "chat", "ping", "nope"]
#: A message of each type with every field it needs.
TEMPLATES: dict[str, dict] = {
    **{kind: {} for kind in PARSERS},
    "hello": {"version": VERSION}, "rename": {"name": "Ann"},
    **{kind: {"table": "t1"} for kind in ("join", "watch", "leave", "resign", "claim",
                                          "rematch", "decline")},
    "record": {"game": "g" + "0" * 32},
    "chat": {"table": "t1", "text": "hi"}, "move": {"table": "t1", "move": "draw"},
}
KEYS = ["type", "table", "move", "seq", "text", "variant", "opponent", "seat", "name", "code",
        "version", "id", "game"]


def random_message(rand: random.Random, table: str) -> bytes:
    """Junk bytes, junk JSON, or a plausible message with wrong or missing fields."""
    roll = rand.random()
    if roll < 0.2:
        return bytes(rand.randrange(256) for _ in range(rand.randrange(1, 80))).replace(
            b"\n", b"") + b"\n"
    if roll < 0.3:
        return json.dumps(rand.choice([[], 3, "x", None, [1, 2]])).encode() + b"\n"
    message = {"type": rand.choice(TYPES)}
    for key in rand.sample(KEYS, rand.randrange(0, 5)):
        message[key] = rand.choice([None, -1, 2**70, "", "x" * 300, table, "play 1-1",
                                    "capture 9-9", "pass", [1], {"a": 1}, True, 1.5])
    return json.dumps(message).encode() + b"\n"


async def test_thousands_of_malformed_messages_change_nothing(host, connect):
    ann, bob, table = await start_friend_game(connect)
    await state_where(ann, table, seated)
    await state_where(bob, table, seated)
    before = host.tables[table].game.to_json()
    hand_of = {seat: set(host.tables[table].game.hands[seat]) for seat in (0, 1)}
    rand = random.Random(7)
    # this test is about content, not volume: the next connection's allowance is lifted
    host.limits = dataclasses.replace(host.limits, message_rate=10_000, message_burst=10_000)
    fuzzer = await connect("Mallory")
    replies = 0
    for _ in range(3000):
        fuzzer.writer.write(random_message(rand, table))
        if rand.random() < 0.05:
            await fuzzer.writer.drain()
    fuzzer.writer.write(b'{"type": "ping", "id": "end"}\n')
    await fuzzer.writer.drain()
    while True:
        reply = await asyncio.wait_for(fuzzer.receive(), 10)
        replies += 1
        if reply.get("type") == "state":
            seen = set(reply["observation"]["hand"])
            assert reply["seat"] is None or not seen & hand_of[1 - reply["seat"]]
        if reply.get("id") == "end":
            break
    assert replies > 2000
    assert host.internal_errors == []
    game = host.tables[table].game
    # Mallory may have created tables of her own, but Ann and Bob's game did not move.
    assert game.to_json() == before
    ping = await connect("Ann2")
    await ping.send({"type": "ping"})
    assert (await ping.receive_until("pong"))["type"] == "pong"


async def test_an_oversized_line_gets_an_error_and_the_connection_goes_on(host, connect):
    client = await connect("Big")
    client.writer.write(b'{"type": "chat", "text": "' + b"x" * (MAX_MESSAGE + 10) + b'"}\n')
    client.writer.write(b'{"type": "ping"}\n')
    await client.writer.drain()
    error = await client.receive_until("error")
    assert error["code"] == "too_big"
    assert (await client.receive_until("pong"))["type"] == "pong"


async def test_a_flooding_client_is_disconnected(tmp_path):
    host = Host(tmp_path / "d", limits=Limits(message_rate=5, message_burst=10),
                bot_factory=quick_bot)
    sock = tmp_path / "s.sock"
    await host.serve_unix(sock)
    try:
        client = await HostClient.connect(sock)
        client.writer.write(b'{"type": "ping"}\n' * 200)
        await client.writer.drain()
        codes = []
        while True:
            line = await asyncio.wait_for(client.reader.readline(), 5)
            if not line:
                break
            codes.append(json.loads(line).get("code"))
        assert codes[-1] == "flood" and len(codes) <= 12
    finally:
        await host.close()


async def test_a_client_vanishing_mid_message_harms_nobody(host, connect):
    ann, _bob, _table = await start_friend_game(connect)
    ghost = await HostClient.connect(host.socket_path)
    ghost.writer.write(b'{"type": "hello", "version": 1, "na')
    await ghost.writer.drain()
    ghost.writer.close()
    await asyncio.sleep(0.05)
    await ann.send({"type": "ping"})
    assert (await ann.receive_until("pong"))["type"] == "pong"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=200), max_size=20), st.integers(10, 300))
def test_line_reader_never_returns_oversized_lines(chunks, limit):
    reader = LineReader(limit)
    for chunk in chunks:
        for line in reader.feed(chunk):
            assert line is None or (len(line) <= limit and b"\n" not in line)


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_any_json_value_gets_a_reply_not_a_crash(value):
    from solstis_tui.wire.protocol import decode

    try:
        parse(decode(json.dumps(value).encode()))
    except ProtocolError as exc:
        assert exc.code in ("bad_message", "bad_type")


#: What a message that parses may hold: only these, never a list or an object of JSON.
FIELD_TYPES = (str, int, bool, type(None), Move, Options)


#: The fields each message type reads, on the wire.
FIELDS = {
    "hello": ["version", "name", "code", "token", "ssh_key"], "ping": [],
    "list": ["offset"], "leaders": ["offset"], "rename": ["name"], "player": ["name"],
    "create": ["variant", "opponent", "seat", "rated", "clock"],
    **{kind: ["table"] for kind in ("join", "watch", "resign", "claim")},
    "leave": ["table", "for_good"], "chat": ["table", "text"],
    "move": ["table", "move", "seq"], "nope": [],
    "games": ["offset"], "record": ["game"], "rematch": ["table"], "decline": ["table"],
    "status": [],
}


@st.composite
def messages(draw) -> dict:
    """A message of each type with every field it needs, one or two of its fields (or
    an unknown one) then made any JSON value."""
    kind = draw(st.sampled_from([*PARSERS, "nope"]))
    keys = st.sampled_from([*FIELDS[kind], "extra"])
    junk = draw(st.dictionaries(keys, json_values | st.just(VERSION), max_size=2))
    return {**TEMPLATES.get(kind, {}), **junk, "type": kind}


@settings(max_examples=300, deadline=None)
@given(messages())
def test_any_fields_make_a_typed_message_or_a_clear_refusal(raw):
    """Each field a handler reads was checked when the line was parsed: a message either
    parses into its type, holding only plain values of the right kind, or is refused with
    a code and a sentence."""
    try:
        message = parse(raw)
    except ProtocolError as exc:
        assert exc.code in ("bad_message", "bad_type", "bad_name", "version", "no_table",
                            "illegal") and exc.message
        return
    kind = raw["type"]
    assert type(message) is type(PARSERS[kind](dict(TEMPLATES[kind], type=kind)))
    for name, hint in typing.get_type_hints(type(message)).items():
        value = getattr(message, name)
        assert isinstance(value, FIELD_TYPES) and isinstance(value, hint), (name, value)
        if int in typing.get_args(hint) or hint is int:
            assert not isinstance(value, bool), (name, value)

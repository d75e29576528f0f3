"""Who is who at the host: a key of the players' account is one player, a local Unix user
is one player whatever names they type, everybody else there is a guest."""

from __future__ import annotations

import asyncio
import os
import socket

import pytest

from solstis_tui.client.client import HostClient
from solstis_tui.host import identity
from solstis_tui.host.identity import KeyRing, Trust, key_line, parse_keys
from solstis_tui.wire.protocol import VERSION
from solstis_tui.wire.ssh_auth import exposed_key

from .conftest import start_host
from .identities import ANN, ANN_LAPTOP, BOB, NOBODY, PLAYERS_UID, STRANGER, close_all, hello

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")
def test_the_kernel_names_the_user_at_the_other_end_of_a_unix_socket():
    left, right = socket.socketpair(socket.AF_UNIX)
    with left, right:
        assert identity.peer_uid(left) == os.getuid()
    with socket.socket() as tcp:
        assert identity.peer_uid(tcp) is None


async def test_two_keys_are_two_players_named_by_the_keys_file(keyed):
    ann, bob = await hello(keyed, ANN), await hello(keyed, BOB)
    assert (ann["type"], ann["name"]) == ("welcome", "Ann")
    assert (bob["type"], bob["name"]) == ("welcome", "Bob")
    assert ann["code"] != bob["code"]


async def test_a_key_is_one_player_whatever_name_it_types_and_from_either_machine(keyed):
    first = await hello(keyed, ANN)
    again = await hello(keyed, ANN, name="Zed")
    laptop = await hello(keyed, ANN_LAPTOP)
    assert again["name"] == laptop["name"] == "Ann"
    assert again["code"] == laptop["code"] == first["code"]
    assert len(keyed.players) == 1


async def test_one_key_cannot_take_the_other_keys_seat(keyed):
    ann = await hello(keyed, ANN)
    client = ann["client"]
    await client.send({"type": "create", "variant": "base", "opponent": "friend", "seat": 0})
    table = (await client.receive_until("joined"))["table"]
    bob = await hello(keyed, BOB, code=ann["code"])
    assert bob["code"] == "not_yours"
    bob = await hello(keyed, BOB)
    await bob["client"].send({"type": "move", "table": table, "move": "play 1-1"})
    refused = await bob["client"].receive_until("error")
    assert refused["code"] == "not_seated"
    assert keyed.tables[table].seats[0].name == "Ann"


async def test_a_key_no_line_names_plays_as_a_marked_guest(keyed):
    asked = await hello(keyed, STRANGER)
    assert asked["code"] == "name_needed"
    guest = await hello(keyed, STRANGER, name="Eve")
    assert guest["name"] == "Eve (guest)"


async def test_guests_share_a_small_pool_and_cannot_keep_players_out(keyed):
    guests = [await hello(keyed, name=f"G{i}") for i in range(2)]
    assert all(g["type"] == "welcome" for g in guests)
    third = await hello(keyed, name="G2")
    assert third["code"] == "busy" and "places for guests" in third["message"]
    assert (await hello(keyed, BOB))["name"] == "Bob"


async def test_a_key_from_anyone_but_the_players_account_is_not_believed(keyed, peer):
    peer.uid = os.getuid() + 1
    refused = await hello(keyed, ANN, name="Mallory")
    assert refused["code"] == "not_believed"
    assert len(keyed.players) == 0


async def test_a_local_user_is_one_player_whatever_names_they_type(tmp_path, peer):
    """The lock-out attack (one local user holding every connection under throwaway
    names) stops at the per-player allowance."""
    peer.uid = NOBODY
    host = await start_host(tmp_path / "data", tmp_path / "host.sock", trust=Trust())
    try:
        answers = [await hello(host, name=f"Eve{i}") for i in range(4)]
        assert [a.get("name") for a in answers[:3]] == ["Eve0"] * 3
        assert answers[3]["code"] == "too_many"
        assert len(host.players) == 1
    finally:
        await close_all(host)


async def test_a_hello_with_a_damaged_key_changes_nothing(keyed):
    refused = await hello(keyed, "ssh-ed25519 !!!not-base64")
    assert refused["code"] == "not_believed" and "not an SSH public key" in refused["message"]
    assert len(keyed.players) == 0


def test_a_key_line_without_a_player_is_reported_and_plays_as_a_guest():
    players, problems = parse_keys("\n".join([key_line(ANN, "Ann"), ANN, "# a comment", ""]))
    assert list(players.values()) == ["Ann"]
    assert problems == ["line 2 of the keys file names no player (no 'solstis:<name>' "
                        "comment): that key plays as a guest"]


def test_the_key_is_read_from_what_sshd_exposes():
    assert exposed_key(f"publickey {ANN}\n") == ANN
    assert exposed_key("keyboard-interactive\n") is None


async def test_the_host_reads_the_keys_file_again_when_it_changes(keyed):
    assert (await hello(keyed, STRANGER))["code"] == "name_needed"
    keyed.keys_path.write_text(keyed.keys_path.read_text() + key_line(STRANGER, "Cy") + "\n")
    assert (await hello(keyed, STRANGER))["name"] == "Cy"


async def test_an_old_client_hello_without_identity_still_works_for_the_hosts_own_user(host):
    client = await HostClient.connect(host.socket_path)
    await client.send({"type": "hello", "version": VERSION, "name": "Ann"})
    assert (await client.receive_until("welcome"))["name"] == "Ann"
    await client.close()


async def test_the_host_asks_the_kernel_who_connected(tmp_path):
    """No stand-in for the kernel here: this test's own user is the players' account."""
    keys = tmp_path / "keys"
    keys.write_text(key_line(ANN, "Ann") + "\n")
    host = await start_host(tmp_path / "data", tmp_path / "host.sock",
                            trust=Trust(os.getuid(), KeyRing(keys)))
    try:
        assert (await hello(host, ANN))["name"] == "Ann"
    finally:
        await close_all(host)


async def test_a_guest_is_forgotten_after_a_day_and_a_key_player_is_not(keyed):
    import time

    guest = await hello(keyed, STRANGER, name="Gus")
    ann = await hello(keyed, ANN)
    for client in (guest["client"], ann["client"]):
        await client.close()
    while keyed.conns:
        await asyncio.sleep(0.01)
    forgotten = await keyed.housekeeping.prune_players(now=time.time() + 25 * 3600)
    assert forgotten == [guest["code"]] and ann["code"] in keyed.players


async def test_guests_under_ever_new_names_cannot_pile_up_bot_tables(keyed):
    """A cap per name bounds nothing for guests (a new name is a reconnection away): all
    guests together hold at most 4 unfinished games against bots."""
    made = []
    for i in range(3):  # three guests, two bot tables each would be 6
        guest = (await hello(keyed, STRANGER, name=f"Gus{i}"))["client"]
        for _ in range(2):
            await guest.send({"type": "create", "variant": "base", "opponent": "greedy"})
            while (said := await guest.receive())["type"] not in ("joined", "error"):
                pass
            made.append(said)
        await guest.close()
    assert [m["type"] for m in made] == ["joined"] * 4 + ["error"] * 2
    assert made[-1]["code"] == "busy" and "all guests together" in made[-1]["message"]
    assert (await hello(keyed, ANN))["name"] == "Ann"  # players with a key are not held up


async def chat_answers(client, table: str, lines: int, tag: str) -> list[str]:
    """Send ``lines`` chat lines; what came back for each: chat, or an error's code."""
    answers = []
    for i in range(lines):
        text = f"{tag} {i}"
        await client.send({"type": "chat", "table": table, "text": text, "id": i})
        while (said := await client.receive()).get("id") != i and said.get("text") != text:
            pass
        answers.append(said.get("code", said["type"]))
    return answers


async def test_a_keys_windows_share_one_chat_allowance(keyed):
    first, second = (await hello(keyed, ANN))["client"], (await hello(keyed, ANN))["client"]
    await first.send({"type": "create", "variant": "base", "opponent": "greedy"})
    table = (await first.receive_until("joined"))["table"]
    await second.send({"type": "join", "table": table})
    await second.receive_until("joined")
    assert await chat_answers(first, table, 20, "first") == ["chat"] * 20
    assert await chat_answers(second, table, 1, "second") == ["too_many"]


async def test_new_tables_a_minute_are_counted_per_identity(tmp_path, peer):
    from .identities import Limits

    keys = tmp_path / "keys"
    keys.write_text(key_line(ANN, "Ann") + "\n")
    host = await start_host(tmp_path / "data", tmp_path / "host.sock",
                            trust=Trust(PLAYERS_UID, KeyRing(keys)),
                            limits=Limits(new_tables_per_minute=2, open_tables_per_player=5))
    try:
        answers = []
        for _ in range(3):  # each from a window of its own: one allowance all the same
            client = (await hello(host, ANN))["client"]
            await client.send({"type": "create", "variant": "base", "opponent": "friend"})
            while (said := await client.receive())["type"] not in ("joined", "error"):
                pass
            answers.append(said.get("message", said["type"]))
        assert answers[:2] == ["joined", "joined"] and "new tables a minute" in answers[2]
        assert len(host.tables) == 2
    finally:
        await close_all(host)


async def test_a_key_whose_name_is_taken_is_told_to_ask_the_owner(keyed, peer):
    lines = keyed.keys_path.read_text()
    keyed.keys_path.write_text(lines.replace("solstis:Bob", "solstis:Robert"))
    peer.uid = os.getuid()  # the host's own account takes "Bob" before Bob's key is added
    assert (await hello(keyed, name="\u0412\u043e\u0432"))["name"] == "\u0412\u043e\u0432"
    keyed.keys_path.write_text(lines)  # by hand: `players add` would have refused it
    peer.uid = PLAYERS_UID
    refused = await hello(keyed, BOB)
    assert refused["code"] == "name_taken" and "ask them to give your key" in refused["message"]

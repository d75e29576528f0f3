"""The upgrade path of docs/ssh.md: a host that imported an older host's players.json (its
players from before keys), then the owner adds the players' keys with `solstis host players
add --attach`. Every player keeps their name, their resume code and their seats."""

from __future__ import annotations

import json
import os
import shlex
import time

import pytest

from solstis_tui.host.identity import ATTACH_FILE, KeyRing, Trust
from solstis_tui.host.players_cli import main

from . import ssh_doc
from .conftest import start_host
from .identities import ANN, BOB, PLAYERS_UID, close_all, hello

ANN_CODE = "a" * 22  # a long code of a players.json of version 2
BOB_CODE = "b0b0cafe"  # a 32-bit code of the oldest players.json ({code: name})


def old_players_json(data) -> None:
    """An older host's players: Ann with a long code, Bob with an old short one."""
    data.mkdir(parents=True)
    (data / "players.json").write_text(json.dumps({"version": 2, "players": {
        ANN_CODE: {"name": "Ann", "seen": time.time()},
        BOB_CODE: {"name": "Bob", "seen": time.time(), "legacy": True}}}))


def add(tmp_path, capsys, name: str, key: str, *extra: str) -> tuple[int, str]:
    """`solstis host players --data ... --keys-file ... add [extra] NAME KEY`, as the owner
    types it from docs/ssh.md (its `add --attach` line, paths swapped for the test's)."""
    pub = tmp_path / f"{name}.pub"
    pub.write_text(key + "\n")
    line = next(x for x in ssh_doc.shell_lines() if " add --attach " in x)
    argv = shlex.split(line)
    assert argv[:4] == ["sudo", ssh_doc.PROGRAM, "host", "players"], line
    argv = argv[4:]
    argv[argv.index("--data") + 1] = str(tmp_path / "data")
    argv[argv.index("--keys-file") + 1] = str(tmp_path / "authorized_keys")
    argv[argv.index("add"):] = ["add", *extra, name, str(pub)]
    code = main(argv)
    return code, capsys.readouterr().err


@pytest.fixture
async def upgraded(tmp_path, peer):
    """The host after the upgrade: players.json imported, Ann seated at a table from the
    host's own account, as before keys; no key added yet."""
    old_players_json(tmp_path / "data")
    (tmp_path / "authorized_keys").write_text("")
    host = await start_host(tmp_path / "data", tmp_path / "host.sock",
                            trust=Trust(PLAYERS_UID, KeyRing(tmp_path / "authorized_keys")))
    peer.uid = os.getuid()
    ann = (await hello(host, code=ANN_CODE))["client"]
    await ann.send({"type": "create", "variant": "base", "opponent": "greedy", "seat": 0})
    host.ann_table = (await ann.receive_until("joined"))["table"]
    peer.uid = PLAYERS_UID
    yield host
    await close_all(host)


async def test_adding_keys_after_an_upgrade_keeps_every_player_their_name_code_and_seats(
        upgraded, tmp_path, capsys):
    # Without --attach, the owner is told who holds the name and what to do.
    code, err = add(tmp_path, capsys, "Ann", ANN)
    assert code == 1 and "held by Ann (a player of before keys" in err and "--attach" in err
    assert (tmp_path / "authorized_keys").read_text() == ""
    assert add(tmp_path, capsys, "Ann", ANN, "--attach")[0] == 0
    assert add(tmp_path, capsys, "Bob", BOB, "--attach")[0] == 0
    # Ann's key: her name, her old code, her seat.
    ann = await hello(upgraded, ANN)
    assert (ann["name"], ann["code"]) == ("Ann", ANN_CODE)
    assert ann["seated"] == [upgraded.ann_table]
    again = await hello(upgraded, ANN, code=ANN_CODE)  # her old resume code is hers
    assert again["type"] == "welcome" and again["name"] == "Ann"
    # Bob's key: his name; his old short code is exchanged for a long one, once.
    bob = await hello(upgraded, BOB)
    assert bob["name"] == "Bob" and len(bob["code"]) > len(BOB_CODE)
    assert upgraded.players.identity_of(bob["code"]) == "key:Bob"
    # The old codes no longer work from the host's own account: they are the keys' now.
    assert (await hello(upgraded, code=ANN_CODE))["code"] == "not_yours"


async def test_an_attached_player_of_another_identity_is_left_alone(upgraded, tmp_path,
                                                                    capsys):
    """If the player named in the attach file belongs to someone by the time the key comes
    (the file was edited by hand), the key starts afresh and nobody's player moves."""
    (tmp_path / "data" / ATTACH_FILE).write_text(f"key:Eve {ANN_CODE}\n")
    await upgraded.players.attach(ANN_CODE, "user:ann", "Ann")  # Ann is user:ann's now
    (tmp_path / "authorized_keys").write_text("")
    eve_line = add(tmp_path, capsys, "Eve", BOB)
    assert eve_line[0] == 0
    eve = await hello(upgraded, BOB)
    assert eve["name"] == "Eve" and eve["code"] != ANN_CODE
    assert upgraded.players.identity_of(ANN_CODE) == "user:ann"


@pytest.mark.skipif(os.geteuid() != 0, reason="acting as the data folder's owner needs root")
def test_add_attach_run_with_sudo_leaves_the_attach_file_to_the_hosts_account(tmp_path,
                                                                             capsys):
    """docs/ssh.md runs `players add` with sudo: the attach file it writes must be the
    host account's (root's own 0600 file would be unreadable to the host)."""
    data = tmp_path / "data"
    old_players_json(data)
    nobody = 65534
    for path in (data, *data.iterdir()):
        os.chown(path, nobody, nobody)
    closed = [p for p in (tmp_path, *tmp_path.parents) if p.stat().st_mode & 0o001 == 0]
    modes = {p: p.stat().st_mode & 0o7777 for p in closed}
    try:
        for p in closed:
            os.chmod(p, modes[p] | 0o001)  # the host's account may walk down to its folder
        assert add(tmp_path, capsys, "Ann", ANN, "--attach")[0] == 0
    finally:
        for p in closed:
            os.chmod(p, modes[p])
    attach = (data / ATTACH_FILE).stat()
    assert (attach.st_uid, attach.st_mode & 0o777) == (nobody, 0o600)
    assert {p.stat().st_uid for p in data.iterdir()} == {nobody}


@pytest.mark.parametrize("attach", [False, True])
async def test_a_guests_name_does_not_stop_a_key_and_can_be_attached_to_it(
        upgraded, tmp_path, capsys, attach):
    guest = await hello(upgraded, name="Cy")  # the players' account with no key
    assert guest["name"] == "Cy (guest)"
    assert add(tmp_path, capsys, "Cy", BOB, *(["--attach"] if attach else []))[0] == 0
    cy = await hello(upgraded, BOB)
    assert cy["name"] == "Cy"
    assert (cy["code"] == guest["code"]) is attach  # attached: the guest's code and seats

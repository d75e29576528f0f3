"""A name the host's owner gives a key is that key's from the moment it is written: nobody
else takes it (another account, a look-alike, a key player renaming), before the key's
first login or after its player expired; `solstis host players add` refuses a name a
player of the host holds, and says whose it is."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

from solstis_tui.host.identity import key_line
from solstis_tui.host.players import PlayerRegistry
from solstis_tui.host.players_cli import main

from .identities import ANN, PLAYERS_UID, a_key, hello

DAN = a_key(9)
EVE_UID = 5151  # another local account, as the kernel would report it
DAY = 24 * 3600.0


def with_dan(host) -> None:
    """The owner adds Dan's key (Dan has never logged in)."""
    host.keys_path.write_text(host.keys_path.read_text() + key_line(DAN, "Dan") + "\n")


@pytest.mark.parametrize("typed", ["Dan", "DAN", "D a n", "D\u0251n"])
async def test_another_account_cannot_take_a_keys_name_before_its_first_login(
        keyed, peer, typed):
    with_dan(keyed)
    peer.uid = EVE_UID
    refused = await hello(keyed, name=typed)
    assert refused["code"] == "name_taken" and "kept for Dan" in refused["message"]
    peer.uid = PLAYERS_UID
    assert (await hello(keyed, DAN))["name"] == "Dan"  # Dan's key still gets in as Dan


async def test_a_guest_cannot_take_a_keys_name(keyed, peer):
    with_dan(keyed)
    refused = await hello(keyed, name="Dan")  # the players' account with no key: a guest
    assert refused["code"] == "name_taken"


async def test_a_key_player_cannot_rename_to_another_keys_name(keyed):
    with_dan(keyed)
    ann = (await hello(keyed, ANN))["client"]
    await ann.send({"type": "rename", "name": "Dan"})
    said = await ann.receive_until("error")
    assert said["code"] == "name_taken" and "kept for a player" in said["message"]
    await ann.send({"type": "rename", "name": "Ann"})  # her own key's name is hers
    assert (await ann.receive_until("renamed"))["name"] == "Ann"


async def test_a_keys_name_stays_its_own_after_its_player_expired(keyed, peer):
    with_dan(keyed)
    assert (await hello(keyed, DAN))["name"] == "Dan"
    start = time.time()
    keyed.players.clock = lambda: start + 31 * DAY
    assert await keyed.players.prune()  # Dan's player is forgotten after 30 days unused
    peer.uid = EVE_UID
    assert (await hello(keyed, name="Dan"))["code"] == "name_taken"
    peer.uid = PLAYERS_UID
    assert (await hello(keyed, DAN))["name"] == "Dan"


needs_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                                  reason="needs ssh-keygen")


def make_key(tmp_path, name: str):
    path = tmp_path / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", path], check=True)
    return path.with_suffix(".pub")


async def registry_with(data, name: str, identity: str | None) -> None:
    registry = PlayerRegistry(data)
    registry.load()
    await registry.register(name, identity)
    await registry.close()


@needs_keygen
@pytest.mark.parametrize("held, by", [("Dan", "user:eve"), ("DAN", "user:eve"),
                                      ("Dan", "key:Danny")])
async def test_add_refuses_a_name_a_player_holds_and_says_whose(tmp_path, capsys, held, by):
    data, keys = tmp_path / "data", tmp_path / "authorized_keys"
    await registry_with(data, held, by)
    code = main(["--data", str(data), "--keys-file", str(keys), "add", "Dan",
                 str(make_key(tmp_path, "dan"))])
    err = capsys.readouterr().err
    assert code == 1 and f"held by {held} ({by}, last seen" in err
    assert not keys.exists()

"""`solstis host players`: the owner lists who plays, and makes SSH keys players."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from solstis_tui.host.identity import KeyRing, Trust
from solstis_tui.host.players_cli import main

from .conftest import start_host
from .identities import ANN, ANN_LAPTOP, BOB, PLAYERS_UID, STRANGER, close_all, hello

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")


def make_key(tmp_path, name: str):
    path = tmp_path / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", f"{name}@home",
                    "-f", path], check=True)
    return path.with_suffix(".pub")


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_add_writes_a_key_line_that_names_the_player(tmp_path, capsys):
    keys, pub = tmp_path / "authorized_keys", make_key(tmp_path, "ann")
    code, out, _ = run(capsys, "--keys-file", keys, "add", "Ann", pub)
    assert code == 0
    line = keys.read_text().strip()
    assert out.strip() == line
    assert line.startswith("restrict,pty ssh-ed25519 ") and line.endswith(" solstis:Ann")
    assert "ann@home" not in line  # the player's own comment is not kept
    assert keys.stat().st_mode & 0o777 == 0o644  # sshd reads it as the players' account


@pytest.mark.parametrize("name, why", [("Y\u043eu", "cannot be a player's name"),
                                       ("ANN", "cannot be told from ANN"),
                                       ("Bob", "already has this key, for Ann")])
def test_add_refuses_a_bad_or_clashing_name_or_a_known_key_and_changes_nothing(
        tmp_path, capsys, name, why):
    keys, pub = tmp_path / "authorized_keys", make_key(tmp_path, "ann")
    run(capsys, "--keys-file", keys, "add", "Ann", pub)
    before = keys.read_text()
    again = pub if name == "Bob" else make_key(tmp_path, "other")
    code, _, err = run(capsys, "--keys-file", keys, "add", name, again)
    assert code == 1 and why in err
    assert keys.read_text() == before


def test_add_refuses_what_is_not_a_public_key(tmp_path, capsys):
    keys, pub = tmp_path / "authorized_keys", make_key(tmp_path, "ann")
    private = pub.with_suffix("")
    code, _, err = run(capsys, "--keys-file", keys, "add", "Ann", private)
    assert code == 1 and "not an SSH public key" in err
    assert not keys.exists()


def test_remove_takes_every_key_of_the_player_out(tmp_path, capsys):
    keys = tmp_path / "authorized_keys"
    for who, name in (("ann", "Ann"), ("laptop", "Ann"), ("bob", "Bob")):
        run(capsys, "--keys-file", keys, "add", name, make_key(tmp_path, who))
    code, out, _ = run(capsys, "--keys-file", keys, "remove", "Ann")
    assert code == 0 and "removed 2" in out
    assert keys.read_text().count("\n") == 1 and "solstis:Bob" in keys.read_text()
    assert run(capsys, "--keys-file", keys, "remove", "Ann")[0] == 1


async def test_list_shows_each_player_with_identity_and_key_fingerprints(tmp_path, capsys,
                                                                         peer):
    keys, pub = tmp_path / "authorized_keys", make_key(tmp_path, "ann")
    run(capsys, "--keys-file", keys, "add", "Ann", pub)
    run(capsys, "--keys-file", keys, "add", "Bob", make_key(tmp_path, "bob"))
    host = await start_host(tmp_path / "data", tmp_path / "host.sock",
                            trust=Trust(PLAYERS_UID, KeyRing(keys)))
    try:
        assert (await hello(host, pub.read_text()))["name"] == "Ann"
        code, out, _ = run(capsys, "--data", tmp_path / "data", "--keys-file", keys, "list")
    finally:
        await close_all(host)
    printed = subprocess.run(["ssh-keygen", "-lf", pub], capture_output=True, text=True)
    ann_print = printed.stdout.split()[1]
    rows = out.splitlines()
    assert code == 0 and len(rows) == 2 + 5  # the two players, then the five bot tiers
    assert rows[0].startswith("Ann ") and "key:Ann" in rows[0] and ann_print in rows[0]
    assert rows[1].startswith("Bob ") and "never came" in rows[1]
    assert rows[2].split() == ["random", "bot", "bot:random", "1200", "(0", "games)"]


async def test_list_shows_the_ratings_rated_games_left(tmp_path, capsys):
    from solstis_tui.host.ratings import Ratings, result_of

    ratings = Ratings(tmp_path / "data")
    ratings.open()
    ratings.record_now(result_of("t1", ("key:Ann", "bot:mcts"), 0, finished=1000.0))
    ratings.close()
    code, out, _ = run(capsys, "--data", tmp_path / "data", "list")
    mcts = next(row for row in out.splitlines() if row.startswith("mcts bot"))
    assert code == 0 and "(1 games)" in mcts and "1641" not in mcts


async def test_list_shows_a_players_correspondence_rating_beside_the_live_one(keyed, tmp_path,
                                                                             capsys):
    from solstis_tui.host.ratings import result_of

    assert (await hello(keyed, ANN))["name"] == "Ann"
    keyed.ratings.record_now(result_of("c1", ("corr:key:Ann", "corr:bot:mcts"), 0,
                                       finished=1000.0))
    listed = run(capsys, "--data", tmp_path / "data", "list")[1].splitlines()
    ann = next(row for row in listed if row.startswith("Ann"))
    assert "unrated; correspondence " in ann and "(1 games)" in ann  # no live game yet


async def test_a_barred_player_is_refused_at_the_door_until_let_back(keyed, tmp_path, capsys):
    data = tmp_path / "data"
    assert (await hello(keyed, ANN))["name"] == "Ann"
    code, out, _ = run(capsys, "--data", data, "--keys-file", keyed.keys_path, "ban", "ann")
    assert code == 0 and out.startswith("key:Ann is barred")
    refused = await hello(keyed, ANN_LAPTOP)  # her other key is still her
    assert refused["code"] == "banned" and "barred you" in refused["message"]
    assert (await hello(keyed, BOB))["name"] == "Bob"
    listed = run(capsys, "--data", data, "list")[1].splitlines()
    assert [row.split()[0] for row in listed if "BARRED" in row] == ["Ann"]
    run(capsys, "--data", data, "unban", "key:Ann")
    assert (await hello(keyed, ANN))["name"] == "Ann"


async def test_barring_guest_closes_the_host_to_every_guest(keyed, tmp_path, capsys):
    run(capsys, "--data", tmp_path / "data", "ban", "guest")
    refused = await hello(keyed, STRANGER, name="Gus")
    assert refused["code"] == "banned" and "barred guests" in refused["message"]
    assert (await hello(keyed, BOB))["name"] == "Bob"


def test_the_hosts_own_account_and_unknown_names_cannot_be_barred(tmp_path, capsys):
    import json

    data = tmp_path / "data"
    data.mkdir()
    (data / "players.json").write_text(json.dumps(
        {"version": 2, "players": {"c" * 22: {"name": "Owner", "seen": 1.0}}}))
    code, _, err = run(capsys, "--data", data, "ban", "Owner")
    assert code == 1 and "host's own account" in err
    code, _, err = run(capsys, "--data", data, "ban", "Nobody")
    assert code == 1 and "no player here is called Nobody" in err
    assert not (data / "bans").exists()


def test_an_unreadable_players_database_is_reported_and_left_alone(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    broken = b"not a database, but someone's players" * 100
    (data / "players.db").write_bytes(broken)
    code, _, err = run(capsys, "--data", data, "list")
    assert code == 1 and "is not a players database" in err
    assert (data / "players.db").read_bytes() == broken and not list(data.glob("*corrupt*"))

"""A name belongs to its identity: renaming keeps the old names the player's own."""

from __future__ import annotations

import pytest

from .conftest import start_host
from .identities import ANN, BOB, STRANGER, close_all, hello

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


async def rename(client, name: str) -> dict:
    await client.send({"type": "rename", "name": name})
    while (said := await client.receive())["type"] not in ("renamed", "error"):
        pass
    return said


async def test_a_renamed_player_keeps_their_old_name_from_others_and_their_seats_show_it(
        keyed):
    ann = (await hello(keyed, ANN))["client"]
    await ann.send({"type": "create", "variant": "base", "opponent": "greedy", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    assert (await rename(ann, "Annie"))["name"] == "Annie"
    assert keyed.tables[table].seats[0].name == "Annie"
    assert (await hello(keyed, ANN))["name"] == "Annie"  # her key is Annie now
    bob = (await hello(keyed, BOB))["client"]
    for taken in ("Ann", "ANNIE", "Ann\u00efe"):  # her old name, her name, a look-alike
        assert (await rename(bob, taken))["code"] == "name_taken"


async def test_a_rename_survives_a_restart(keyed, tmp_path):
    ann = (await hello(keyed, ANN))["client"]
    await rename(ann, "Annie")
    await close_all(keyed)
    from solstis_tui.host.identity import KeyRing, Trust

    from .identities import PLAYERS_UID

    again = await start_host(tmp_path / "data", tmp_path / "again.sock",
                             trust=Trust(PLAYERS_UID, KeyRing(keyed.keys_path)))
    try:
        assert (await hello(again, ANN))["name"] == "Annie"
        assert again.players.name_taken("Ann")
    finally:
        await close_all(again)


async def test_guests_cannot_rename_and_a_bad_name_changes_nothing(keyed):
    guest = (await hello(keyed, STRANGER, name="Gus"))["client"]
    assert (await rename(guest, "Gustav"))["code"] == "bad_name"
    ann = (await hello(keyed, ANN))["client"]
    assert (await rename(ann, "Y\u043eu"))["code"] == "bad_name"
    assert (await hello(keyed, ANN))["name"] == "Ann"


async def test_one_rename_a_minute(keyed):
    ann = (await hello(keyed, ANN))["client"]
    assert (await rename(ann, "Annie"))["type"] == "renamed"
    assert (await rename(ann, "Ann"))["code"] == "too_many"


async def test_n_in_the_lobby_renames_you(keyed):
    from solstis_tui.client.app import OnlineApp

    from .helpers import assert_shown, until

    app = OnlineApp(socket=keyed.socket_path, ssh_key=ANN)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.player_name == "Ann", pilot)
        await pilot.press("n", *"Annie", "enter")
        await until(lambda: app.player_name == "Annie", pilot)
        assert_shown(app, "You are Annie.")

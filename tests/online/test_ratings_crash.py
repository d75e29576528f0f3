"""kill -9 at the host, at moments of a rated game: no finished game is lost and no rating
change is applied twice (a real host process, killed and started again)."""

from __future__ import annotations

import asyncio
import getpass
import sqlite3

from solstis_tui.client.client import HostClient
from solstis_tui.host.identity import key_line

from .identities import ANN
from .test_storage import solstis, stop, wait_listening

GAMES = 3


def start(tmp_path):
    keys = tmp_path / "keys"
    keys.write_text(key_line(ANN, "Ann") + "\n")
    proc = solstis("host", "--socket", str(tmp_path / "host.sock"), "--data",
                   str(tmp_path / "data"), "--bot-workers", "1", "--bot-seconds", "0.05",
                   "--players-account", getpass.getuser(), "--keys-file", str(keys))
    wait_listening(proc)
    return proc


async def play(sock, moves: int | None) -> bool:
    """Ann (by her key) plays her rated game against the random bot, creating it if she
    sits at none, for ``moves`` of her decisions (None: to the end); whether it is over."""
    client = await HostClient.connect(sock)
    client.ssh_key = ANN
    try:
        welcome = await client.hello()
        states = {}  # the host sends the state of each table she sits at
        for _ in welcome["seated"]:
            state = await client.receive_until("state")
            states[state["table"]] = state
        unfinished = [s for s in states.values() if not s["observation"]["is_over"]]
        if unfinished:
            state = unfinished[0]
        else:
            await client.send({"type": "create", "variant": "base", "opponent": "random",
                               "seat": 0, "rated": True})
            state = await client.receive_until("state")
        table, made = state["table"], 0
        while True:
            obs = state["observation"]
            if obs["is_over"]:
                return True
            if obs["legal_moves"]:
                if moves is not None and made >= moves:
                    return False
                await client.send({"type": "move", "table": table,
                                   "move": obs["legal_moves"][0], "seq": len(obs["history"])})
                made += 1
            state = await client.receive_until("state", table=table)
    finally:
        await client.close()


def stored(tmp_path) -> tuple[int, dict[str, int]]:
    with sqlite3.connect(tmp_path / "data" / "ratings.db") as db:
        (results,) = db.execute("SELECT count(*) FROM results").fetchone()
        games = dict(db.execute("SELECT identity, games FROM ratings").fetchall())
    return results, games


def test_kill_9_mid_game_and_at_its_end_records_each_rated_game_once(tmp_path):
    sock = tmp_path / "host.sock"
    finished = 0
    for game in range(GAMES):
        host = start(tmp_path)
        try:
            assert not asyncio.run(play(sock, moves=3 + game))  # killed mid-game
        finally:
            host.kill()
            host.wait(30)
        host = start(tmp_path)
        try:
            assert asyncio.run(play(sock, moves=None))  # the same game, to its end
            finished += 1
        finally:
            host.kill()  # as the game ends: its result may or may not be in yet
            host.wait(30)
    host = start(tmp_path)  # records what the kills left unrecorded
    stop(host)
    assert stored(tmp_path) == (finished, {"key:Ann": finished, "bot:random": finished})

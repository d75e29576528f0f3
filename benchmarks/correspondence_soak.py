"""Correspondence games over days of the host's time, across restarts and kill -9.

Run: python benchmarks/correspondence_soak.py [--games 100] [--seed 1] [--kills 2]

The host runs in its own process, its clock read from a file the driver writes (the
"injected clock": days pass in a moment). 200 players play 100 correspondence games
(1, 2, 3 and 7 days a move, in turn) by rounds: each round moves the clock on 2 to 20
hours, then
- every waiting player whose opponent's days ran out (by the driver's own model of the
  deadlines) claims the game; each other waiting player tries a claim one time in five,
  which must be refused;
- each player to move plays their whole turn, four times in five (one game in ten has
  a player who stops moving for good, so that its opponent claims).
Every tenth round the host is stopped and started again; ``--kills`` times it is killed
(SIGKILL) in the middle of a round, with moves sent and not yet answered. After each
start every player comes back by their resume code.

Checked, and reported: every game is there after every start, and none loses a move the
host had answered; every time left the host states equals the model's (a deadline is a
date, kept across restarts, and one that passed while the host was down gets an hour
from the start, one that passed while it ran stays passed: see
host.tables.restart_clocks); every claim is accepted exactly when
the model says it is due; every finished game's result is in the ratings database.
Targets (issue 63): 0 lost, clocks right, claims only when due.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solstis_tui.client.client import HostClient, HostError
from solstis_tui.host.tables import RESTART_GRACE
from solstis_tui.wire.protocol import DAY, PACES

START = 2_000_000_000.0  # the host's time at the start (the clock file's first value)


# ---------------------------------------------------------------------- the host's side
def host_process(data: str, sock: str, clock_file: str) -> None:
    """Run a host whose clock is ``clock_file``'s number, until SIGTERM (a clean stop)."""
    from solstis_tui.host.host import Host
    from solstis_tui.host.limits import Limits

    def clock() -> float:
        return float(Path(clock_file).read_text())

    async def serve() -> None:
        limits = Limits(max_connections=1000, new_names_per_minute=1e6,
                        new_tables_per_minute=1e6, message_rate=1000.0,
                        message_burst=10_000.0, max_open_tables=1000)
        host = Host(Path(data), limits=limits, clock=clock, bot_workers=1)
        await host.serve_unix(Path(sock))
        print("listening", flush=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        await host.close()

    asyncio.run(serve())


class HostRun:
    """The host process: started, stopped cleanly, or killed."""

    def __init__(self, tmp: Path) -> None:
        self.data, self.sock, self.clock_file = tmp / "data", tmp / "host.sock", tmp / "now"
        self.proc: subprocess.Popen[bytes] | None = None
        self.now = START
        self.now_of_kill = START  # the host's time when it was last killed
        self.alive: float | None = None  # when the stopped host last noted it ran
        self.set_clock(START)

    def set_clock(self, now: float) -> None:
        self.now = now
        part = self.clock_file.with_suffix(".new")
        part.write_text(repr(now))
        os.replace(part, self.clock_file)

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--host-process", str(self.data), str(self.sock),
             str(self.clock_file)], stdout=subprocess.PIPE)
        assert self.proc.stdout is not None
        if b"listening" not in self.proc.stdout.readline():
            raise SystemExit("the host did not start")

    def stop(self, kill: bool = False) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        self.proc.wait(60)
        try:  # the host's own note (see host.tables.restart_clocks)
            self.alive = float((self.data / "tables" / "alive").read_text())
        except (OSError, ValueError):
            self.alive = None


# ---------------------------------------------------------------------- the players' side
@dataclass
class Player:
    name: str
    code: str = ""
    client: HostClient | None = None
    states: dict[str, dict[str, Any]] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    errors: list[dict[str, Any]] = field(default_factory=list)
    joined: list[str] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None

    async def connect(self, sock: Path) -> None:
        client = await HostClient.connect(sock)
        welcome = await client.hello(None if self.code else self.name, self.code or None)
        self.code, self.client = welcome["code"], client
        self.states.clear()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.client is not None
        with contextlib.suppress(HostError, OSError, ConnectionError):
            while True:
                message = await self.client.receive()
                if message.get("type") == "state":
                    self.states[message["table"]] = message
                elif message.get("type") == "error":
                    self.errors.append(message)
                elif message.get("type") == "joined":
                    self.joined.append(message["table"])
                self.changed.set()

    async def until(self, check: Any, safety: float = 60.0) -> Any:
        """Wait for the messages that make ``check()`` true (its value)."""
        async with asyncio.timeout(safety):
            while not (value := check()):
                self.changed.clear()
                await self.changed.wait()
            return value

    def send(self, message: dict[str, Any]) -> None:
        assert self.client is not None
        self.client.post(message)

    def hang_up(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        if self.client is not None:
            self.client.hang_up()


@dataclass
class Game:
    """One game and the driver's model of its clock."""

    days: int
    players: tuple[Player, Player]
    table: str = ""
    since: float = 0.0  # when the pending decision's days began (the model)
    moves: int = 0  # moves the host has answered
    over: bool = False
    quitter: int | None = None  # the seat that stops moving for good (one game in ten)
    quits_at: int = 0

    def deadline(self) -> float:
        return self.since + self.days * DAY


@dataclass
class Tally:
    claims_refused_early: int = 0
    claims_accepted_due: int = 0
    wrong_claims: list[str] = field(default_factory=list)
    clock_checks: int = 0
    wrong_clocks: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    restarts: int = 0
    kills: int = 0
    moves: int = 0


async def open_games(run: HostRun, count: int, rand: random.Random) -> list[Game]:
    games = []
    for i in range(count):
        a, b = Player(f"A{i}"), Player(f"B{i}")
        await a.connect(run.sock)
        await b.connect(run.sock)
        game = Game(PACES[i % len(PACES)], (a, b))
        a.send({"type": "create", "opponent": "friend", "seat": 0, "days": game.days})
        game.table = await a.until(lambda a=a: a.joined and a.joined[-1])
        b.send({"type": "join", "table": game.table})
        await b.until(lambda b=b: b.joined)
        game.since = run.now  # both seated: the clock runs
        if i % 10 == 0:
            game.quitter, game.quits_at = rand.randrange(2), rand.randrange(4, 40)
        games.append(game)
    return games


def state_of(game: Game, seat: int) -> dict[str, Any] | None:
    return game.players[seat].states.get(game.table)


async def settle(game: Game, seat: int, now: float, tally: Tally) -> dict[str, Any]:
    """The state ``seat`` holds once it shows the game as the host has it now."""
    player = game.players[seat]
    return await player.until(lambda: (s := state_of(game, seat)) is not None
                              and len(s["observation"]["history"]) >= game.moves and s)


def check_clock(game: Game, state: dict[str, Any], now: float, tally: Tally) -> None:
    if state["observation"]["is_over"]:
        return
    expected = max(0, round(game.deadline() - now))
    tally.clock_checks += 1
    if state["time_left"] != expected:
        tally.wrong_clocks.append(f"{game.table}: host says {state['time_left']} s left, "
                                  f"the model {expected} s (move {game.moves})")


async def claim(game: Game, seat: int, now: float, tally: Tally) -> None:
    """The waiting ``seat`` claims; the host must agree with the model."""
    player = game.players[seat]
    due = now > game.deadline()
    errors = len(player.errors)
    player.send({"type": "claim", "table": game.table})
    if due:
        state = await player.until(lambda: ((s := state_of(game, seat)) and
                                            s["observation"]["is_over"] and s)
                                   or len(player.errors) > errors)
        if state is True or not isinstance(state, dict):
            tally.wrong_claims.append(f"{game.table}: a due claim was refused "
                                      f"({player.errors[-1].get('message')})")
            return
        tally.claims_accepted_due += 1
        game.over = True
    else:
        await player.until(lambda: len(player.errors) > errors
                           or bool((s := state_of(game, seat)) and s["observation"]["is_over"]))
        if len(player.errors) > errors and player.errors[-1].get("code") == "too_early":
            tally.claims_refused_early += 1
        else:
            tally.wrong_claims.append(f"{game.table}: a claim {game.deadline() - now:.0f} s "
                                      "early was not refused")
            game.over = True


async def play_turn(game: Game, seat: int, now: float, rand: random.Random,
                    tally: Tally, answered: bool = True) -> None:
    """``seat`` plays its whole turn (with ``answered`` False: sends one move and does not
    wait for the host: the kill comes next)."""
    player = game.players[seat]
    while True:
        state = await settle(game, seat, now, tally)
        obs = state["observation"]
        if obs["is_over"]:
            game.over = True
            return
        if obs["to_play"] != seat:
            return
        player.send({"type": "move", "table": game.table,
                     "move": rand.choice(obs["legal_moves"]), "seq": game.moves})
        if not answered:
            return
        state = await player.until(lambda: (s := state_of(game, seat)) is not None
                                   and len(s["observation"]["history"]) > game.moves and s)
        game.moves = len(state["observation"]["history"])
        tally.moves += 1
        if state["observation"]["to_play"] != seat or state["observation"]["is_over"]:
            game.since = now  # the other player's days begin
            check_clock(game, state, now, tally)
        if state["observation"]["is_over"]:
            game.over = True
            return


async def come_back(run: HostRun, games: list[Game], tally: Tally) -> None:
    """After a start: every player reconnects by code; each game must be there with every
    move the host answered; the model takes the restart's rule for the deadlines."""
    for game in games:
        for player in game.players:
            player.hang_up()
    for game in games:
        for player in game.players:
            await player.connect(run.sock)
    for game in games:
        state = await game.players[0].until(lambda game=game: state_of(game, 0), 60)
        held = len(state["observation"]["history"])
        if held < game.moves:
            tally.lost.append(f"{game.table}: {game.moves - held} answered moves lost")
        if held > game.moves:  # a move sent before a kill landed; its answer was lost
            game.moves, game.since = held, run.now_of_kill
        game.over = bool(state["observation"]["is_over"])
        if (not game.over and game.deadline() < run.now + RESTART_GRACE
                and (run.alive is None or game.deadline() >= run.alive)):
            game.since = run.now + RESTART_GRACE - game.days * DAY
        check_clock(game, state, run.now, tally)


async def soak(args: argparse.Namespace) -> Tally:
    rand = random.Random(args.seed)
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        run = HostRun(Path(tmp))
        run.start()
        try:
            return await play_all(run, args, rand, tally)
        finally:
            with contextlib.suppress(Exception):
                run.stop(kill=True)


async def play_all(run: HostRun, args: argparse.Namespace, rand: random.Random,
                   tally: Tally) -> Tally:
    games = await open_games(run, args.games, rand)
    kill_rounds = set(rand.sample(range(3, 25), args.kills))
    round_no = 0
    while any(not g.over for g in games) and round_no < args.max_rounds:
        round_no += 1
        run.set_clock(run.now + rand.uniform(2, 20) * 3600)
        now = run.now
        kill = round_no in kill_rounds
        playing = [g for g in games if not g.over]
        for game in playing:
            state = await settle(game, 0, now, tally)
            to_play = state["observation"]["to_play"]
            waiting = 1 - to_play
            if now > game.deadline() or rand.random() < 0.2:
                await claim(game, waiting, now, tally)
        cut = rand.randrange(len(playing)) if kill else None
        for i, game in enumerate(playing):
            if game.over:
                continue
            to_play = (await settle(game, 0, now, tally))["observation"]["to_play"]
            if to_play == game.quitter and game.moves >= game.quits_at:
                continue  # gone for good: the other claims once the days run out
            if rand.random() < 0.8:
                await play_turn(game, to_play, now, rand, tally, answered=i != cut)
            if i == cut:
                break
        if kill:
            run.now_of_kill = now
            run.stop(kill=True)
            tally.kills += 1
        elif round_no % 10 == 0:
            run.stop()
            tally.restarts += 1
        else:
            continue
        run.set_clock(run.now + rand.uniform(0.1, 30) * 3600)  # down for a while
        run.start()
        await come_back(run, games, tally)
    for game in games:
        for player in game.players:
            player.hang_up()
    run.stop()
    unfinished = [g.table for g in games if not g.over]
    normal = sum(1 for g in games
                 if (s := g.players[0].states.get(g.table))
                 and s["observation"]["end_reason"] == "normal")
    db = sqlite3.connect(run.data / "ratings.db")
    recorded = {row[0] for row in db.execute("SELECT table_id FROM results")}
    db.close()
    missing = [g.table for g in games if g.over and g.table not in recorded]
    print(f"{args.games} games, {round_no} rounds ({(run.now - START) / DAY:.0f} days of "
          f"the host's time), {tally.moves} moves; {tally.restarts} restarts, "
          f"{tally.kills} kill -9; {normal} games played to their end, "
          f"{tally.claims_accepted_due} claimed on time")
    print(f"lost: {len(tally.lost)} {tally.lost[:3]}; unfinished: {len(unfinished)}; "
          f"finished but not recorded: {len(missing)} {missing[:3]}")
    print(f"clocks: {tally.clock_checks} checked, {len(tally.wrong_clocks)} wrong "
          f"{tally.wrong_clocks[:3]}")
    print(f"claims: {tally.claims_accepted_due} accepted when due, "
          f"{tally.claims_refused_early} refused before, {len(tally.wrong_claims)} wrong "
          f"{tally.wrong_claims[:3]}")
    return tally


if __name__ == "__main__":
    if sys.argv[1:2] == ["--host-process"]:
        host_process(*sys.argv[2:5])
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kills", type=int, default=2)
    parser.add_argument("--max-rounds", type=int, default=400)
    started = time.monotonic()
    asyncio.run(soak(parser.parse_args()))
    print(f"{time.monotonic() - started:.0f} s")

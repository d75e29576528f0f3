"""The turn loop without the UI: who sits where, applying moves, undo, bots and save data.

A ``Session`` wraps one ``Game`` and its two seats (``seats.Seat``: a person, or a bot
named by its spec: ``"random"``, ``"minimax"``, ``"pkg.mod:Class"`` ...). The screen asks the
session who decides next; for a person it waits for keys, for a bot it runs
``ai.base.legal_choice`` in a thread worker with an ``Observation`` (never the live game).
``Session`` implements ``session_view.SessionView``, the screens' only way to the game.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import InitVar, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from solstis_tui.ai.base import Chooser
from solstis_tui.ai.ladder import LADDER
from solstis_tui.ai.registry import make_bot
from solstis_tui.local.bot_process import BotProcess

from ..core import (
    Decision,
    Game,
    IllegalMove,
    InvalidPosition,
    Move,
    MoveKind,
    Observation,
    Options,
)
from ..core.events import Event
from ..core.explain import drawn_for_second_chance
from ..core.rng import derive, new_secret
from ..records import GameRecord, SeatRecord, record_of
from .seats import PERSON, TIER_TITLES, Seat, seats_for

#: The tiers whose search keeps a core busy: they think in a worker process.
THINKING_TIERS = frozenset({"minimax", "mcts", "expert"})
#: The tier asked for hints.
STRONGEST = "expert"


#: How strong each tier is, as the opponent list says it: its score against the tier below
#: on the ladder (solstis_tui.ai.ladder), e.g. "wins 66% vs Minimax".
STRENGTH = {"random": "any legal move"} | {
    rung.tier: f"wins {rung.percent}% vs {TIER_TITLES[rung.below].removesuffix(' bot')}"
    for rung in LADDER}


def opponent_label(tier: str) -> str:
    """A tier as the opponent list offers it, with how strong it is: 'Expert bot (2 cores)
    · wins 58% vs MCTS' also says how many processes the expert searches on."""
    from solstis_tui.ai.expert import usable_cores

    title = TIER_TITLES[tier]
    cores = usable_cores()
    if tier == "expert" and cores > 1:
        title = f"{title} ({cores} cores)"
    return f"{title} · {STRENGTH[tier]}" if tier in STRENGTH else title


@dataclass(frozen=True)
class Setup:
    """Everything needed to start (or replay) a game."""

    variant: str = "base"
    seed: int = 0
    seats: tuple[Seat, Seat] = (PERSON, Seat("minimax"))
    """Who plays each seat (text is read as ``Seat.parse`` reads it: 'human' or a spec)."""
    names: tuple[str, str] = ("", "")
    secret: bool = False
    """The seed was drawn by the program (128 bits from the OS): never shown while playing,
    since it gives the whole deal away. False for a seed the person chose."""
    legacy: bool = False
    """Dealt the way games saved in save version 1 were (SplitMix64): only for those."""

    def __post_init__(self) -> None:
        seats: tuple[Seat | str, ...] = self.seats
        if len(seats) != 2:
            raise ValueError("a game has two seats")
        first, second = (s if isinstance(s, Seat) else Seat.parse(s) for s in seats)
        object.__setattr__(self, "seats", (first, second))

    @property
    def options(self) -> Options:
        return Options.for_variant(self.variant)

    def seat_name(self, player: int) -> str:
        """What the screens call ``player``: a given name; 'You' against a bot, 'Player 1/2'
        when two people share the screen; a bot's title (numbered when both seats hold the
        same bot)."""
        given = self.names[player]
        if given:
            return given
        seat = self.seats[player]
        if seat.is_person:
            return f"Player {player + 1}" if self.seats.count(PERSON) == 2 else "You"
        if PERSON not in self.seats and self.seats[0] == self.seats[1]:
            return f"{seat.title} {player + 1}"
        return seat.title

    def swapped(self, new_seed: int | None = None) -> Setup:
        """The same opponents in swapped seats, on the same deal (``new_seed`` None) or
        dealt from ``new_seed`` (a chosen seed: not secret)."""
        return replace(
            self,
            seats=(self.seats[1], self.seats[0]),
            names=(self.names[1], self.names[0]),
            seed=self.seed if new_seed is None else new_seed,
            legacy=self.legacy and new_seed is None,
            secret=self.secret if new_seed is None else False,
        )

    def rematch(self) -> Setup:
        """The same opponents in swapped seats on a new secret deal: with the same deal,
        each would know the other's opening hand (their own last time) and the piles."""
        return replace(self.swapped(new_secret()), secret=True)


def random_setup(opponent: str = "minimax", variant: str = "base",
                 seed: int | None = None, rng: random.Random | None = None) -> Setup:
    """A person against ``opponent`` with random seats and ``seed`` (None: a secret one)."""
    rng = rng or random.Random()
    seats = seats_for("play", opponent, person_first=rng.random() < 0.5)
    if seed is None:
        return Setup(variant=variant, seed=new_secret(), seats=seats, secret=True)
    return Setup(variant=variant, seed=seed, seats=seats)


@dataclass(frozen=True)
class KeptRecord:
    """A finished game's record, where it was written (None: it could not be), and why
    not (the system's words)."""

    record: GameRecord
    path: Path | None
    problem: str = ""


@dataclass
class Session:
    """One game in progress and its seats; no Textual in here."""

    setup: Setup
    position: InitVar[Game | None] = None
    """The position to play on from (a save's snapshot); None deals a new game."""
    game: Game = field(init=False)
    on_change: Callable[[Session], None] | None = None
    bots: dict[int, Chooser] = field(default_factory=dict)
    load_warning: str = ""
    """Set by ``from_save`` when the save was not quite right (but a game could be rebuilt)."""
    snapshots: list[Game] = field(default_factory=list)
    """The game just before each decision a person made, oldest first: what undo goes back
    to (a copy is cheap; nothing is replayed)."""
    version: int = field(default=0, init=False)
    """Moves on at every change of the game (see ``SessionView.version``)."""
    keeps_record = True
    """A finished game of this session is kept as a record (not a tutorial's)."""
    keep_to: Callable[[GameRecord], Path] | None = None
    """Where a finished game's record is written (``record_files.keep``; None: nowhere):
    the session keeps it the moment the engine ends the game (``kept``)."""
    kept: KeptRecord | None = field(default=None, init=False)
    """The record kept when the game ended (None: not over, or none to keep)."""
    save_to: Callable[[Session], object] | None = None
    """Saves the game after each change (``saves.save``; None: not saved here)."""
    save_error: OSError | None = field(default=None, init=False)
    """Why the last save failed (None: it did, or none was asked for)."""
    autosaves = True
    """The app autosaves this game (not a practice game: the save is the player's game)."""
    origin: Game = field(init=False)
    """The game this session's moves start from: the deal, or the position a save was
    rebuilt from when its moves did not replay (such a game has no record, and no review)."""

    def __post_init__(self, position: Game | None) -> None:
        self.game = position if position is not None else self.new_game()
        self.origin = self.game.copy()

    # -------------------------------------------------------------- seats and names
    def is_human(self, player: int) -> bool:
        return self.setup.seats[player].is_person

    @property
    def humans(self) -> list[int]:
        return [p for p in (0, 1) if self.is_human(p)]

    @property
    def is_hotseat(self) -> bool:
        return len(self.humans) == 2

    @property
    def is_watch(self) -> bool:
        return not self.humans

    @property
    def human_to_play(self) -> bool:
        return not self.game.is_over and self.is_human(self.game.to_play)

    @property
    def assists(self) -> bool:
        """Undo and hints are offered: not in hot-seat (the other person is watching)."""
        return not self.is_hotseat

    @property
    def takeback(self) -> Session | None:
        """Undo and taking a capturing tile back: this session offers them."""
        return self

    @property
    def local_bots(self) -> Session:
        """Its bots decide in this program."""
        return self

    def name(self, player: int) -> str:
        """'You' against a bot; the bot's title; 'Player 1/2' in hot-seat and watch mode."""
        return self.setup.seat_name(player)

    @property
    def variant(self) -> str:
        return self.setup.variant

    def deal_label(self) -> str:
        setup = self.setup
        return "secret deal" if setup.secret else f"seed {setup.seed} (chosen, not secret)"

    # -------------------------------------------------------------- moves
    def apply(self, move: Move) -> None:
        """Play ``move`` for whoever is to decide; IllegalMove (no change) if not allowed."""
        before = self.game.copy() if self.human_to_play else None
        self.game.play(move)
        if before is not None:
            self.snapshots.append(before)
        self.changed()

    def changed(self) -> None:
        """The game changed: a new ``version``; it is saved (``save_to``), and a game the
        engine has just ended is kept as a record; then ``on_change`` is told."""
        self.version += 1
        if self.autosaves and self.save_to is not None:
            try:
                self.save_to(self)
                self.save_error = None
            except OSError as exc:  # said by the screen; the game goes on
                self.save_error = exc
        if self.game.is_over and self.kept is None:
            self.kept = self._keep()
        if self.on_change is not None:
            self.on_change(self)

    def _keep(self) -> KeptRecord | None:
        """Write the finished game's record (``keep_to``); what was kept, or why not. None
        for a game that keeps none, or whose moves do not replay (rebuilt from a damaged
        save: it has no record)."""
        if not self.keeps_record or self.keep_to is None:
            return None
        try:
            record = self.record()
        except ValueError:
            return None
        try:
            return KeptRecord(record, self.keep_to(record))
        except OSError as exc:
            return KeptRecord(record, None, exc.strerror or str(exc))

    def moves(self) -> list[Move]:
        """The decisions actually made (auto-applied ones left out), in order."""
        return [mv for _, mv, auto in self.game.history if not auto]

    def new_game(self) -> Game:
        """The game as dealt from the seed, before any move."""
        return Game.new(self.setup.seed, self.setup.options, legacy=self.setup.legacy)

    def replay(self, moves: list[Move]) -> Game:
        """A new game as dealt with ``moves`` made in order (IllegalMove if one fails)."""
        game = self.new_game()
        for mv in moves:
            game.play(mv)
        return game

    def can_undo(self) -> bool:
        """A person can take back their last decision: against bots (not in hot-seat, where
        the other person is watching), once they have made one."""
        return not self.is_hotseat and bool(self.humans) and bool(self.snapshots)

    def undo(self) -> bool:
        """Back to just before the person's last decision; False if there is none."""
        if not self.can_undo():
            return False
        self.game = self.snapshots.pop()
        self.changed()
        return True

    def can_take_back_play(self) -> bool:
        """Esc would return the tile a person just played to capture with to their hand
        (not after a second-chance draw: the drawn tile is face up)."""
        game = self.game
        if not self.snapshots or not game.history or game.decision is not Decision.CAPTURE:
            return False
        player, mv, auto = game.history[-1]
        if auto or mv.kind is not MoveKind.PLAY or not self.is_human(player):
            return False
        return not drawn_for_second_chance(game)

    def take_back_play(self) -> bool:
        """Esc after playing a capturing tile: return it to the hand (nothing was revealed)."""
        if not self.can_take_back_play():
            return False
        self.game = self.snapshots.pop()
        self.changed()
        return True

    # -------------------------------------------------------------- bots
    def bot(self, player: int) -> Chooser:
        """The bot sitting in ``player``'s seat (made once, seeded from the game seed). The
        searching tiers think in a worker process (``BotProcess``); the quick ones and a
        person's own bot class think where they are asked."""
        if player not in self.bots:
            seed = derive(self.setup.seed, b"bot", player)  # the bot cannot leak the seed
            seat = self.setup.seats[player]
            if seat.bot is None:
                raise LookupError(f"a person plays seat {player}")
            if seat.tier in THINKING_TIERS:
                self.bots[player] = BotProcess(seat.bot, seed)
            else:
                self.bots[player] = make_bot(seat.bot, seed)
        return self.bots[player]

    def close_bots(self) -> None:
        """Stop the bots' worker processes, if any (they start again if asked to play)."""
        for bot in self.bots.values():
            close = getattr(bot, "close", None)
            if close is not None:
                close()

    def observation(self, player: int) -> Observation:
        """What seat ``player`` sees (either seat: the screen picks whose view it shows)."""
        return self.game.observation(player)

    def shown_log(self, player: int) -> tuple[Event, ...]:
        """The log a screen showing seat ``player`` may narrate (see ``SessionView``)."""
        if self.is_watch:
            return tuple(self.game.log)  # bots on both seats: everything, by design
        return self.game.observation(player, spectator=self.is_hotseat).log

    def forget_bot(self, player: int) -> None:
        """Drop ``player``'s bot: the next ``bot`` call makes it afresh."""
        self.bots.pop(player, None)

    def fallback_move(self) -> Move:
        """A legal move to continue with when a bot fails (random, from the game seed)."""
        legal = self.game.legal_moves()
        seed = derive(self.setup.seed, b"fallback", len(self.game.history))
        return random.Random(seed).choice(legal)

    # -------------------------------------------------------------- save data
    def record(self, date: datetime | None = None) -> GameRecord:
        """The finished game as a record (``records``), seats named as the screens name
        them; ValueError if it is not over or its moves do not replay from its deal."""
        from .. import __version__

        seats = (SeatRecord(self.name(0), str(self.setup.seats[0])),
                 SeatRecord(self.name(1), str(self.setup.seats[1])))
        return record_of(self.game, seats, date or datetime.now(UTC),
                         program=f"solstis {__version__}", legacy=self.setup.legacy)

    def to_save(self) -> dict[str, Any]:
        """Save data: the setup and the move list (replayable), plus a state snapshot.
        Version 2 games are dealt by the keyed generator; version 1 by SplitMix64."""
        data: dict[str, Any] = {
            "format": "solstis-save",
            "version": 1 if self.setup.legacy else 2,
            "variant": self.setup.variant,
            "seed": self.setup.seed,
            "secret": self.setup.secret,
            "seats": [str(seat) for seat in self.setup.seats],
            "names": list(self.setup.names),
            "moves": [str(mv) for mv in self.moves()],
            "turn": self.game.turn,
            "finished": self.game.is_over,
            "snapshot": self.game.to_json(),
        }
        return data

    @classmethod
    def from_save(cls, data: dict[str, Any]) -> Session:
        """Rebuild a session from ``to_save`` data; ValueError says what is wrong."""
        if not isinstance(data, dict) or data.get("format") != "solstis-save":
            raise ValueError("this is not a Solstis save file")
        version = data.get("version")
        if version not in (1, 2):
            raise ValueError(f"unknown save version {version!r}")
        try:
            seats, names = _pair(data["seats"]), _pair(data.get("names", ["", ""]))
            first, second = Seat.parse(seats[0]), Seat.parse(seats[1])
            # A version 1 save does not say whether its seed was chosen: never show it.
            secret = data.get("secret", True) if version == 2 else True
            if not isinstance(secret, bool):
                raise ValueError("the save's 'secret' must be true or false")
            setup = Setup(variant=str(data["variant"]), seed=int(data["seed"]),
                          seats=(first, second), names=names,
                          secret=secret, legacy=version == 1)
            moves = [Move.parse(text) for text in data["moves"]]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"the save misses or garbles {exc}") from None
        session = cls(setup)
        snapshot = data.get("snapshot")
        try:
            for mv in moves:
                session.apply(mv)
        except IllegalMove as exc:
            if not snapshot:
                raise ValueError(f"the saved moves do not replay: {exc}") from None
            try:
                rebuilt = Game.from_json(snapshot)
            except InvalidPosition as exc2:
                raise ValueError(f"the saved game cannot be rebuilt: {exc2}") from None
            session = cls(setup, position=rebuilt)
            session.load_warning = (
                f"The save's moves do not replay ({exc}): it may have been edited or made by "
                "another version; continuing from its snapshot (undo and the review reach "
                "back to here).")
            return session
        if snapshot and not same_position(session.game, snapshot):
            session.load_warning = (
                "The save's moves and its snapshot disagree: it may have been edited or made "
                "by another version; continuing from the replayed moves.")
        return session


def _pair(value: object) -> tuple[str, str]:
    """A save's pair of seats or names; ValueError unless it is a list of two."""
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("a save needs two seats")
    return str(value[0]), str(value[1])


def same_position(game: Game, snapshot: Any) -> bool:
    """Whether ``snapshot`` (``Game.to_json`` text) describes exactly ``game``, up to the
    order of events within the log (saves made before rules.md settled the order of a
    capture's two tiles log them the other way round; the position is the same)."""
    try:
        stored = json.loads(snapshot) if isinstance(snapshot, str) else snapshot
        current = json.loads(game.to_json())
        if not isinstance(stored, dict):
            return False
        stored = dict(stored)  # the caller's dict stays as it was
        logs = (current.pop("log", []), stored.pop("log", []))
        return bool(current == stored and _events(logs[0]) == _events(logs[1]))
    except (ValueError, TypeError):  # an unreadable snapshot does not match
        return False


def _events(log: Any) -> Counter[str]:
    """The events of a logged game, as a multiset (their order left out)."""
    return Counter(json.dumps(event) for event in log) if isinstance(log, list) else Counter()

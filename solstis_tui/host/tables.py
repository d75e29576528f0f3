"""Tables the host owns: a game, two seats, who watches; saved after every change."""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core import EndReason, Game, InvalidPosition, Options
from ..core.moves import PLAY_KIND
from ..core.serialize import game_to_dict
from ..files import keep_aside, write_atomic
from ..wire.protocol import (
    BANK_INCREMENT,
    DAY,
    DEFAULT_BANK,
    DEFAULT_CLOCK,
    PACES,
    ProtocolError,
)

log = logging.getLogger("solstis.host")
TABLE_FILE = re.compile(r"t[^.]*\.json")  # not one kept aside (t….corrupt-….json)
ALIVE_FILE = "alive"  # when the host last noted it was running (see restart_clocks)


#: Decisions each player must have made before a game counts in the ratings: fewer, and
#: its end (a resignation, a claim, a forfeit) is an abandoned game, not a result.
MIN_DECISIONS = 5
#: Watchers a table remembers (so that they may read its record): later ones still watch.
MAX_WATCHERS = 100
#: After a start, a correspondence decision has at least this long left (see
#: ``restart_clocks``): a host down for a night costs nobody their game.
RESTART_GRACE = 3600.0


@dataclass
class Seat:
    """A seat: a person (``name`` and their secret resume ``code``), a bot tier, or open.
    ``identity`` is who sits there for ratings (``key:…``, ``user:…``, ``bot:<tier>``;
    None: a guest, or the host's own account)."""

    name: str | None = None
    code: str | None = None
    bot: str | None = None
    identity: str | None = None
    #: an open seat kept for the player with this code (a rematch offered to them): only
    #: they may take it
    kept_for: str | None = None

    @property
    def is_open(self) -> bool:
        return self.code is None and self.bot is None


@dataclass
class Table:
    """One game at the host."""

    id: str
    game: Game
    seats: list[Seat]
    created: float = field(default_factory=time.time)
    last_active: float = field(default_factory=time.time)
    rated: bool = False  # the result changes both players' ratings (see ratings)
    #: what the finished rated game did to each seat's rating, as shown ("+14 → 1594"),
    #: once it is recorded (not saved: a restarted host shows the ratings only)
    changes: tuple[str, str] | None = field(default=None, compare=False)
    #: the move clock: seconds the player to move has for each decision (see Host claim)
    clock: float = DEFAULT_CLOCK
    #: when the decision now pending began (a move played, or the second player sat down)
    decision_since: float = field(default_factory=time.time)
    #: the time bank: seconds each player has for the whole game (see ``start_decision``)
    bank: float = DEFAULT_BANK
    #: what is left of each player's bank, as it stood when their pending decision began
    banks: tuple[float, float] = (DEFAULT_BANK, DEFAULT_BANK)
    #: the game's own id, never reused (table ids are: see ratings); "" takes the table's
    #: id (files of older hosts, whose results were kept by table id)
    game_id: str = ""
    #: whether the finished game's result is in the ratings database (not saved: read at
    #: start); until it is, the table is kept (see Housekeeping)
    recorded: bool = field(default=False, compare=False)
    #: who watched the game while it was played (``archive.reader_key``s, at most
    #: ``MAX_WATCHERS``): they may read its record once it is over
    watchers: tuple[str, ...] = ()
    #: the game id of the finished game this table is a rematch of ("" for none)
    rematch_of: str = ""
    #: at a rated table, decided when its second person sits down (and said to both):
    #: why the game will be played unrated (``rating_rules.PAIR`` or ``PROVISIONAL``; "":
    #: it counts; None: not decided, as at a bot's table or in an older file: the rules
    #: then apply when it is recorded)
    unrated: str | None = None
    #: a correspondence game's days a move (1, 2, 3 or 7; see ``wire.protocol.PACES``):
    #: ``clock`` is then that many days, no bank runs, and the clock runs from the moment
    #: both seats are taken, whether or not anyone is connected. 0: a live game.
    days: int = 0

    def __post_init__(self) -> None:
        if not self.game_id:
            self.game_id = self.id

    @property
    def correspondence(self) -> bool:
        """Whether the game is played at days a move (its own rating pool, no bank)."""
        return self.days > 0

    @property
    def variant(self) -> str:
        return self.game.options.variant

    def seat_of(self, code: str | None) -> int | None:
        """The seat of the player with resume ``code`` (None: nobody's)."""
        if code is None:
            return None
        for i, seat in enumerate(self.seats):
            if seat.code == code:
                return i
        return None

    def decisions(self, seat: int) -> int:
        """How many decisions the player at ``seat`` has made in this game (a move the
        engine applied by itself, having one legal option, is nobody's decision)."""
        return sum(1 for player, _move, auto in self.game.history
                   if player == seat and not auto)

    def played(self) -> bool:
        """Whether each player has made ``MIN_DECISIONS`` decisions: a game that ends
        before that was abandoned, not played, and moves no rating (docs/ratings.md)."""
        return all(self.decisions(seat) >= MIN_DECISIONS for seat in (0, 1))

    def bank_left(self, seat: int, now: float) -> float:
        """Seconds left in the bank of the player at ``seat`` ``now`` (their pending
        decision's time so far taken off while the clocks run)."""
        if self.correspondence:
            return float("inf")  # no bank: each move has its days
        left = self.banks[seat]
        if self.clocks_run() and seat == self.game.to_play:
            left -= now - self.decision_since
        return left

    def time_left(self, now: float) -> float:
        """Seconds before the player to move runs out of time: of their decision's clock
        or of their bank, whichever is first (only meaningful while the clocks run)."""
        return min(self.decision_since + self.clock - now,
                   self.bank_left(self.game.to_play, now))

    def start_decision(self, before: Table, now: float) -> None:
        """This table is ``before`` with its pending decision answered (or the game over):
        the next decision's time starts ``now``. If the clocks ran, the decider's bank
        loses the time the decision took and gains ``BANK_INCREMENT`` a tile they played."""
        if before.clocks_run() and not before.correspondence:
            seat = before.game.to_play
            new = self.game.history[len(before.game.history):]
            plays = sum(1 for p, move, _auto in new if p == seat and move.kind == PLAY_KIND)
            banks = list(before.banks)
            banks[seat] += plays * BANK_INCREMENT - (now - before.decision_since)
            self.banks = (banks[0], banks[1])
        self.decision_since = now

    def clocks_run(self) -> bool:
        """Whether the move clock runs: once both players have made a first decision in
        this game (a player who never sat down to play can never lose on time), while
        it is not over. A correspondence clock runs from the moment both seats are
        taken: sitting down at such a table is agreeing to its days a move."""
        if self.status() != "playing":
            return False
        return self.correspondence or all(self.decisions(s) > 0 for s in (0, 1))

    def deadline(self) -> float:
        """When the pending decision's own clock runs out (the host's time)."""
        return self.decision_since + self.clock

    def waits_for(self, code: str | None) -> bool:
        """Whether the game is waiting for a decision of the player with ``code``."""
        return (self.status() == "playing" and code is not None
                and self.seats[self.game.to_play].code == code)

    def counts(self) -> bool:
        """Whether the game's end would move ratings now: a rated table, played, and not
        told it will be played unrated."""
        return self.rated and self.played() and not self.unrated

    def copy(self) -> Table:
        """A table to change in this one's place: its own game and seats; everything else
        is a value, shared."""
        return replace(self, game=self.game.copy(), seats=[replace(s) for s in self.seats])

    def status(self) -> str:
        if self.game.is_over:
            return "over"
        return "open" if any(s.is_open for s in self.seats) else "playing"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game_id": self.game_id,
            "created": self.created,
            "last_active": self.last_active,
            "seats": [{"name": s.name, "code": s.code, "bot": s.bot, "identity": s.identity,
                       "kept_for": s.kept_for} for s in self.seats],
            "game": game_to_dict(self.game),  # an ended game keeps how it ended
            "rated": self.rated,
            "clock": self.clock,
            "decision_since": self.decision_since,
            "bank": self.bank,
            "banks": list(self.banks),
            "watchers": list(self.watchers),
            "rematch_of": self.rematch_of,
            "unrated": self.unrated,
            "days": self.days,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        try:
            seats = [Seat(**{k: s.get(k) for k in ("name", "code", "bot", "identity",
                                                   "kept_for")})
                     for s in data["seats"]]
            game = Game.from_json(json.dumps(data["game"]))
            table = cls(str(data["id"]), game, seats, float(data["created"]),
                        float(data["last_active"]), data.get("rated") is True,
                        game_id=str(data.get("game_id") or data["id"]))
            table.clock = float(data.get("clock", DEFAULT_CLOCK))
            table.decision_since = float(data.get("decision_since", table.last_active))
            table.bank = float(data.get("bank", DEFAULT_BANK))
            banks = [float(b) for b in data.get("banks", (table.bank, table.bank))]
            if len(banks) != 2:
                raise ValueError(f"a table has two banks, not {len(banks)}")
            table.banks = (banks[0], banks[1])
            table.watchers = tuple(str(w) for w in data.get("watchers", ()))[:MAX_WATCHERS]
            table.rematch_of = str(data.get("rematch_of") or "")
            unrated = data.get("unrated")
            table.unrated = None if unrated is None else str(unrated)
            table.days = int(data.get("days", 0))
            if table.days not in (0, *PACES):
                raise ValueError(f"a correspondence game has {PACES} days a move, not "
                                 f"{table.days}")
            if table.days:
                table.clock = table.days * DAY
            ended = data.get("ended")  # how files before version 0.2 kept it
            if ended is not None:
                reason, loser = EndReason(ended["reason"]), ended["loser"]
                if reason not in ENDINGS or loser not in (0, 1) or game.is_over:
                    raise ValueError(f"a game cannot have ended so: {ended!r}")
                end_game(table, loser, reason)
        except InvalidPosition:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidPosition(f"malformed table file: {exc!r}") from None
        if len(seats) != 2:
            raise InvalidPosition("a table has two seats")
        return table


#: How a player ends a game at the host: the losing seat resigned (or left for good during
#: the game), or the player to move ran out of time on the move clock and the other
#: claimed the game.
ENDINGS = (EndReason.RESIGNED, EndReason.TIME)
def end_game(table: Table, loser: int, reason: EndReason) -> None:
    """End ``table``'s game at once as a loss for ``loser`` (``reason``: one of
    ``ENDINGS``), or, at a rated table before each player made ``MIN_DECISIONS``, as
    abandoned (no winner, no rating moved); ProtocolError ``over`` if it is over already.
    The game's file keeps the reason (``Game.end``)."""
    if table.game.is_over:
        raise ProtocolError("over", "the game is over")
    if table.rated and not table.played():  # nobody really played it (docs/ratings.md)
        table.game.end(EndReason.ABANDONED)
    else:
        table.game.end(reason, loser)


def restart_clocks(tables: Iterable[Table], now: float, alive: float | None = None) -> None:
    """After a start: downtime is nobody's time. The decision pending at each live table
    whose clocks run starts again ``now``, so its player gets at least the time they had
    when the host stopped (their whole decision time; a killed host cannot say when it
    stopped). A correspondence deadline is a date, and stays one: only a deadline that may
    have passed while the host was down (not before ``alive``, the last time the host
    noted it was running: ``TableStore.note_alive``), or is closer than
    ``RESTART_GRACE``, moves to ``RESTART_GRACE`` from ``now``; one that passed while the
    host ran stays passed. Not saved: the next change saves it, and another restart does
    it again."""
    for table in tables:
        if not table.clocks_run():
            continue
        if not table.correspondence:
            table.decision_since = now
        elif (table.deadline() < now + RESTART_GRACE
              and (alive is None or table.deadline() >= alive)):
            table.decision_since = now + RESTART_GRACE - table.clock


def new_table(options: Options, seats: list[Seat], rated: bool = False,
              clock: float = DEFAULT_CLOCK, now: float | None = None,
              bank: float = DEFAULT_BANK, days: int = 0) -> Table:
    """A fresh table with a newly dealt game: its seed is a secret nobody chose (never sent);
    the game's id is 128 random bits of its own (the table's 24 are reused). It is made,
    active and its first decision's clock runs from ``now`` (the host's time). With
    ``days`` (one of ``PACES``) it is a correspondence table: ``clock`` is that many days
    and ``bank`` is not used."""
    now = time.time() if now is None else now
    if days:
        clock = days * DAY
    return Table("t" + secrets.token_hex(3), Game.new(options=options), seats, now, now,
                 rated=rated, clock=clock, decision_since=now, bank=bank, banks=(bank, bank),
                 game_id="g" + secrets.token_hex(16), days=days)


class TableStore:
    """Tables on disk, one JSON file each, written atomically."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.problems: list[str] = []

    def path(self, table_id: str) -> Path:
        return self.directory / f"{table_id}.json"

    def note_alive(self, now: float) -> None:
        """Note that the host runs at ``now`` (its start, each housekeeping round, its
        stop): a restart then knows which deadlines passed while it ran. OSError if the
        disk refuses."""
        write_atomic(self.directory / ALIVE_FILE, repr(float(now)))

    def last_alive(self) -> float | None:
        """When the host last noted it was running (None: never, or unreadable)."""
        try:
            return float((self.directory / ALIVE_FILE).read_text())
        except (OSError, ValueError):
            return None

    def save(self, table: Table) -> None:
        self.write(table.id, self.snapshot(table))

    @staticmethod
    def snapshot(table: Table) -> str:
        """The table's file contents now (cheap; writing it is the slow part)."""
        return json.dumps(table.to_dict())

    def write(self, table_id: str, text: str) -> None:
        """Write a snapshot atomically (temporary file, fsync, rename)."""
        write_atomic(self.path(table_id), text)

    def delete(self, table_id: str) -> bool:
        """Remove a table's file; False (and a logged sentence in ``problems``) if the disk
        refuses."""
        try:
            self.path(table_id).unlink(missing_ok=True)
        except OSError as exc:
            message = f"{self.path(table_id)} could not be removed ({exc})."
            self.problems.append(message)
            log.error("%s", message)
            return False
        return True

    def load_all(self) -> tuple[list[Table], list[str]]:
        """Every readable table, and a sentence for each file that could not be read
        (such a file is renamed aside with ``keep_aside``, never overwritten)."""
        tables, problems = [], []
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        for path in sorted(self.directory.glob("t*.json")):
            if not TABLE_FILE.fullmatch(path.name):
                continue
            try:
                tables.append(Table.from_dict(json.loads(path.read_text())))
            except (OSError, ValueError) as exc:
                aside = keep_aside(path)
                problems.append(f"{path} could not be read ({exc}); it was kept as "
                                f"{aside.name} and its table was left out.")
        return tables, problems

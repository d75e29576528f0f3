"""Tables the host owns: a game, two seats, who watches; saved after every change."""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core import Game, InvalidPosition, Options
from ..core.serialize import game_to_dict
from ..files import keep_aside, write_atomic
from ..wire.protocol import DEFAULT_CLOCK, ProtocolError

log = logging.getLogger("solstis.host")
TABLE_FILE = re.compile(r"t[^.]*\.json")  # not one kept aside (t….corrupt-….json)


@dataclass
class Seat:
    """A seat: a person (``name`` and their secret resume ``code``), a bot tier, or open.
    ``identity`` is who sits there for ratings (``key:…``, ``user:…``, ``bot:<tier>``;
    None: a guest, or the host's own account)."""

    name: str | None = None
    code: str | None = None
    bot: str | None = None
    identity: str | None = None

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
    #: why and by whom a game ended before its last move: (RESIGNED, losing seat); the
    #: game is then over in memory, and its file keeps ``unfinished`` (the game as it
    #: stood: a game ended mid-turn has tiles on their way that only it accounts for)
    ended: tuple[str, int] | None = None
    #: the move clock: seconds the player to move has for each decision (see Host claim)
    clock: float = 300.0
    #: when the decision now pending began (a move played, or the second player sat down)
    decision_since: float = field(default_factory=time.time)
    unfinished: Game | None = field(default=None, compare=False, repr=False)

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

    def copy(self) -> Table:
        """A table to change in this one's place: its own game, seats and (for a game ended
        before its last move) game as it stood; everything else is a value, shared."""
        return replace(self, game=self.game.copy(), seats=[replace(s) for s in self.seats],
                       unfinished=self.unfinished.copy() if self.unfinished else None)

    def status(self) -> str:
        if self.game.is_over:
            return "over"
        return "open" if any(s.is_open for s in self.seats) else "playing"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created": self.created,
            "last_active": self.last_active,
            "seats": [{"name": s.name, "code": s.code, "bot": s.bot, "identity": s.identity}
                      for s in self.seats],
            "game": game_to_dict(self.unfinished if self.unfinished else self.game),
            "rated": self.rated,
            "clock": self.clock,
            "decision_since": self.decision_since,
            **({"ended": {"reason": self.ended[0], "loser": self.ended[1]}}
               if self.ended else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        try:
            seats = [Seat(**{k: s.get(k) for k in ("name", "code", "bot", "identity")})
                     for s in data["seats"]]
            game = Game.from_json(json.dumps(data["game"]))
            table = cls(str(data["id"]), game, seats, float(data["created"]),
                        float(data["last_active"]), data.get("rated") is True)
            table.clock = float(data.get("clock", DEFAULT_CLOCK))
            table.decision_since = float(data.get("decision_since", table.last_active))
            ended = data.get("ended")
            if ended is not None:
                reason, loser = ended["reason"], ended["loser"]
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


#: Why a game ended before its last move: the player at the losing seat resigned (or
#: left for good during the game).
RESIGNED = "resigned"
#: ... the player to move ran out of time on the move clock and the other claimed the game
TIMED_OUT = "time"
ENDINGS = (RESIGNED, TIMED_OUT)


def end_game(table: Table, loser: int, reason: str) -> None:
    """End ``table``'s game at once as a loss for ``loser`` (``reason``: RESIGNED, ...);
    ProtocolError ``over`` if it is over already. The game's file keeps the reason."""
    if table.game.is_over:
        raise ProtocolError("over", "the game is over")
    table.unfinished = table.game.copy()
    table.ended = (reason, loser)
    table.game._finish(reason, 1 - loser)


def new_table(options: Options, seats: list[Seat], rated: bool = False,
              clock: float = DEFAULT_CLOCK, now: float | None = None) -> Table:
    """A fresh table with a newly dealt game: its seed is a secret nobody chose (never sent).
    It is made, active and its first decision's clock runs from ``now`` (the host's time)."""
    now = time.time() if now is None else now
    return Table("t" + secrets.token_hex(3), Game.new(options=options), seats, now, now,
                 rated=rated, clock=clock, decision_since=now)


class TableStore:
    """Tables on disk, one JSON file each, written atomically."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.problems: list[str] = []

    def path(self, table_id: str) -> Path:
        return self.directory / f"{table_id}.json"

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

"""Game records: a finished game as versioned text a person can read and diff.

A record holds the options (the variant), the two seats, the seed (a record is written
only once its game is over, so the deal gives nothing away), every decision in the move
notation, the end reason, the winner and the scores. ``loads`` reads one and replays it in
the engine: a record that is truncated, edited, binary or of an unknown version is refused
with a ``RecordError`` naming its line, and nothing is changed. A record is data: every
number in it is bounded (``MAX_TURN``, ``MAX_MOVES``, ``MAX_SCORE``, ``SEED_BITS``), and a
seat's kind is only text here (``ai.registry.spec_from_file`` says which bot it names, if
any). docs/records.md describes the format. No Textual here: the arena and the host write
records too.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .core import EndReason, Game, IllegalMove, Move, Options
from .files import read_regular

#: The format version this program writes and reads.
VERSION = 1
#: The first line of every record, before its version.
MAGIC = "solstis game record"
#: What a record file's name ends with.
SUFFIX = ".solstis"
#: The most a record file may hold (a game's record is a few KB).
MAX_BYTES = 1_000_000
#: A person's kind of seat (a bot's kind is its spec: "mcts", "mcts@0.5s", "pkg.mod:Class").
HUMAN = "human"
#: The bounds of a record's numbers (a real game has about 30 turns and a few dozen
#: decisions and stars a seat; a dealt seed has 128 bits): past them, refused at the line.
MAX_TURN = 1_000
MAX_MOVES = 10_000
MAX_SCORE = 10_000
SEED_BITS = 256
"""A seed's size: ``-2**256 < seed < 2**256``."""
#: The longest seat kind: its name, then '@' and a budget of at most 12 characters.
MAX_KIND = 100

_COMMENT = "# A finished game of Solstis; docs/records.md says what each line means."
_KIND = re.compile(r"^[A-Za-z_][\w.:-]{0,86}(?:@[\w.]{1,12})?$", re.ASCII)
_MOVE_LINE = re.compile(r"^turn ([0-9]+), seat ([12]): (.+)$")
#: The longest move a decision line may hold ('keep dragonfly' and the like are shorter).
_MAX_MOVE_TEXT = 40
#: The header's fields in the order they are written (``deal`` only for legacy deals).
_FIELDS = ("date", "program", "variant", "seat 1", "seat 2", "seed", "deal", "end",
           "winner", "scores", "moves")
_OPTIONAL = frozenset({"program", "deal"})


class RecordError(ValueError):
    """A record that cannot be read or does not replay; ``line`` is its line (1-based)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message


@dataclass(frozen=True)
class SeatRecord:
    """Who sat in a seat: the name the game showed, and ``kind``: 'human' or a bot spec."""

    name: str
    kind: str

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN


@dataclass(frozen=True)
class GameRecord:
    """One finished game. ``moves`` are the decisions made (forced moves, which the engine
    plays by itself, left out) in the move notation; ``movers`` gives each one's
    (turn, seat), seats being 0 and 1."""

    variant: str
    seats: tuple[SeatRecord, SeatRecord]
    seed: int
    moves: tuple[str, ...]
    movers: tuple[tuple[int, int], ...]
    end: EndReason
    winner: int | None
    scores: tuple[int, int]
    date: datetime
    program: str = ""
    legacy: bool = False
    """Dealt as save format 1 did (SplitMix64): only games resumed from such saves."""
    version: int = VERSION
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    """Where ``loads`` found each header field and move ('move 0', ...): errors name them."""

    @property
    def options(self) -> Options:
        return Options.for_variant(self.variant)

    @property
    def id(self) -> str:
        """A short name for the game, the same for the same game however often it is
        written: 10 hex digits of a hash of its deal and decisions."""
        text = "\n".join([self.variant, str(self.seed), str(self.legacy), *self.moves])
        return hashlib.blake2b(text.encode(), digest_size=5).hexdigest()

    def line_of(self, key: str) -> int:
        """The line of header field or move ``key`` ('scores', 'move 3'): where ``loads``
        found it, else where ``dumps`` writes it."""
        if key in self.lines:
            return self.lines[key]
        return _layout(self).get(key, 1)


# ---------------------------------------------------------------------- writing
def record_of(game: Game, seats: tuple[SeatRecord, SeatRecord], date: datetime, *,
              program: str = "", legacy: bool = False) -> GameRecord:
    """The record of the finished ``game`` (dealt by SplitMix64 if ``legacy``); ValueError
    if it is not over (a record of a game in progress would give its deal away) or if its
    decisions do not replay from its deal (a game rebuilt from a snapshot)."""
    if not game.is_over or game.end_reason is None:
        raise ValueError("only a finished game has a record")
    if abs(game.seed) >= 2 ** SEED_BITS:
        raise ValueError(f"the seed has more than {SEED_BITS} bits: a record cannot hold it")
    made = [(p, mv) for p, mv, auto in game.history if not auto]
    replayed = Game.new(game.seed, game.options, legacy=legacy)
    movers = []
    for p, mv in made:
        movers.append((replayed.turn, p))
        try:
            replayed.play(mv)
        except IllegalMove as exc:
            raise ValueError(f"the game's decisions do not replay from its deal: {exc}") \
                from None
    return GameRecord(
        variant=game.options.variant, seats=(_clean(seats[0], 0), _clean(seats[1], 1)),
        seed=game.seed, moves=tuple(str(mv) for _, mv in made), movers=tuple(movers),
        end=game.end_reason, winner=game.winner,
        scores=(game.score(0).total, game.score(1).total),
        date=date.astimezone(UTC).replace(microsecond=0), program=program, legacy=legacy)


def _clean(seat: SeatRecord, index: int) -> SeatRecord:
    """``seat`` as a record line can hold it: a name without control characters or
    surrounding spaces (never empty), a kind without spaces."""
    name = "".join(c if c.isprintable() else " " for c in seat.name).strip()
    if not _KIND.match(seat.kind):
        raise ValueError(f"{_shown(seat.kind)} is not a seat kind: 'human' or a bot's "
                         f"spec, at most {MAX_KIND} characters")
    return SeatRecord(name or f"Seat {index + 1}", seat.kind)


def dumps(record: GameRecord) -> str:
    """``record`` as text (UTF-8, one field or decision a line, ending with a newline)."""
    return "".join(line + "\n" for line in _lines(record))


def _lines(record: GameRecord) -> list[str]:
    winner = "none" if record.winner is None else f"seat {record.winner + 1}"
    head = [
        f"{MAGIC} {record.version}", _COMMENT,
        f"date: {record.date.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%SZ')}",
        *([f"program: {record.program}"] if record.program else []),
        f"variant: {record.variant}",
        *(f"seat {i + 1}: {s.name} ({s.kind})" for i, s in enumerate(record.seats)),
        f"seed: {record.seed}",
        *(["deal: splitmix"] if record.legacy else []),
        f"end: {record.end.value}", f"winner: {winner}",
        f"scores: {record.scores[0]} {record.scores[1]}",
        f"moves: {len(record.moves)}",
    ]
    return head + [f"turn {t}, seat {p + 1}: {mv}"
                   for (t, p), mv in zip(record.movers, record.moves, strict=True)]


def _layout(record: GameRecord) -> dict[str, int]:
    """Where ``dumps`` writes each field and move of ``record`` (1-based lines)."""
    out: dict[str, int] = {}
    for number, line in enumerate(_lines(record), 1):
        key = line.partition(":")[0]
        if _MOVE_LINE.match(line):
            key = f"move {number - out['moves'] - 1}"
        out.setdefault(key, number)
    return out


# ---------------------------------------------------------------------- reading
def read(path: Path | str) -> GameRecord:
    """The record in file ``path``, checked by replaying it (``loads``); RecordError naming
    the line, OSError if the file cannot be read. The file is only read."""
    return loads(read_text(path))


def read_text(path: Path | str) -> str:
    """The text of file ``path``, as a record's must be: RecordError naming the line of
    the first byte that is not UTF-8 text, or past ``MAX_BYTES``; OSError if the file
    cannot be read, ``files.NotAFile`` (an OSError) at once, without waiting, for a FIFO,
    a device or anything else that is not a regular file."""
    return _text(read_bytes(path))


def read_bytes(path: Path | str) -> bytes:
    """The bytes of the regular file ``path``, at most ``MAX_BYTES + 1`` of them (see
    ``read_text``)."""
    return read_regular(path, MAX_BYTES)


def loads_bytes(data: bytes) -> GameRecord:
    """``loads`` for raw bytes: text that is not UTF-8, or more than ``MAX_BYTES`` of it,
    is refused at its line."""
    return loads(_text(data))


def _text(data: bytes) -> str:
    """``data`` as a record's text (see ``read_text``)."""
    if len(data) > MAX_BYTES:
        line = data.count(b"\n", 0, MAX_BYTES) + 1
        raise RecordError(line, f"the file goes on past {MAX_BYTES:,} bytes here; a game's "
                          "record is a few KB, so this is not one")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise RecordError(line, f"byte 0x{data[exc.start]:02x} is not text (UTF-8): this "
                          "is a binary file or a damaged record") from None
    return text


def loads(text: str, check: bool = True) -> GameRecord:
    """The record written ``text``; with ``check`` (the default) it is replayed in the
    engine and must end as it says (``replay``). RecordError naming the line if not."""
    record = parse(text)
    if check:
        replay(record)
    return record


def parse(text: str) -> GameRecord:
    """The record written ``text``, read but not replayed; RecordError naming the line.
    Windows line ends and a leading byte order mark (an editor's) are read past."""
    lines = text.removeprefix("\ufeff").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, 1):
        bad = next((c for c in line.rstrip("\r") if not c.isprintable() and c != "\t"), None)
        if bad is not None:
            raise RecordError(number, f"it holds the control character U+{ord(bad):04X}: "
                              "this is a binary file or a damaged record")
    found = [(n, line.rstrip("\r").strip()) for n, line in enumerate(lines, 1)]
    found = [(n, line) for n, line in found if line and not line.startswith("#")]
    if not found:
        raise RecordError(1, f"the file is empty: a record begins '{MAGIC} {VERSION}'")
    number, first = found[0]
    _check_version(number, first)
    return _Reader(found[1:], number, text.endswith("\n")).record()


def _check_version(number: int, first: str) -> None:
    if not first.lower().startswith(MAGIC):
        raise RecordError(number, f"this is not a Solstis game record (it should begin "
                          f"'{MAGIC} {VERSION}')")
    version = first[len(MAGIC):].strip()
    if version != str(VERSION):
        said = _cut(version, 20) or "?"
        raise RecordError(number, f"the record is in format version {said}; this "
                          f"solstis reads version {VERSION} (a newer solstis wrote it?)")


class _Reader:
    """Reads a record's header fields in order, then its moves."""

    def __init__(self, found: list[tuple[int, str]], last: int, whole: bool) -> None:
        self.found, self.at, self.last = found, 0, last
        self.whole = whole  # the text ends with a line break: its last line is complete
        self.lines: dict[str, int] = {}

    def field(self, key: str) -> str:
        """The value of header field ``key`` (None-like '' if optional and absent)."""
        if self.at >= len(self.found):
            if key in _OPTIONAL:
                return ""
            raise RecordError(self.last + 1, f"the record ends before its '{key}:' line: "
                              "it was cut short")
        number, line = self.found[self.at]
        name, colon, value = line.partition(":")
        if not colon or name.strip().lower() != key:
            if key in _OPTIONAL:
                return ""
            raise RecordError(number, f"expected the '{key}:' line here, found "
                              f"{_shown(line)}")
        self.at += 1
        self.last = number
        self.lines[key] = number
        return value.strip()

    def fail(self, key: str, message: str) -> RecordError:
        return RecordError(self.lines[key], message)

    def record(self) -> GameRecord:
        date_text = self.field("date")
        try:
            date: datetime | None = datetime.fromisoformat(date_text)
        except ValueError:
            date = None
        if date is None or date.tzinfo is None:
            raise self.fail("date", f"{_shown(date_text)} is not a date and time in UTC, "
                            "such as 2026-12-04T17:30:00Z")
        program = self.field("program")
        variant = self.field("variant")
        try:
            Options.for_variant(variant)
        except ValueError as exc:
            raise self.fail("variant", str(exc)) from None
        seats = (self.seat(0), self.seat(1))
        seed = self.number("seed")
        deal = self.field("deal")
        if deal not in ("", "splitmix"):
            raise self.fail("deal", f"unknown deal {_shown(deal)}: only 'splitmix' may be "
                            "named")
        end_text = self.field("end").lower()
        try:
            end = EndReason(end_text)
        except ValueError:
            known = ", ".join(r.value for r in EndReason)
            raise self.fail("end", f"unknown end; it is one of {known}") from None
        winner = self.winner()
        scores = self.field("scores").split()
        if len(scores) != 2 or not all(re.fullmatch(r"[0-9]+", s) for s in scores):
            raise self.fail("scores", "two whole numbers are expected: seat 1's stars, "
                            "then seat 2's")
        stars = (_bounded(scores[0], MAX_SCORE), _bounded(scores[1], MAX_SCORE))
        if None in stars:
            raise self.fail("scores", f"a score is at most {MAX_SCORE:,} stars")
        count = self.number("moves")
        moves, movers = self.moves(count)
        return GameRecord(variant=variant.lower(), seats=seats, seed=seed,
                          moves=moves, movers=movers, end=end, winner=winner,
                          scores=(stars[0] or 0, stars[1] or 0), date=date,
                          program=program, legacy=bool(deal), lines=self.lines)

    def seat(self, index: int) -> SeatRecord:
        key = f"seat {index + 1}"
        value = self.field(key)
        name, _, kind = value.rpartition(" (")
        if not name.strip() or not kind.endswith(")") or not _KIND.match(kind[:-1]):
            raise self.fail(key, "a seat is written as its name, then its kind in "
                            "brackets: 'Alice (human)' or 'MCTS bot (mcts)'; a kind is at "
                            f"most {MAX_KIND} letters, digits and . _ - : with an optional "
                            "@budget")
        return SeatRecord(name.strip(), kind[:-1])

    def number(self, key: str) -> int:
        """Field ``key``: the seed (``SEED_BITS``) or the count of moves (``MAX_MOVES``)."""
        value = self.field(key)
        if not re.fullmatch(r"-?[0-9]+", value) or (key == "moves" and value[0] == "-"):
            raise self.fail(key, f"{_shown(value)} is not a whole number")
        if key == "moves":
            count = _bounded(value, MAX_MOVES)
            if count is None:
                raise self.fail(key, f"{_shown(value)} is more moves than a record may "
                                f"hold (at most {MAX_MOVES:,})")
            return count
        seed = _bounded(value.lstrip("-"), 2 ** SEED_BITS - 1)
        if seed is None:
            raise self.fail(key, f"the seed {_shown(value)} is too big: a seed has at most "
                            f"{SEED_BITS} bits")
        return -seed if value[0] == "-" else seed

    def winner(self) -> int | None:
        value = self.field("winner").lower()
        if value == "none":
            return None
        if value not in ("seat 1", "seat 2"):
            raise self.fail("winner", "the winner is 'seat 1', 'seat 2' or 'none'")
        return int(value[-1]) - 1

    def moves(self, count: int) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
        rest = self.found[self.at:]
        if len(rest) < count:
            if rest and not self.whole:  # cut inside its last line
                raise RecordError(rest[-1][0], f"the record ends inside this line (move "
                                  f"{len(rest)} of {count}): it was cut short")
            last = rest[-1][0] if rest else self.last
            raise RecordError(last + 1, f"the record ends after {len(rest)} of its {count} "
                              "moves: it was cut short")
        if len(rest) > count:
            raise RecordError(rest[count][0], f"the record has more than the {count} moves "
                              "its 'moves:' line says")
        moves, movers = [], []
        for i, (number, line) in enumerate(rest):
            self.lines[f"move {i}"] = number
            match = _MOVE_LINE.match(line)
            if match is None:
                raise RecordError(number, f"expected a decision such as 'turn 3, seat 1: "
                                  f"play 3-5', found {_shown(line)}")
            turn = _bounded(match.group(1), MAX_TURN)
            if turn is None:
                raise RecordError(number, f"turn {_cut(match.group(1))} is past the "
                                  f"last a game may have (turn {MAX_TURN:,})")
            text = match.group(3)
            if len(text) > _MAX_MOVE_TEXT:
                raise RecordError(number, f"{_shown(text)} is not a move: a move is a few "
                                  "words, such as 'play 3-5' or 'keep bee'")
            try:
                mv = Move.parse(text)
            except ValueError as exc:
                raise RecordError(number, str(exc)) from None
            moves.append(str(mv))
            movers.append((turn, int(match.group(2)) - 1))
        return tuple(moves), tuple(movers)


def _bounded(digits: str, most: int) -> int | None:
    """The number written ``digits`` (ASCII digits only), or None past ``most``; never
    converts more digits than ``most`` has (Python refuses ints of over 4,300 digits)."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(most)):
        return None
    value = int(digits)
    return value if value <= most else None


def _cut(text: str, most: int = 60) -> str:
    """``text`` cut to ``most`` characters: a message never repeats a whole damaged line."""
    return text if len(text) <= most else text[:most - 1] + "…"


def _shown(text: str, most: int = 60) -> str:
    """``text`` quoted for a message, cut to ``most`` characters."""
    return repr(_cut(text, most))


# ---------------------------------------------------------------------- replaying
def replay(record: GameRecord) -> Game:
    """The record's game, replayed in the engine from its seed: every decision must be
    legal and made by the seat and on the turn the record says, and the game must end as
    the record says, with its scores. RecordError naming the line if not."""
    game = Game.new(record.seed, record.options, legacy=record.legacy)
    for i, (text, (turn, seat)) in enumerate(zip(record.moves, record.movers, strict=True)):
        line = record.line_of(f"move {i}")
        if game.is_over:
            raise RecordError(line, "the game was already over before this move: the "
                              "record was edited or damaged")
        if (game.turn, game.to_play) != (turn, seat):
            raise RecordError(line, f"the record says turn {turn}, seat {seat + 1}, but the "
                              f"game is at turn {game.turn} with seat {game.to_play + 1} to "
                              "decide: the record was edited or damaged")
        try:
            game.play(Move.parse(text))
        except IllegalMove as exc:
            raise RecordError(line, f"'{text}' is not a legal move here ({exc}): the "
                              "record was edited or damaged") from None
    _finish(record, game)
    return game


def _finish(record: GameRecord, game: Game) -> None:
    """End ``game`` as the record says (a resignation, a timeout, an abandoned game) and
    check that it ended so: how, who won, the scores."""
    if not record.end.by_rules and not game.is_over:
        loser = None if record.winner is None or record.end is EndReason.ABANDONED \
            else 1 - record.winner
        try:
            game.end(record.end, loser)
        except IllegalMove as exc:
            raise RecordError(record.line_of("winner"), str(exc)) from None
    if not game.is_over:
        raise RecordError(record.line_of("moves"), f"the game is not over after the "
                          f"record's {len(record.moves)} moves: the record was cut short or "
                          "edited")
    if game.end_reason is not record.end:
        said = game.end_reason.value if game.end_reason else "?"
        raise RecordError(record.line_of("end"), f"the replayed game ended '{said}', not "
                          f"'{record.end.value}': the record was edited or damaged")
    if game.winner != record.winner:
        said = "nobody" if game.winner is None else f"seat {game.winner + 1}"
        raise RecordError(record.line_of("winner"), f"in the replayed game {said} won: the "
                          "record was edited or damaged")
    scores = (game.score(0).total, game.score(1).total)
    if scores != record.scores:
        raise RecordError(record.line_of("scores"), f"the replayed game scores {scores[0]} "
                          f"{scores[1]}, not {record.scores[0]} {record.scores[1]}: the "
                          "record was edited, or made by another version of the rules")

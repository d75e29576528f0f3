"""Analysis of a finished game: what each decision cost, and how much was the draw.

Every decision with a real choice is judged (``ai/judge.py``) from the deciding seat's
observation, and from the other seat's; the played move's loss against the judge's best
gets a label. Each stretch of the game between two decisions that holds a chance event
(a tile drawn, a second chance, spirits drawn, the display refilled) gets each seat's luck:
its expected result once the chance fell, minus its expected result of the move just
played, both from its own observation and valued alike (the next decision played as the
judge's tree rates best). docs/analysis.md documents the labels' thresholds and the JSON,
a stable interface. No Textual here.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final

from solstis_tui.ai.judge import (
    DEFAULT_CLOSE_FLOOR,
    DEFAULT_FLOOR,
    DEFAULT_ITERATIONS,
    MoveValue,
    Verdict,
    judge,
)
from solstis_tui.ai.workers import WorkerLost, WorkerPool
from solstis_tui.coach.choice_points import choice_points
from solstis_tui.coach.reasons import explain
from solstis_tui.core import Game, Move, Observation, Options
from solstis_tui.core.events import (
    Drew,
    EagleDrew,
    Event,
    Flipped,
    SecondChance,
    SpiritsDrawn,
)
from solstis_tui.words.narrate import narrate

VERSION: Final = 1
"""The JSON's version: it changes only when a key changes meaning or goes."""
MEASURE: Final = 7
"""How the figures are measured: a change (2: luck stretches start at ``stretch_start``;
3: a move valued by its best continuation within the turn, the best always on the shared
deals, and each seat's account; 4: a stretch of luck ends at ``Verdict.luck_end``, valued
as its start is; 5: a move its own seat's decision follows in the turn valued with each of
that decision's moves; 6: no such lines where those moves differ from deal to deal, and
the luck's end learns nothing of the draw; 7: with each way through the seat's decisions
that follow in the turn, the best of many found on a few deals) makes the analyses kept
beside records stale."""

#: Labels by the star loss of a move: (name, least loss), worst first. Chosen from the
#: judge's noise (benchmarks/judge_noise.py; docs/analysis.md).
LABELS: Final[tuple[tuple[str, float], ...]] = (("blunder", 6.0), ("mistake", 3.0),
                                                ("inaccuracy", 1.5))
LABEL_NAMES: Final = ("inaccuracy", "mistake", "blunder")

TOP: Final = 3
"""How many of the judge's best moves a decision note keeps."""

CHANCE: Final = (Drew, SecondChance, SpiritsDrawn, Flipped, EagleDrew)
"""The events the draw decides."""


@dataclass(frozen=True)
class Effort:
    """How hard the judge looks at a decision from the deciding seat's side. From the
    other seat's (for luck only: no label reads it) it looks with half the iterations and
    a third of the shared deals."""

    iterations: int = DEFAULT_ITERATIONS
    floor: int = DEFAULT_FLOOR
    close_floor: int = DEFAULT_CLOSE_FLOOR

    def other(self) -> Effort:
        return Effort(max(1, self.iterations // 2), self.floor, max(1, self.close_floor // 3))


TINY: Final = Effort(40, 4, 8)
"""For tests: fast, and noisy."""


@dataclass(frozen=True)
class TopMove:
    """One of the judge's best moves at a decision, from the deciding seat's side."""

    move: Move
    margin: float
    """Expected final star margin (the seat's stars minus the other's)."""
    win: float
    """Expected win chance, 0 to 1."""


@dataclass(frozen=True)
class DecisionNote:
    turn: int
    seat: int
    played: Move
    best: Move
    loss_stars: float
    loss_win: float
    label: str | None
    reason: str
    top: tuple[TopMove, ...] = ()
    """The judge's best moves (up to ``TOP``), best first."""
    expected: tuple[float, float] = (0.0, 0.0)
    """Each seat's expected star margin at this decision, from its own observation."""


@dataclass(frozen=True)
class ChanceNote:
    turn: int
    event: str
    luck: tuple[float, float]
    """Each seat's luck in stars."""


@dataclass(frozen=True)
class SeatNote:
    name: str
    error_rate: float
    """Mean star loss a decision with a real choice (0 with none)."""
    luck: float
    labels: dict[str, int]
    decisions: int
    account: Account | None = None
    """Where the seat's final margin came from (a finished game's only)."""


@dataclass(frozen=True)
class Account:
    """A seat's final star margin, in parts that add up to it, each from the seat's own
    observation: what it expected at its first judged decision (``start``), what its own
    decisions and the other seat's changed, its luck (the stretches with chance events,
    ``stretch``), and ``drift``: where only the judge's estimate moved (the stretches
    without chance, and what the next decision's own judgement adds to a luck's end)."""

    start: float
    own: float
    other: float
    luck: float
    drift: float
    final: float

    def closes(self, within: float = 0.05) -> bool:
        """The parts add up to the final margin (each part is rounded to 2 places)."""
        parts = self.start + self.own + self.other + self.luck + self.drift
        return abs(parts - self.final) <= within


@dataclass(frozen=True)
class Analysis:
    seats: tuple[SeatNote, SeatNote]
    notes: tuple[DecisionNote | ChanceNote, ...]
    """Decisions and chance events in the order of the game."""

    def decisions(self) -> list[DecisionNote]:
        return [n for n in self.notes if isinstance(n, DecisionNote)]

    def chances(self) -> list[ChanceNote]:
        return [n for n in self.notes if isinstance(n, ChanceNote)]


def label_of(loss_stars: float) -> str | None:
    """The label a move losing ``loss_stars`` gets, or None."""
    for name, least in LABELS:
        if loss_stars >= least:
            return name
    return None


def game_from_moves(options: Options, seed: int, moves: Iterable[str]) -> Game:
    """Replay a game from its options, seed and moves in notation. Automatic moves may be
    listed or left out. ValueError naming the move that does not fit."""
    g = Game.new(seed=seed, options=options)
    for i, text in enumerate(moves, 1):
        mv = Move.parse(text)
        if g.history and g.history[-1][2] and g.history[-1][1] == mv and mv not in g.legal:
            continue  # an automatic move the list repeats
        try:
            g.play(mv)
        except Exception as exc:
            raise ValueError(f"move {i} ({text!r}) does not fit the game: {exc}") from None
    return g


@dataclass(frozen=True)
class _Point:
    """A decision with a real choice, as the analysis walks the game."""

    turn: int
    seat: int
    played: Move
    log_at: int
    """Where in the game's log the events of this move begin."""
    obs: Observation
    """The deciding seat's observation (the reasons read it)."""


Task = tuple[Any, int, Move, Effort, Any, tuple[tuple[int, Move], ...]]
"""A verdict to reach: the observation, the seed, the move played, the effort, and for a
stretch with chance after it the seat's observation at the next decision and the moves up
to it (``judge``'s ``after`` and ``path``), else None and ()."""


def _judge_task(task: Task) -> Verdict:
    obs, seed, focus, effort, after, path = task
    return judge(obs, seed, effort.iterations, effort.floor, focus, effort.close_floor,
                 luck=True, after=after, path=path)


def stretch_start(verdict: Verdict, played: Move) -> MoveValue:
    """The verdict's seat's expected result as the stretch after ``played`` starts: the
    move's value with the next decision taken as the judge's tree rates best
    (``Verdict.luck_start``), as the stretch's end values it. No deal of the other seat's
    allowed the move (a tile it thought unlikely): the move's own value, or the position's
    stands in."""
    return verdict.luck_start or verdict.value_of(played) or verdict.expected


def stretch(verdict: Verdict, start: float, after: float, chance: bool) -> tuple[float, float]:
    """A stretch's change in a seat's expected margin, from ``start`` (``stretch_start``
    of the seat's ``verdict`` at the decision before it) to ``after`` (the seat's expected
    result at the next decision, or the final margin), as (luck, drift). With ``chance``
    the luck runs to ``Verdict.luck_end``, valued as the start is, and what the next
    decision's own judgement adds is drift; without, it is all drift."""
    if not chance:
        return 0.0, after - start
    if verdict.luck_end is None:  # the last stretch: it ends at the real final margin
        return after - start, 0.0
    return verdict.luck_end.margin - start, after - verdict.luck_end.margin


def analyse(game: Game, names: Sequence[str] = ("Seat 1", "Seat 2"), seed: int = 0,
            effort: Effort | None = None, workers: int = 1,
            progress: Callable[[int, int], None] | None = None, since: int = 0,
            nice: int = 0,
            judged: Callable[[int, DecisionNote], None] | None = None) -> Analysis:
    """Analyse the finished (or stopped) ``game`` from its ``since``-th history entry on.
    ``progress(done, total)`` is called as decisions are judged, and ``judged(k, note)``
    with each decision's note as soon as it is judged (``k``: its index among the
    analysis's decisions; the luck comes at the end). Deterministic for ``seed`` and
    ``effort``, whatever ``workers``. ``nice``: how much lower the worker processes'
    priority is (the analysis board keeps its keys quick with it)."""
    effort = effort if effort is not None else Effort()
    points: list[_Point] = []
    tasks: list[Task] = []
    seen: list[tuple[Observation, Observation]] = []  # both seats' at each point
    history_at: list[int] = []
    for c in choice_points(game):  # ValueError for a game that does not replay
        if c.history_at < since:
            continue
        replay = c.before  # read at once: the walk plays on in it
        seen.append((replay.observation(0), replay.observation(1)))
        history_at.append(c.history_at)
        points.append(_Point(replay.turn, c.seat, c.played, len(replay.log),
                             seen[-1][c.seat]))
    for k, point in enumerate(points):
        # A stretch with chance in it ends where the next decision's observation is known:
        # the judge values that end as it values the start (``Verdict.luck_end``).
        path: tuple[tuple[int, Move], ...] = ()
        if k + 1 < len(points) and any(isinstance(ev, CHANCE) for ev in
                                       game.log[point.log_at:points[k + 1].log_at]):
            path = tuple((s, mv) for s, mv, auto in
                         game.history[history_at[k]:history_at[k + 1]] if not auto)
        for seat in (0, 1):
            tasks.append((seen[k][seat], seed * 1_000_003 + 2 * k + seat, point.played,
                          effort if seat == point.seat else effort.other(),
                          seen[k + 1][seat] if path else None, path))

    def pair(k: int, first: Verdict, second: Verdict) -> None:
        if judged is not None:
            judged(k, _decision(points[k], (first, second), names))

    verdicts = _run(tasks, workers, progress, nice, pair)
    return _report(game, names, points, verdicts)


def _run(tasks: list[Task], workers: int, progress: Callable[[int, int], None] | None,
         nice: int = 0,
         pair: Callable[[int, Verdict, Verdict], None] | None = None) -> list[Verdict]:
    """The tasks' verdicts, in order; ``pair(k, first, second)`` as each decision's two
    are in, then ``progress``."""
    out: list[Verdict] = []
    total = len(tasks) // 2
    if progress:
        progress(0, total)

    def one_more(verdict: Verdict) -> None:
        out.append(verdict)
        if len(out) % 2:
            return
        if pair is not None:
            pair(len(out) // 2 - 1, out[-2], out[-1])
        if progress:
            progress(len(out) // 2, total)

    results: Iterable[Verdict]
    pool: WorkerPool | None = None
    if workers > 1 and len(tasks) > 2:
        # The judges' processes die with this one (ai/workers.py); a stop (an exception,
        # the review closed) kills the busy ones at once.
        pool = WorkerPool(workers, "solstis-judge", nice=nice)
        results = pool.imap(_judge_task, tasks)
    else:
        results = map(_judge_task, tasks)
    try:
        for verdict in results:
            one_more(verdict)
    except WorkerLost:
        # No worker processes here (a script without a main guard, a process limit), or
        # one died: judge the rest on this process; the verdicts are the same.
        if pool is None:
            raise
        pool.close()
        for task in tasks[len(out):]:
            one_more(_judge_task(task))
    finally:
        if pool is not None:
            pool.close()
    return out


def _final(game: Game, seat: int) -> float | None:
    """The seat's final star margin, or None for a game that did not end."""
    if not game.is_over:
        return None
    return float(game.score(seat).total - game.score(1 - seat).total)


def _decision(point: _Point, verdicts: tuple[Verdict, Verdict],
              names: Sequence[str]) -> DecisionNote:
    """A decision's note from its two verdicts (each seat's, in seat order)."""
    mine = verdicts[point.seat]
    played = mine.value_of(point.played)
    assert played is not None
    loss_stars, loss_win = figures(*mine.loss(point.played))
    top = tuple(TopMove(v.move, round(v.margin, 2), round(v.win, 3))
                for v in mine.moves[:TOP])
    expected = (round(verdicts[0].expected.margin, 2), round(verdicts[1].expected.margin, 2))
    return DecisionNote(point.turn, point.seat, point.played, mine.best.move,
                        loss_stars, loss_win, label_of(loss_stars),
                        reason(point.obs, mine.best, played, names,
                               mine.moves[1] if len(mine.moves) > 1 else None), top, expected)


def _report(game: Game, names: Sequence[str], points: list[_Point],
            verdicts: list[Verdict]) -> Analysis:
    notes: list[DecisionNote | ChanceNote] = []
    losses: list[list[float]] = [[], []]
    labels = [dict.fromkeys(LABEL_NAMES, 0), dict.fromkeys(LABEL_NAMES, 0)]
    luck = [0.0, 0.0]
    # Each seat's account: the decisions' changes (the move's value less the decision's
    # expected result) and the stretches between (the next expected result less the
    # move's value): with the first expected result they telescope to the final margin.
    changes = [[0.0, 0.0], [0.0, 0.0]]  # [seat][own decisions, the other's]
    drift = [0.0, 0.0]
    for k, point in enumerate(points):
        # Each seat's value of the move played, where the stretch after it starts.
        starts = [stretch_start(verdicts[2 * k + seat], point.played).margin
                  for seat in (0, 1)]
        for seat in (0, 1):
            change = starts[seat] - verdicts[2 * k + seat].expected.margin
            changes[seat][0 if seat == point.seat else 1] += change
        note = _decision(point, (verdicts[2 * k], verdicts[2 * k + 1]), names)
        notes.append(note)
        loss_stars, _ = verdicts[2 * k + point.seat].loss(point.played)
        label = note.label
        losses[point.seat].append(loss_stars)
        if label:
            labels[point.seat][label] += 1
        end = points[k + 1].log_at if k + 1 < len(points) else len(game.log)
        chance = [ev for ev in game.log[point.log_at:end] if isinstance(ev, CHANCE)]
        after: list[float | None] = [None, None]
        for seat in (0, 1):
            if k + 1 < len(points):
                after[seat] = verdicts[2 * (k + 1) + seat].expected.margin
            else:
                after[seat] = _final(game, seat)
        if after[0] is None or after[1] is None:
            continue
        values = []
        for seat in (0, 1):
            lucky, drifted = stretch(verdicts[2 * k + seat], starts[seat],
                                     float(after[seat] or 0.0), bool(chance))
            luck[seat] += lucky
            drift[seat] += drifted
            values.append(round(lucky, 2))
        if chance:
            notes.append(ChanceNote(point.turn, describe(chance, names),
                                    (values[0], values[1])))
    accounts: list[Account | None] = [None, None]
    for s in (0, 1):
        final = _final(game, s)
        if points and final is not None:
            accounts[s] = Account(round(verdicts[s].expected.margin, 2),
                                  round(changes[s][0], 2), round(changes[s][1], 2),
                                  round(luck[s], 2), round(drift[s], 2), final)
    seats = tuple(
        SeatNote(names[s], round(sum(losses[s]) / len(losses[s]), 2) if losses[s] else 0.0,
                 round(luck[s], 2), labels[s], len(losses[s]), accounts[s])
        for s in (0, 1))
    return Analysis((seats[0], seats[1]), tuple(notes))


def reason(obs: Observation, best: MoveValue, played: MoveValue,
           names: Sequence[str], runner_up: MoveValue | None = None) -> str:
    """What the judge's best move and the played one do differently, in game terms
    (``reasons.explain``, from the deciding seat's observation ``obs``), then the
    figures: the played move's loss "(−4.6★, −27% win)". Where the best was played: what
    it does that the judge's ``runner_up`` does not (and the other way round), then the
    best's expectation."""
    if best.move == played.move:
        other = runner_up.move if runner_up is not None else played.move
        words = explain(obs, other, best.move, names)
        return f"{words} (the judge's best: {signed(best.margin)}★ expected)"
    words = explain(obs, played.move, best.move, names)
    stars, win = figures(max(0.0, best.margin - played.margin), best.win - played.win)
    return f"{words} ({signed(-stars)}★, {signed(-win * 100, 0)}% win)"


def figures(loss_stars: float, loss_win: float) -> tuple[float, float]:
    """A loss as it is kept and shown: stars to 2 places, win chance to 3 (every line that
    shows a loss rounds these same numbers, so the label and the figures agree)."""
    return round(loss_stars, 2), round(loss_win, 3)


def signed(value: float, places: int = 1) -> str:
    """``value`` with its sign, the minus a true minus sign: "+1.2", "−4.6"; no sign where
    it rounds to zero ("0.0")."""
    text = f"{value:+.{places}f}"
    if float(text) == 0:
        return f"{0:.{places}f}"
    return text.replace("-", "−")


def describe(events: Sequence[Event], names: Sequence[str]) -> str:
    """The chance events in the narrator's words, every tile named (the game is over)."""
    return "; ".join(narrate(events, lambda player: names[player]))


def to_json(analysis: Analysis) -> dict[str, Any]:
    """The documented JSON (docs/analysis.md)."""
    entries: list[dict[str, Any]] = []
    for note in analysis.notes:
        if isinstance(note, DecisionNote):
            entries.append({"turn": note.turn, "seat": note.seat, "played": str(note.played),
                            "best": str(note.best), "loss_stars": note.loss_stars,
                            "loss_win": note.loss_win, "label": note.label,
                            "reason": note.reason,
                            "top": [{"move": str(t.move), "margin": t.margin, "win": t.win}
                                    for t in note.top],
                            "expected": list(note.expected)})
        else:
            entries.append({"turn": note.turn, "event": note.event, "luck": list(note.luck)})
    return {
        "version": VERSION,
        "seats": [{"name": s.name, "error_rate": s.error_rate, "luck": s.luck,
                   "labels": dict(s.labels),
                   **({"account": asdict(s.account)} if s.account else {})}
                  for s in analysis.seats],
        "decisions": entries,
    }


def from_json(data: dict[str, Any]) -> Analysis:
    """The analysis that ``to_json`` gave ``data``; KeyError, TypeError or ValueError if
    ``data`` is not such a JSON (an older one without ``top`` and ``expected`` too)."""
    if data.get("version") != VERSION:
        raise ValueError(f"analysis version {data.get('version')!r}, not {VERSION}")
    notes: list[DecisionNote | ChanceNote] = []
    counts = [0, 0]
    for entry in data["decisions"]:
        if "event" in entry:
            luck = [float(v) for v in entry["luck"]]
            notes.append(ChanceNote(int(entry["turn"]), str(entry["event"]),
                                    (luck[0], luck[1])))
            continue
        seat = int(entry["seat"])
        if seat not in (0, 1) or entry["label"] not in (None, *LABEL_NAMES):
            raise ValueError(f"not a decision: {entry!r}")
        counts[seat] += 1
        top = tuple(TopMove(Move.parse(str(t["move"])), float(t["margin"]), float(t["win"]))
                    for t in entry["top"])
        expected = [float(v) for v in entry["expected"]]
        notes.append(DecisionNote(
            int(entry["turn"]), seat, Move.parse(str(entry["played"])),
            Move.parse(str(entry["best"])), float(entry["loss_stars"]),
            float(entry["loss_win"]), entry["label"], str(entry["reason"]), top,
            (expected[0], expected[1])))
    seats = [SeatNote(str(s["name"]), float(s["error_rate"]), float(s["luck"]),
                      {n: int(s["labels"][n]) for n in LABEL_NAMES}, counts[i],
                      _account(s.get("account")))
             for i, s in enumerate(data["seats"][:2])]
    if len(seats) != 2:
        raise ValueError("an analysis has two seats")
    return Analysis((seats[0], seats[1]), tuple(notes))


def _account(data: Any) -> Account | None:
    if data is None:
        return None
    names = ("start", "own", "other", "luck", "drift", "final")
    return Account(*(float(data[name]) for name in names))


def summary(analysis: Analysis, seat: int = 0) -> str:
    """One plain line about ``seat`` against the other: did it play better (its error
    rate), did it draw better (its luck)."""
    me, other = analysis.seats[seat], analysis.seats[1 - seat]
    if me.error_rate < other.error_rate:
        play, good = "played better", True
    elif me.error_rate > other.error_rate:
        play, good = "played worse", False
    else:
        play, good = "played as well", True
    if me.luck > other.luck:  # both unlucky: the less unlucky did not draw "better"
        draw, lucky = ("drew less badly" if me.luck < 0 else "drew better"), True
    elif me.luck < other.luck:
        draw, lucky = ("drew less well" if me.luck > 0 else "drew worse"), False
    else:
        draw, lucky = "drew as well", good
    glue = "and" if lucky == good else "but"
    return (f"{me.name} {play} ({me.error_rate:.1f}★ lost a decision against "
            f"{other.error_rate:.1f}★) {glue} {draw} (luck {signed(me.luck)}★ against "
            f"{signed(other.luck)}★)")


def seat_line(name: str, error_rate: float, labels: dict[str, int], luck: float) -> str:
    """One seat's figures: "Ann: 0.98★ lost a decision; 1 inaccuracy, 2 mistakes,
    0 blunders; luck −20.8★"."""
    counts = ", ".join(_counted(labels[n], n) for n in LABEL_NAMES)
    return f"{name}: {error_rate:.2f}★ lost a decision; {counts}; luck {signed(luck)}★"


def print_text(data: dict[str, Any], line: str, out: Any = None) -> None:
    """The analysis (its JSON, ``to_json``) as lines of text for a terminal, then the
    summary ``line``."""
    out = out if out is not None else sys.stdout
    names = [s["name"] for s in data["seats"]]
    for note in data["decisions"]:
        if "event" in note:
            luck = ", ".join(f"{n} {signed(v)}★" for n, v in zip(names, note["luck"], strict=True))
            print(f"turn {note['turn']:>2}  chance: {note['event']} (luck: {luck})", file=out)
            continue
        mark = f"  [{note['label']}]" if note["label"] else ""
        text = f"turn {note['turn']:>2}  {names[note['seat']]}: {note['played']}"
        if note["played"] != note["best"]:
            text += (f"  best {note['best']}: {signed(-note['loss_stars'])}★, "
                     f"{signed(-note['loss_win'] * 100, 0)}% win")
        print(text + mark, file=out)
    for s in data["seats"]:
        print(seat_line(s["name"], s["error_rate"], s["labels"], s["luck"]), file=out)
        if s.get("account"):
            print(f"  {account_line(_account(s['account']))}", file=out)
    print(line, file=out)


def account_line(account: Account | None) -> str:
    """Where a seat's final margin came from: "expected +2.1★ at the start, own decisions
    −4.6★, the other's +1.0★, luck −3.2★, the judge's drift +0.3★: final −4★"."""
    if account is None:
        return ""
    a = account
    return (f"expected {signed(a.start)}★ at the start, own decisions {signed(a.own)}★, "
            f"the other's {signed(a.other)}★, luck {signed(a.luck)}★, the judge's drift "
            f"{signed(a.drift)}★: final {signed(a.final, 0)}★")


def _counted(count: int, label: str) -> str:
    """"1 mistake", "2 mistakes", "0 inaccuracies"."""
    if count == 1:
        return f"1 {label}"
    return f"{count} {label[:-1]}ies" if label.endswith("y") else f"{count} {label}s"


def dumps(analysis: Analysis) -> str:
    return json.dumps(to_json(analysis), indent=1, ensure_ascii=False)

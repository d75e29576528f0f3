"""A record is data, whoever sent it: a seat's kind names one of the program's bots or an
installed one, never a module to import; every number in it is bounded; only a regular file
is read, and a FIFO or a device is refused at once, without waiting on it."""

from __future__ import annotations

import contextlib
import io
import os
import random
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solstis_tui import analyze_command, cli, files, records, records_cli
from solstis_tui.ai.registry import make_bot
from solstis_tui.coach import analysis, store
from solstis_tui.core import Game
from solstis_tui.local import practice
from solstis_tui.local.seats import Seat
from solstis_tui.records import RecordError, SeatRecord, dumps, loads, loads_bytes, record_of
from tests.test_records import WHEN, finished

MARKER_MODULE = """
from pathlib import Path
Path({marker!r}).write_text("imported")
from solstis_tui.ai.base import RandomBot

class Bot(RandomBot):
    name = "marker"
"""


def record_against(kind: str, seed: int = 4, variant: str = "base") -> records.GameRecord:
    """A finished game of a person (seat 1) against a seat of kind ``kind`` (seat 2)."""
    return record_of(finished(seed, variant),
                     (SeatRecord("You", "human"), SeatRecord("Evil", kind)), WHEN)


def finishes(call: Callable[[], object], seconds: float = 60) -> object:
    """``call()`` in a thread: its result (or its exception, raised again), failing the
    test if it has not returned within ``seconds`` (a safety net for a read that would
    wait on a FIFO for ever)."""
    out: list[tuple[object, BaseException | None]] = []

    def run() -> None:
        try:
            out.append((call(), None))
        except BaseException as exc:  # handed to the test's thread
            out.append((None, exc))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert out, "it waited on the file instead of refusing it"
    result, error = out[0]
    if error is not None:
        raise error
    return result


@pytest.fixture
def marker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A module ``marker_bot`` on sys.path that writes the returned file when imported."""
    folder = tmp_path / "mods"
    folder.mkdir()
    made = tmp_path / "IMPORTED"
    (folder / "marker_bot.py").write_text(MARKER_MODULE.format(marker=str(made)))
    monkeypatch.syspath_prepend(str(folder))
    yield made
    sys.modules.pop("marker_bot", None)


@pytest.mark.parametrize("kind", ["marker_bot:Bot", "marker_bot", "marker_bot@2s"])
def test_a_record_naming_a_module_never_imports_it_in_review_play_from_here_or_analyze(
        kind: str, marker: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(practice, "STANDIN", "random")  # the stand-in thinks in-process
    monkeypatch.setattr(store, "EFFORT", analysis.TINY)
    path = tmp_path / "sent.solstis"
    path.write_text(dumps(record_against(kind)))
    found = records_cli.load_for_review(str(path), io.StringIO())  # solstis review FILE
    assert found is not None
    record = found[0]
    assert record.seats[1].kind == kind  # kept as text: the review shows the record
    for seat in (0, 1):  # play from here, either seat, and the other seat's bot made
        session = practice.start(record, 3, seat)
        session.bot(1 - seat)
    assert practice.opponent(record, 0) == Seat("random")  # the drill's opponent too
    assert analyze_command.main([str(path), "--workers", "1"]) == 0
    assert "Evil" in capsys.readouterr().out
    assert not marker.exists()
    assert "marker_bot" not in sys.modules


@pytest.mark.parametrize(("kind", "plays", "says"), [
    ("venv.__main__:Bot", practice.STANDIN, "never a module to import"),
    ("not-installed-here", practice.STANDIN, "not a bot this program has"),
    ("mcts@99999s", "mcts", "more than a bot may think"),
    ("expert@fast", "expert", "not a bot's name with an optional @budget"),
])
def test_play_from_here_names_the_records_line_and_the_tier_that_plays_instead(
        kind: str, plays: str, says: str) -> None:
    record = record_against(kind)
    against = practice.opponent_of(record, 0)
    assert against.seat == Seat(plays)
    line = record.line_of("seat 2")
    assert line == 6
    assert against.note.startswith(f"Seat 2 of this record (line {line}) cannot play here")
    assert says in against.note
    assert against.note.endswith(f"The {Seat(plays).title} plays it instead.")


@pytest.mark.parametrize(("kind", "plays"), [
    ("mcts@0.5s", "mcts@0.5s"), ("MCTS", "mcts"), ("plain-ismcts@1250", "plain-ismcts@1250"),
    ("human", practice.STANDIN), ("random@60s", "random@60s"),
])
def test_play_from_here_plays_the_records_own_bot_when_the_program_has_it(
        kind: str, plays: str) -> None:
    against = practice.opponent_of(record_against(kind), 0)
    assert against == practice.Opponent(Seat(plays))


# ---------------------------------------------------------------------- numbers
def _edit(text: str, start: str, new: str) -> tuple[str, int]:
    """``text`` with the first line beginning ``start`` replaced by ``new``; its line."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(start))
    lines[at] = new
    return "\n".join(lines), at + 1


HUGE = "9" * 5000  # past Python's int-string limit (4,300 digits)


@pytest.mark.parametrize(("start", "new", "says"), [
    pytest.param("turn 1, seat 1", f"turn {HUGE}, seat 1: play 3-5",
                 "past the last a game may have", id="turn of 5000 digits"),
    pytest.param("turn 1, seat 1", "turn 1001, seat 1: play 3-5", "(turn 1,000)",
                 id="turn 1001"),
    pytest.param("turn 1, seat 1", "turn \u0663, seat 1: play 3-5", "expected a decision",
                 id="an Arabic-Indic digit"),
    pytest.param("seed:", f"seed: {HUGE}", "at most 256 bits", id="seed of 5000 digits"),
    pytest.param("seed:", f"seed: -{2 ** 256}", "at most 256 bits", id="seed -2**256"),
    pytest.param("moves:", f"moves: {HUGE}", "at most 10,000", id="moves of 5000 digits"),
    pytest.param("moves:", f"moves: {'0' * 5000}7", "the 7 moves its 'moves:' line says",
                 id="7 moves after 5000 zeros"),
    pytest.param("scores:", f"scores: {HUGE} 3", "at most 10,000 stars",
                 id="score of 5000 digits"),
    pytest.param("seat 2:", "seat 2: Evil (mcts@" + "9" * 13 + ")", "a kind is at most 100",
                 id="budget of 13 digits"),
    pytest.param("seat 2:", "seat 2: Evil (" + "x" * 101 + ")", "a kind is at most 100",
                 id="kind of 101 letters"),
    pytest.param("solstis game record", f"solstis game record {HUGE}", "format version 999",
                 id="version of 5000 digits"),
])
def test_a_huge_number_is_refused_naming_its_line_never_a_traceback(
        start: str, new: str, says: str) -> None:
    text, line = _edit(dumps(record_against("random")), start, new)
    with pytest.raises(RecordError) as caught:
        loads(text)
    assert caught.value.line == line or "moves:" in says  # that one: the first extra move
    assert says in str(caught.value)
    assert len(str(caught.value)) < 300  # a message, not the damaged line again


def test_solstis_review_refuses_a_5000_digit_turn_with_its_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    text, line = _edit(dumps(record_against("random")), "turn 1, seat 1",
                       f"turn {HUGE}, seat 1: play 3-5")
    path = tmp_path / "sent.solstis"
    path.write_text(text)
    monkeypatch.setattr(cli, "has_terminal", lambda: True)
    monkeypatch.setattr("solstis_tui.app.SolstisApp.run", lambda *a, **k: None)
    assert cli.main(["review", str(path)]) == 2
    assert f"does not load, line {line}: turn 999" in capsys.readouterr().err


def test_a_record_is_written_only_with_a_seed_a_record_may_hold() -> None:
    game = Game.new(2 ** records.SEED_BITS)
    rng = random.Random(1)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    with pytest.raises(ValueError, match="256 bits"):
        record_of(game, (SeatRecord("A", "human"), SeatRecord("B", "random")), WHEN)


@pytest.mark.parametrize("text", [
    pytest.param('{"seed": ' + "9" * 100 + ', "moves": []}', id="a seed of 100 digits"),
    pytest.param("[" * 100_000, id="nested 100,000 deep"),
    pytest.param('{"seed": 1, "moves": ' + "[" * 50_000, id="moves nested 50,000 deep"),
])
def test_analyze_refuses_a_json_game_past_the_bounds_with_a_message(text: str) -> None:
    with pytest.raises(store.RecordProblem):
        store.load(text)


# ---------------------------------------------------------------------- not files
@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.solstis"
    os.mkfifo(path)
    yield path
    with contextlib.suppress(OSError):  # a reader left waiting (a failed test) is let go
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


def test_analyze_refuses_a_fifo_at_once(fifo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert finishes(lambda: analyze_command.main([str(fifo)])) == 2
    assert "is a FIFO (a named pipe), not a file" in capsys.readouterr().err


def test_review_refuses_a_fifo_at_once(fifo: Path) -> None:
    err = io.StringIO()
    assert finishes(lambda: records_cli.load_for_review(str(fifo), err)) is None
    assert "is a FIFO (a named pipe), not a record file" in err.getvalue()


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_review_and_analyze_refuse_a_device(device: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    assert analyze_command.main([device]) == 2
    assert "is a device, not a file" in capsys.readouterr().err
    err = io.StringIO()
    assert records_cli.load_for_review(device, err) is None
    assert "is a device, not a record file" in err.getvalue()


def test_a_fifo_swapped_in_after_the_look_is_refused_without_waiting(
        fifo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The race: the path was a file when looked at, and a FIFO when opened."""
    plain = tmp_path / "plain.solstis"
    plain.write_text("x")
    real_stat = os.stat

    def looked_at_before_the_swap(p: object, *args: object, **kw: object) -> os.stat_result:
        return real_stat(plain) if str(p) == str(fifo) else real_stat(p, *args, **kw)

    monkeypatch.setattr(files.os, "stat", looked_at_before_the_swap)
    with pytest.raises(files.NotAFile, match="FIFO"):
        finishes(lambda: records.read_text(fifo))


def test_a_fifo_where_the_kept_analysis_goes_is_analysed_afresh_not_waited_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "EFFORT", analysis.TINY)
    path = tmp_path / "game.solstis"
    path.write_text(dumps(record_against("random")))
    os.mkfifo(store.cache_path(path))
    assert finishes(lambda: store.kept(path), 60) is None


# ---------------------------------------------------------------------- any damage
BASES = [dumps(record_against(kind, seed, variant)).encode()
         for kind, seed, variant in (("mcts@0.5s", 4, "base"), ("human", 5, "firefly"),
                                     ("plain-ismcts@1250", 6, "beginner"))]
KINDS = ["venv.__main__:Bot", "marker_bot:Bot", "marker_bot", "os:system", "this",
         "mcts@99999999s", "expert@" + "9" * 12, "MCTS", "a.b:C.D", "x" * 120, "human"]
PIECES = [HUGE, "9" * 4301, str(2 ** 256), "\u0663", "\x00", "\x1b[31m", "\u202e", "\r",
          "\ufeff", ")", " (", ":", "@", "\n", "turn 1, seat 1: draw\n", "#"]
edits = st.one_of(
    st.tuples(st.just("kind"), st.integers(0, 1), st.sampled_from(KINDS)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.sampled_from(PIECES) | st.text()),
    st.tuples(st.just("digits"), st.integers(0, 10**6), st.sampled_from(PIECES[:4])),
    st.tuples(st.just("cut"), st.integers(0, 10**6), st.just("")),
    st.tuples(st.just("byte"), st.integers(0, 10**6), st.binary(min_size=1, max_size=4)),
)


def edited(base: bytes, changes: list[tuple[str, int, object]]) -> bytes:
    data = base
    for how, at, what in changes:
        if how == "kind":
            lines = data.split(b"\n")
            seat = next((i for i, line in enumerate(lines)
                         if line.startswith(f"seat {at + 1}:".encode())), None)
            if seat is not None:
                lines[seat] = lines[seat].rpartition(b" (")[0] + f" ({what})".encode()
            data = b"\n".join(lines)
            continue
        at %= len(data) + 1
        if how == "digits":  # the next run of digits made another number
            start = next((i for i in range(at, len(data)) if data[i:i + 1].isdigit()), None)
            if start is not None:
                end = start
                while data[end:end + 1].isdigit():
                    end += 1
                data = data[:start] + str(what).encode() + data[end:]
        elif how == "cut":
            data = data[:at]
        elif how == "byte":
            assert isinstance(what, bytes)
            data = data[:at] + what + data[at + len(what):]
        else:
            data = data[:at] + str(what).encode("utf-8", "surrogatepass") + data[at:]
    return data


def through_the_paths(data: bytes) -> None:
    """``data`` read as review reads it; if it loads, play from here as each seat with the
    other seat's bot made (as its worker process makes it); read as analyze reads it."""
    try:
        record = loads_bytes(data)
    except RecordError as exc:
        assert 1 <= exc.line <= data.count(b"\n") + 2
        record = None
    if record is not None:
        chances = practice.points(record)
        for seat in (0, 1):
            if chances:
                session = practice.start(record, len(chances) // 2, seat)
                make_bot(str(session.setup.seats[1 - seat]), 1)
    with contextlib.suppress(UnicodeDecodeError, store.RecordProblem):
        store.load(data.decode("utf-8"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BASES), st.lists(edits, min_size=1, max_size=3))
def test_any_damage_gives_a_record_or_a_refusal_and_imports_nothing(
        base: bytes, changes: list[tuple[str, int, object]]) -> None:
    """Whatever is done to a real record, review reads it or refuses it naming a line,
    play from here plays one of the program's own bots, and the analysis reads it or
    refuses it: never a traceback, never a module looked for."""
    data = edited(base, changes)
    through_the_paths(base)  # once undamaged: what the paths import lazily is loaded
    asked: list[str] = []

    class Watch:
        @staticmethod
        def find_spec(name: str, *_: object) -> None:
            asked.append(name)

    sys.meta_path.insert(0, Watch)  # type: ignore[arg-type]
    try:
        through_the_paths(data)
    finally:
        sys.meta_path.remove(Watch)  # type: ignore[arg-type]
    assert asked == []


def test_docs_say_what_a_seat_kind_may_be_and_the_bounds() -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text()
    for figure in (f"{records.MAX_TURN:,}", f"{records.MAX_MOVES:,}",
                   f"{records.MAX_SCORE:,}", f"2^{records.SEED_BITS}", "solstis.bots",
                   f"{records.MAX_KIND}"):
        assert figure in docs, figure

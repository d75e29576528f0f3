"""Game records: a finished game written as text reads back as the same game, replays to
its scores, and a record that is cut short, edited, of another version or binary is
refused with a message naming its line, without a crash and without changing the file."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from solstis_tui.core import EndReason, Game, Options
from solstis_tui.records import (
    GameRecord,
    RecordError,
    SeatRecord,
    dumps,
    loads,
    loads_bytes,
    read,
    record_of,
    replay,
)

SEATS = (SeatRecord("Alice", "human"), SeatRecord("Random bot", "random"))
WHEN = datetime(2026, 12, 4, 17, 30, tzinfo=UTC)


def finished(seed: int, variant: str = "base") -> Game:
    """A game played to its end by random moves."""
    game = Game.new(seed, Options.for_variant(variant))
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game


def record_text(seed: int = 4, variant: str = "base") -> str:
    return dumps(record_of(finished(seed, variant), SEATS, WHEN))


def refused(text: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        loads(text)
    return caught.value


def line_of(text: str, start: str) -> int:
    """The 1-based number of the first line of ``text`` that begins with ``start``."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


@pytest.mark.parametrize("variant", ["base", "beginner", "firefly"])
def test_finished_games_read_back_as_written_and_replay_to_their_scores(variant):
    for seed in range(10):
        game = finished(seed, variant)
        record = record_of(game, SEATS, WHEN)
        back = loads(dumps(record))
        assert back == record
        again = replay(back)
        assert (again.score(0).total, again.score(1).total) == record.scores == (
            game.score(0).total, game.score(1).total)
        assert again.winner == game.winner and again.end_reason is game.end_reason


def test_a_record_is_text_a_person_reads_one_decision_a_line():
    game = finished(4)
    text = dumps(record_of(game, SEATS, WHEN))
    lines = text.splitlines()
    assert lines[0] == "solstis game record 1"
    assert "date: 2026-12-04T17:30:00Z" in lines
    assert "seat 1: Alice (human)" in lines and "seat 2: Random bot (random)" in lines
    assert f"seed: {game.seed}" in lines
    assert f"scores: {game.score(0).total} {game.score(1).total}" in lines
    decisions = [line for line in lines if line.startswith("turn ")]
    assert decisions[0].startswith("turn 1, seat 1: play ")
    assert len(decisions) == sum(1 for *_, auto in game.history if not auto)


def test_comments_and_blank_lines_a_person_adds_are_read_past():
    text = record_text()
    noted = text.replace("moves:", "# a note of mine\n\nmoves:", 1)
    assert loads(noted) == loads(text)


def test_a_record_saved_by_a_windows_editor_still_reads():
    text = record_text()
    assert loads("\ufeff" + text.replace("\n", "\r\n")) == loads(text)


def test_a_game_in_progress_has_no_record():
    game = Game.new(4, Options())
    with pytest.raises(ValueError, match="finished"):
        record_of(game, SEATS, WHEN)


def test_a_resigned_game_replays_with_its_resignation():
    game = Game.new(8, Options())
    rng = random.Random(8)
    for _ in range(12):
        game.play(rng.choice(game.legal_moves()))
    game.end(EndReason.RESIGNED, loser=0)
    record = loads(dumps(record_of(game, SEATS, WHEN)))
    assert record.end is EndReason.RESIGNED and record.winner == 1
    assert replay(record).end_reason is EndReason.RESIGNED


def test_a_name_with_line_breaks_or_escapes_stays_on_its_line():
    seats = (SeatRecord("Eve\nmoves: 0\x1b[2J", "human"), SeatRecord("Bot", "random"))
    text = dumps(record_of(finished(4), seats, WHEN))
    record = loads(text)
    assert record.seats[0].name == "Eve moves: 0 [2J"
    assert sum(line.startswith("moves:") for line in text.splitlines()) == 1


# ---------------------------------------------------------------------- bad records
def test_a_record_cut_short_among_its_moves_is_refused_at_the_line_after_it():
    text = record_text()
    lines = text.splitlines(keepends=True)
    kept = lines[:line_of(text, "turn ") + 5]  # the header and six moves
    error = refused("".join(kept))
    assert error.line == len(kept) + 1
    assert "cut short" in str(error) and str(error).startswith(f"line {len(kept) + 1}:")


def test_a_record_cut_in_the_middle_of_a_line_is_refused_at_that_line():
    text = record_text()
    cut = text.index("\n", text.index("turn 3,")) - 2  # 'turn 3, seat 1: play 3-' ...
    error = refused(text[:cut])
    assert error.line == line_of(text, "turn 3,") and "cut short" in str(error)


def test_a_record_cut_in_its_header_names_the_missing_line():
    text = record_text()
    head = "".join(text.splitlines(keepends=True)[:line_of(text, "seed:") - 1])
    error = refused(head)
    assert error.line == line_of(text, "seed:") and "'seed:'" in str(error)


def test_an_edited_illegal_move_is_refused_at_its_line():
    text = record_text()
    number = line_of(text, "turn 2,")
    lines = text.splitlines()
    # Seat 2 plays a tile it cannot hold: one of the tiles seat 1 just played or holds.
    lines[number - 1] = lines[number - 1].rsplit(":", 1)[0] + ": play 6-4"
    game = Game.new(int(next(x for x in lines if x.startswith("seed:"))[5:]), Options())
    assert 40 not in game.hands[1]  # 6-4 is not in seat 2's opening hand
    error = refused("\n".join(lines) + "\n")
    assert error.line == number and "not a legal move" in str(error)


def test_an_edited_score_is_refused_at_the_scores_line():
    text = record_text()
    number = line_of(text, "scores:")
    lines = text.splitlines()
    lines[number - 1] = "scores: 99 0"
    error = refused("\n".join(lines))
    assert error.line == number and "99 0" in str(error)


def test_a_move_given_to_the_wrong_seat_is_refused_at_its_line():
    text = record_text()
    number = line_of(text, "turn 1, seat 1:")
    edited = text.replace("turn 1, seat 1:", "turn 1, seat 2:", 1)
    error = refused(edited)
    assert error.line == number and "seat 1 to decide" in str(error)


def test_a_record_of_another_version_is_refused_at_its_first_line():
    text = record_text().replace("solstis game record 1", "solstis game record 2", 1)
    error = refused(text)
    assert error.line == 1 and "version 2" in str(error)


def test_a_file_that_is_no_record_is_refused_at_its_first_line():
    error = refused("hello world\n")
    assert error.line == 1 and "not a Solstis game record" in str(error)


def test_binary_data_is_refused_at_its_line(tmp_path: Path):
    path = tmp_path / "picture.solstis"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    with pytest.raises(RecordError) as caught:
        read(path)
    assert caught.value.line == 1 and "binary" in str(caught.value)
    with pytest.raises(RecordError) as caught:
        loads_bytes(record_text().encode() + b"turn 99, seat 1: \x00\x01\x02\n")
    assert "binary" in str(caught.value) and caught.value.line > 10


def test_a_huge_file_is_refused_where_it_passes_the_limit_without_reading_it_all(
        tmp_path: Path):
    path = tmp_path / "huge.solstis"
    text = record_text()
    with path.open("w") as handle:
        handle.write(text)
        handle.write("# padding\n" * 300_000)  # 3 MB
    with pytest.raises(RecordError) as caught:
        read(path)
    assert "not one" in str(caught.value)
    assert caught.value.line == text.count("\n") + 1 + (1_000_000 - len(text)) // 10


def test_reading_a_bad_record_changes_nothing(tmp_path: Path):
    path = tmp_path / "bad.solstis"
    data = record_text().replace("scores:", "scores: 1 2\n#", 1).encode()
    path.write_bytes(data)
    before = path.stat().st_mtime_ns
    with pytest.raises(RecordError):
        read(path)
    assert path.read_bytes() == data and path.stat().st_mtime_ns == before
    assert [p.name for p in tmp_path.iterdir()] == ["bad.solstis"]


#: What the damage below writes into a record: bytes, words of the format, odd digits.
WORDS = [b"play", b"capture", b"take bee", b"seat 1", b"seat 2", b"turn 3", b"none",
         b"normal", b"resigned", b"abandoned", b"\xc2\xb2", b"99", b"-1", b"\xd9\xa3",
         b"5-5", b"square 2-3", b"deal: splitmix\n", b"program: x\n", b":", b"\n", b"#"]


def damaged(rng: random.Random, texts: list[bytes]) -> bytes:
    """One of ``texts`` with a few bytes changed, cut out or written in, maybe cut short."""
    data = bytearray(rng.choice(texts))
    for _ in range(rng.randint(1, 3)):
        at, how = rng.randrange(len(data)), rng.random()
        if how < 0.3:
            data[at] = rng.randrange(256)
        elif how < 0.5:
            del data[at:at + rng.randint(1, 20)]
        else:
            word = rng.choice(WORDS)
            data[at:at + rng.randint(0, len(word))] = word
    if rng.random() < 0.1:
        data = data[:rng.randrange(len(data))]
    return bytes(data)


def test_random_damage_is_refused_naming_a_line_or_read_never_a_crash():
    """Whatever an accident does to a record, reading it gives either a record that
    replays or a RecordError naming a line of the file: never another exception."""
    texts = [record_text(seed, variant).encode()
             for seed in range(3) for variant in ("base", "beginner", "firefly")]
    rng = random.Random(8)
    for _ in range(1500):
        data = damaged(rng, texts)
        try:
            record = loads_bytes(data)
        except RecordError as exc:
            assert 1 <= exc.line <= data.count(b"\n") + 2
        else:
            assert isinstance(record, GameRecord)


def test_docs_records_md_names_every_header_field_and_end_reason():
    """docs/records.md documents the format: every header field and every end reason."""
    from solstis_tui import records

    docs = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text()
    for name in records._FIELDS:
        assert f"`{name}`" in docs, name
    for reason in EndReason:
        assert f"`{reason.value}`" in docs, reason
    assert f"solstis game record {records.VERSION}" in docs

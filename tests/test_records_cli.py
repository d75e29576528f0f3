"""``solstis games`` lists the kept records newest first and exports one; ``solstis review``
refuses a record that does not load, naming its line, before any screen opens. No command
changes a record file."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from solstis_tui import cli, record_files
from solstis_tui.core import EndReason, Game, Options
from solstis_tui.records import SeatRecord, dumps, read, record_of
from solstis_tui.records_cli import games_main

WHEN = datetime(2026, 12, 4, 17, 30, tzinfo=UTC)


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "data"
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(path))
    return path


def kept(seed: int, seats: tuple[SeatRecord, SeatRecord], when: datetime,
         variant: str = "base") -> Path:
    game = Game.new(seed, Options.for_variant(variant))
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return record_files.keep(record_of(game, seats, when))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = games_main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_games_lists_the_kept_games_newest_first_with_opponent_result_and_end():
    you = SeatRecord("You", "human")
    older = kept(1, (you, SeatRecord("Greedy bot", "greedy")), WHEN)
    newer = kept(2, (SeatRecord("MCTS bot", "mcts"), you), WHEN + timedelta(hours=1),
                 "firefly")
    status, out, err = run()
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["id", "date", "opponent", "variant", "result", "ended"]
    assert lines[1].startswith(newer.stem) and lines[2].startswith(older.stem)
    assert "MCTS bot" in lines[1] and "firefly" in lines[1]
    assert "Greedy bot" in lines[2] and "played out" in lines[2]
    first = read(older)
    mine, theirs = first.scores
    word = "drawn" if first.winner is None else "won" if first.winner == 0 else "lost"
    assert f"{word} {mine}-{theirs}" in lines[2]


def test_a_kept_record_that_no_longer_loads_is_named_with_its_line_and_left_alone():
    you = SeatRecord("You", "human")
    good = kept(1, (you, SeatRecord("Greedy bot", "greedy")), WHEN)
    bad = good.with_name("damaged.solstis")
    data = good.read_bytes().replace(b"solstis game record 1", b"solstis game record 7")
    bad.write_bytes(data)
    status, out, err = run()
    assert status == 0 and good.stem in out and "damaged" not in out
    assert "damaged.solstis" in err and "line 1" in err and "version 7" in err
    assert bad.read_bytes() == data


def test_export_writes_the_record_as_kept_and_never_over_a_file(tmp_path: Path):
    path = kept(3, (SeatRecord("You", "human"), SeatRecord("Random bot", "random")), WHEN)
    target = tmp_path / "for-a-friend.solstis"
    status, out, _ = run("--export", path.stem[:6], str(target))
    assert status == 0 and target.read_bytes() == path.read_bytes()
    assert f"Record {path.stem} written to {target}" in out
    target.write_text("mine")
    status, _, err = run("--export", path.stem, str(target))
    assert status == 2 and "exists" in err and target.read_text() == "mine"


def test_export_of_an_unknown_id_says_so():
    status, _, err = run("--export", "0123456789", "out.solstis")
    assert status == 2 and "no record '0123456789'" in err


def test_review_refuses_a_record_that_does_not_load_naming_its_line(tmp_path, capsys,
                                                                     monkeypatch):
    game = Game.new(5, Options())
    rng = random.Random(5)
    for _ in range(10):
        game.play(rng.choice(game.legal_moves()))
    game.end(EndReason.RESIGNED, 1)
    text = dumps(record_of(game, (SeatRecord("A", "human"), SeatRecord("B", "human")), WHEN))
    path = tmp_path / "sent.solstis"
    path.write_text(text[: len(text) // 2 + 3])
    monkeypatch.setattr(cli, "has_terminal", lambda: True)
    started = []
    monkeypatch.setattr("solstis_tui.app.SolstisApp.run", lambda *a, **k: started.append(1))
    assert cli.main(["review", str(path)]) == 2
    err = capsys.readouterr().err
    assert "sent.solstis does not load, line " in err and "cut short" in err
    assert started == []


def test_review_opens_a_record_someone_sent(tmp_path, monkeypatch):
    game = Game.new(6, Options())
    rng = random.Random(6)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    path = tmp_path / "sent.solstis"
    path.write_text(dumps(record_of(
        game, (SeatRecord("Ann", "human"), SeatRecord("Random bot", "random")), WHEN)))
    monkeypatch.setattr(cli, "has_terminal", lambda: True)
    opened = []
    monkeypatch.setattr("solstis_tui.app.SolstisApp.run",
                        lambda app, **k: opened.append(app.review))
    assert cli.main(["review", str(path)]) == 0
    (record,) = opened
    assert record.seats[0].name == "Ann"
    assert record == read(path)


def test_a_listing_piped_to_a_reader_that_stopped_ends_quietly(data_dir):
    """``solstis games | head -1``: the reader is gone before the list is written."""
    import os
    import subprocess
    import sys

    kept(3, (SeatRecord("You", "human"), SeatRecord("Greedy bot", "greedy")), WHEN)
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader stops at once: every write finds the pipe broken
    try:
        games = "import sys; from solstis_tui.cli import main; sys.exit(main(['games']))"
        done = subprocess.run([sys.executable, "-c", games], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "SOLSTIS_DATA_DIR": str(data_dir)})
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert done.returncode == 1

"""``solstis games`` and ``solstis review`` on the cases a player meets beyond the usual list:
nothing kept yet, a hot-seat game, a game nobody played out or one somebody resigned, a
record exported to the terminal or to a folder that is not there, ``review`` with no record
named. Each says what happened in words and changes no file."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from solstis_tui import cli, record_files
from solstis_tui.core import EndReason, Game, Options
from solstis_tui.records import SeatRecord, read, record_of
from solstis_tui.records_cli import games_main

WHEN = datetime(2026, 12, 4, 17, 30, tzinfo=UTC)
ANN, BOB = SeatRecord("Ann", "human"), SeatRecord("Bob", "human")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "data"
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(path))
    return path


def kept(seed: int, seats: tuple[SeatRecord, SeatRecord], when: datetime = WHEN,
         end: EndReason | None = None, loser: int | None = None) -> Path:
    """A kept game: played out, or ended after ten decisions for ``end``."""
    game = Game.new(seed, Options())
    rng = random.Random(seed)
    while not game.is_over and (end is None or len(game.history) < 10):
        game.play(rng.choice(game.legal_moves()))
    if end is not None:
        game.end(end, loser)
    return record_files.keep(record_of(game, seats, when))


def games(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = games_main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_with_nothing_kept_games_says_where_finished_games_will_be_kept(data_dir):
    assert games() == (0, f"No games kept yet: a finished game is kept in "
                          f"{record_files.records_dir()}\n", "")
    assert str(data_dir) in str(record_files.records_dir())


def test_a_hot_seat_game_lists_both_players_and_who_won():
    path = kept(1, (ANN, BOB))
    record = read(path)
    _status, out, _err = games()
    line = out.splitlines()[1]
    assert "Ann vs Bob" in line
    a, b = record.scores
    won = "drawn" if record.winner is None else f"{('Ann', 'Bob')[record.winner]} won"
    assert f"{won} {a}-{b}" in line


def test_a_game_nobody_played_out_has_no_result_and_a_resignation_names_who_resigned():
    kept(2, (ANN, SeatRecord("Greedy bot", "greedy")), end=EndReason.ABANDONED)
    kept(3, (ANN, SeatRecord("Greedy bot", "greedy")), WHEN + timedelta(hours=1),
         end=EndReason.RESIGNED, loser=0)
    _status, out, _err = games()
    resigned, abandoned = out.splitlines()[1:]
    assert "no result" in abandoned
    assert "lost" in resigned and "Ann resigned" in resigned


def test_export_to_a_dash_prints_the_record_as_kept():
    path = kept(4, (ANN, SeatRecord("Random bot", "random")))
    status, out, err = games("--export", path.stem, "-")
    assert (status, err) == (0, "")
    assert out.encode("utf-8") == path.read_bytes()


def test_export_into_a_folder_that_is_not_there_says_it_cannot_write(tmp_path):
    path = kept(4, (ANN, SeatRecord("Random bot", "random")))
    target = tmp_path / "no-such-folder" / "game.solstis"
    status, out, err = games("--export", path.stem, str(target))
    assert status == 2 and out == ""
    assert f"solstis games: cannot write {target}: No such file or directory" in err
    assert not target.parent.exists()


@pytest.fixture
def screens(monkeypatch) -> list[object]:
    """The records the analysis board opened (none opens in a test)."""
    opened: list[object] = []
    monkeypatch.setattr(cli, "has_terminal", lambda: True)
    monkeypatch.setattr("solstis_tui.app.SolstisApp.run",
                        lambda app, **k: opened.append(app.review))
    return opened


def test_review_with_nothing_kept_asks_for_a_record_file(screens, capsys):
    assert cli.main(["review"]) == 2
    assert "solstis review: no games are kept yet; give a record file" in \
        capsys.readouterr().err
    assert screens == []


def test_review_with_no_record_named_opens_the_newest_kept_game(screens):
    kept(5, (ANN, SeatRecord("Random bot", "random")))
    newest = kept(6, (ANN, SeatRecord("Greedy bot", "greedy")), WHEN + timedelta(days=1))
    assert cli.main(["review"]) == 0
    assert screens == [read(newest)]


def test_review_of_a_folder_says_only_a_record_file_is_read(screens, capsys, tmp_path):
    assert cli.main(["review", str(tmp_path)]) == 2
    assert f"solstis review: {tmp_path} is a folder, not a record file" in \
        capsys.readouterr().err
    assert screens == []


def test_review_without_a_terminal_opens_no_screen(screens, capsys, monkeypatch):
    kept(5, (ANN, SeatRecord("Random bot", "random")))
    monkeypatch.setattr(cli, "has_terminal", lambda: False)
    assert cli.main(["review"]) == 2
    assert "the board needs a terminal" in capsys.readouterr().err
    assert screens == []

"""The ``solstis`` command's subcommands as a player types them: each reaches its own
parser; a negative ``--pace`` is refused; a broken install of the arena is said, not a
traceback; ``solstis drill`` says there is nothing to drill without opening a screen, asks
for a terminal before minutes of judging, analyses what is missing with progress, then
opens the drill; an engine edited since it was compiled is said first."""

from __future__ import annotations

import sys

import pytest

from solstis_tui import cli, engine_build
from solstis_tui.coach import analysis, store

from ..drill_games import keep_games


@pytest.fixture
def opened(monkeypatch) -> list[object]:
    """The apps ``solstis`` would have run (none runs in a test)."""
    ran: list[object] = []
    monkeypatch.setattr("solstis_tui.app.SolstisApp.run", lambda app, **k: ran.append(app))
    return ran


@pytest.mark.parametrize(("argv", "prog"), [
    (["host", "--help"], "solstis host"),
    (["host", "status", "--help"], "solstis host status"),
    (["analyze", "--help"], "solstis analyze"),
    (["online", "--help"], "solstis online"),
    (["web", "--help"], "solstis web"),
    (["games", "--help"], "solstis games"),
    (["drill", "--help"], "solstis drill"),
    (["learn", "--help"], "solstis learn"),
])
def test_each_subcommand_answers_help_with_its_own_usage(capsys, argv, prog):
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: {prog} ")


@pytest.mark.parametrize("argv", [["--pace", "-1"], ["learn", "--pace", "-0.5"]])
def test_a_negative_pace_is_refused_before_any_screen(argv, capsys, opened):
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2
    assert "--pace must be 0 or more seconds" in capsys.readouterr().err
    assert opened == []


def test_an_arena_that_cannot_be_imported_is_said_in_one_line(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "solstis_tui.ai.arena", None)  # import fails
    assert cli.main(["arena", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("solstis arena: the arena is not available (")
    assert "Traceback" not in err


def test_an_engine_edited_since_it_was_compiled_is_said_before_anything_else(
        capsys, monkeypatch):
    stale = engine_build.Status(False, "stale", stale="solstis_tui/core/game.py")
    monkeypatch.setattr(engine_build, "STATUS", stale)
    assert cli.main(["games"]) == 0  # and the command runs, on the pure engine
    said = capsys.readouterr()
    assert said.out.startswith("No games kept yet")
    err = said.err
    assert err.startswith("solstis: solstis_tui/core/game.py changed since the engine was "
                          "compiled")
    assert "Rebuild with:" in err


@pytest.fixture
def tiny_judge(monkeypatch):
    """The analysis at its tiny effort, on this process (the drill's tests do the same)."""
    import solstis_tui.ai.expert

    monkeypatch.setattr(store, "EFFORT", analysis.TINY)
    monkeypatch.setattr(solstis_tui.ai.expert, "usable_cores", lambda: 1)


def test_drill_with_nothing_kept_says_so_and_opens_no_screen(capsys, opened):
    assert cli.main(["drill"]) == 0
    assert capsys.readouterr().out.startswith("No mistakes to drill")
    assert opened == []


def test_drill_analyse_asks_for_a_terminal_before_judging_anything(
        data_dir, capsys, opened, monkeypatch, tiny_judge):
    [path] = keep_games(data_dir / "records", [4], analysed=0)
    monkeypatch.setattr(cli, "has_terminal", lambda: False)
    assert cli.main(["drill", "--analyse"]) == 2
    assert "the board needs a terminal" in capsys.readouterr().err
    assert store.kept(path) is None  # nothing was judged
    assert opened == []


def test_drill_analyse_judges_the_games_left_with_progress_then_opens_the_drill(
        data_dir, capsys, opened, tiny_judge):
    [path] = keep_games(data_dir / "records", [4], analysed=0)
    assert cli.main(["drill", "--analyse"]) == 0
    assert "analysing kept games: 1 of 1" in capsys.readouterr().err
    assert store.kept(path) is not None
    [app] = opened
    assert app.drill is not None and app.drill.drill.exercises


def test_drill_without_a_terminal_opens_no_screen(data_dir, capsys, opened, monkeypatch):
    keep_games(data_dir / "records", [4, 5], analysed=2, labelled=True)
    monkeypatch.setattr(cli, "has_terminal", lambda: False)
    assert cli.main(["drill"]) == 2
    assert "the board needs a terminal" in capsys.readouterr().err
    assert opened == []

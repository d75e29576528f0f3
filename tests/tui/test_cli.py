"""The ``solstis`` command line: flags, errors, the arena subcommand."""

from __future__ import annotations

import argparse
import sys
import types

import pytest

from solstis_tui import cli


def test_version_prints_and_exits_zero(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert "solstis" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["--opponent", "grandmaster"],
    ["--variant", "chess"],
    ["--seed", "abc"],
    ["--hotseat", "--watch"],
    ["--theme", "neon"],
    ["--frobnicate"],
    ["--opponent", "nosuchmodule_xyz:Bot"],
])
def test_bad_flags_give_a_clear_error_and_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    assert "error" in capsys.readouterr().err


def seats(setup) -> tuple[str, ...]:
    """The seats as the command line writes them."""
    return tuple(map(str, setup.seats))


def test_flags_make_the_setup():
    parse = cli.build_parser().parse_args
    setup = cli.setup_from_args(parse(["--seed", "7", "--opponent", "greedy", "--first", "you"]))
    assert setup.seed == 7 and seats(setup) == ("human", "greedy") and setup.variant == "base"
    setup = cli.setup_from_args(parse(["--hotseat", "--variant", "firefly"]))
    assert seats(setup) == ("human", "human") and setup.variant == "firefly"
    setup = cli.setup_from_args(parse(["--watch", "--opponent", "random"]))
    assert seats(setup) == ("random", "random")
    setup = cli.setup_from_args(parse([]))
    assert "minimax" in seats(setup) and "human" in seats(setup)


def test_arena_subcommand_forwards_the_rest(monkeypatch):
    seen = {}
    fake = types.ModuleType("solstis_tui.ai.arena")
    fake.main = lambda argv: seen.setdefault("argv", argv) and 0
    monkeypatch.setitem(sys.modules, "solstis_tui.ai.arena", fake)
    assert cli.main(["arena", "--games", "2", "random", "greedy"]) == 0
    assert seen["argv"] == ["--games", "2", "random", "greedy"]


def test_opponent_spec_accepts_tiers_budgets_and_plugins():
    assert cli.opponent_spec("mcts@0.5s") == "mcts@0.5s"
    assert cli.opponent_spec("pkg.mod:Bot") == "pkg.mod:Bot"
    with pytest.raises(argparse.ArgumentTypeError):
        cli.opponent_spec("nope")


@pytest.mark.parametrize("argv, named", [
    (["--resume", "--seed", "7"], "--seed"),
    (["--resume", "--variant", "firefly"], "--variant"),
    (["--resume", "--opponent", "mcts", "--first", "you"], "--opponent, --first"),
])
def test_resume_refuses_options_that_would_be_ignored(argv, named, capsys, monkeypatch):
    started = []
    monkeypatch.setattr("solstis_tui.app.SolstisApp.run", lambda *a, **k: started.append(1))
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2 and not started
    err = capsys.readouterr().err
    assert f"leave out {named}" in err and "--resume continues the saved game" in err


@pytest.mark.parametrize("argv", [["--seed", "3"], ["learn"]])
def test_no_terminal_is_refused_with_a_reason_instead_of_hanging(argv, capsys, monkeypatch):
    """`solstis learn < /dev/null | head` started the full-screen app into a pipe."""
    started = []
    monkeypatch.setattr(cli, "has_terminal", lambda: False)
    monkeypatch.setattr("solstis_tui.app.SolstisApp.run", lambda *a, **k: started.append(1))
    assert cli.main(argv) == 2 and not started
    assert "the board needs a terminal" in capsys.readouterr().err


def test_a_browsers_web_driver_needs_no_terminal(monkeypatch):
    monkeypatch.undo()  # the real check
    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    assert cli.has_terminal()


@pytest.mark.parametrize(("env", "unicode"), [
    ({"LANG": "C"}, False),
    ({"LC_ALL": "C", "LANG": "en_GB.UTF-8"}, False),
    ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, False),  # Python's own coercion of C (PEP 538)
    ({}, False),
    ({"LANG": "POSIX"}, False),
    ({"LANG": "en_GB.UTF-8"}, True),
    ({"LANG": "C.UTF-8"}, True),
    ({"LC_ALL": "de_DE.utf8"}, True),
    ({"LANG": "C", "LC_ALL": "en_US.UTF-8"}, True),
])
def test_ascii_is_drawn_when_the_locale_cannot_show_unicode(env, unicode, monkeypatch):
    assert cli.locale_shows_unicode(env) is unicode
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    modes = []
    monkeypatch.setattr("solstis_tui.app.SolstisApp.run",
                        lambda self, **k: modes.append(self.ascii_mode))
    assert cli.main(["--seed", "3"]) == 0 and cli.main(["learn"]) == 0
    assert modes == [not unicode] * 2


def test_web_games_keep_a_save_of_their_own(monkeypatch, tmp_path):
    """The first page offered to continue a hot-seat game started in the terminal."""
    from solstis_tui import files
    from solstis_tui.client import launch
    from solstis_tui.local import saves

    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(tmp_path))
    served = []
    monkeypatch.setattr(launch, "web_server", lambda command, port: served.append(
        files.data_dir()) or type("S", (), {"serve": lambda self: None})())
    assert launch.web_main(["--port", "8123"]) == 0
    assert served == [tmp_path / "web"] and saves.autosave_path().parent == tmp_path / "web"


def test_a_dumb_terminal_is_refused_with_a_reason(capsys, monkeypatch):
    started = []
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setattr("solstis_tui.app.SolstisApp.run", lambda *a, **k: started.append(1))
    assert cli.main(["--seed", "3"]) == 2 and not started
    err = capsys.readouterr().err
    assert "TERM=dumb" in err and "cannot draw the board" in err and "NO_COLOR=1" in err


async def test_no_color_draws_the_board_without_colours(monkeypatch):
    """NO_COLOR=1: every colour on screen is a grey (Textual's monochrome filter)."""
    import re as regex

    from .conftest import make_app, settle

    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        svg = app.export_screenshot()
    # c5c8c6 is the screenshot's own default text colour (its terminal theme), not ours.
    colours = set(regex.findall(r"fill: ?#([0-9a-f]{6})", svg)) - {"c5c8c6"}
    assert len(colours) > 3, "no colours found in the screenshot"
    assert all(c[0:2] == c[2:4] == c[4:6] for c in colours), sorted(colours)


def test_learn_opens_the_chapter_left_part_way_or_the_first(monkeypatch, capsys):
    from solstis_tui.tutorial import progress

    opened: list[tuple[str | None, bool]] = []
    monkeypatch.setattr("solstis_tui.app.SolstisApp.run", lambda self, **k: opened.append(
        (self.tutorial, self.restart_tutorial)))
    assert cli.main(["learn"]) == 0
    progress.write({"offered": True, "place": {"chapter": "firefly", "step": 2, "moves": []}})
    assert cli.main(["learn"]) == 0
    assert cli.main(["learn", "--restart"]) == 0
    assert cli.main(["learn", "base"]) == 0
    assert opened == [("base", False), ("firefly", False), ("base", True), ("base", False)]
    monkeypatch.setenv("TERM", "dumb")
    assert cli.main(["learn"]) == 2 and "TERM=dumb" in capsys.readouterr().err
    assert len(opened) == 4


def test_the_online_lobby_refuses_a_dumb_terminal_too(capsys, monkeypatch):
    from solstis_tui.client import app as online_app
    from solstis_tui.client import launch

    started = []
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    monkeypatch.setattr(online_app.OnlineApp, "run", lambda *a, **k: started.append(1))
    assert launch.online_main([]) == 2 and not started
    assert "TERM=dumb" in capsys.readouterr().err


def test_a_command_written_after_options_runs_with_those_options(monkeypatch):
    """`solstis --ascii review FILE` is `solstis review --ascii FILE`, not an error."""
    seen = []
    monkeypatch.setattr(cli, "run_review", lambda argv: seen.append(argv) or 0)
    assert cli.main(["--ascii", "review", "game.solstis"]) == 0
    assert seen == [["--ascii", "game.solstis"]]


def test_options_a_command_does_not_take_are_refused_by_that_command(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--opponent", "mcts", "games"])
    assert exc.value.code == 2
    assert "solstis games: error: unrecognized arguments: --opponent mcts" in \
        capsys.readouterr().err

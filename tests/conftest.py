"""The whole suite: which engine it tests, no test run on a stale compiled build, how
many workers ``-n auto`` starts and which files they start with, the apps' screens built
when a key opens them, and Pilot's waits for an idle app in short slices."""

from __future__ import annotations

import os

import pytest

from solstis_tui import engine_build
from solstis_tui.shell import ShellApp


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test a source the compiled build no longer matches: the engine would run
    as pure Python, and the compiled build, the product, would go untested."""
    status = engine_build.STATUS
    if status.stale and not engine_build.wants_pure():
        pytest.exit(f"{status.stale} changed since the engine was compiled: rebuild with "
                    f"{engine_build.REBUILD} to test the compiled build, or set "
                    f"{engine_build.PURE_VARIABLE}=1 to test pure Python", returncode=2)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker per core, as xdist counts them, and one more. Many tests
    spend part of their time waiting (for a host, a login, a build's compiler, a bot in
    another process), and the extra worker uses the cores meanwhile: on two quiet cores
    the suite took 227 s with two workers, 201 s with three (194 s with four). A number
    in PYTEST_XDIST_AUTO_NUM_WORKERS is taken as it is."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    from xdist.plugin import pytest_xdist_auto_num_workers as one_per_core

    return one_per_core(config) + 1


#: The files that take longest (``--durations=0``, summed by file), started first: the
#: workers take files in the order collected, and a long file begun last would leave one
#: worker running alone at the end.
LONGEST_FIRST = (
    "online/test_bot_fleet.py", "online/test_literal_text.py", "test_packaging.py",
    "tui/test_review_board.py", "online/test_ssh.py", "tui/test_tutorial.py",
    "tui/test_end_dialog.py", "online/test_online_app.py", "tui/test_snapshots.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of ``LONGEST_FIRST`` first, in that order; the rest as collected."""
    rank = {f"tests/{name}": i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


@pytest.fixture(autouse=True)
def screens_built_when_opened(request: pytest.FixtureRequest,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests' apps build the help and the new-game form when a key first opens them,
    not in idle time after start-up: that preparation (a speed-up for the first key) was
    about a quarter of the suite's CPU, in tests that never open either screen. The tests
    of the preparation, and the whole-game tests (the product as a player runs it), keep
    it: they are marked ``prepares_screens`` or ``whole_game``."""
    if not (request.node.get_closest_marker("prepares_screens")
            or request.node.get_closest_marker("whole_game")):
        monkeypatch.setattr(ShellApp, "prepare_in_idle", False)


def pytest_configure(config: pytest.Config) -> None:
    """Pilot (``pause``, and twice for each key pressed) waits until the app is idle by
    sleeping in slices of 20 ms until one passes with under 1/20 of it busy: thousands of
    such waits were much of the suite's time. A screen draws what changed on a timer, at
    most 60 times a second, and the app is idle while it waits for it: a slice shorter
    than that wait would take the app for idle before it has drawn. So the screens draw
    up to 400 times a second (every 2.5 ms) and the slices are 5 ms (the same 1/20 busy
    share): the same idle moments, found sooner. Textual is pinned (pyproject.toml), so
    its private names hold."""
    import textual._wait
    import textual.constants
    import textual.screen

    textual.constants.MAX_FPS = 400  # type: ignore[misc]
    textual.screen.UPDATE_PERIOD = 1 / 400  # type: ignore[misc]
    textual._wait.SLEEP_GRANULARITY = 0.005
    textual._wait.SLEEP_IDLE = 0.005 / 20


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(f"solstis engine under test: {engine_build.STATUS.line}")

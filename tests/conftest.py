"""The whole suite: which engine it tests, and no test run on a stale compiled build."""

from __future__ import annotations

import pytest

from solstis_tui import engine_build


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test a source the compiled build no longer matches: the engine would run
    as pure Python, and the compiled build, the product, would go untested."""
    status = engine_build.STATUS
    if status.stale and not engine_build.wants_pure():
        pytest.exit(f"{status.stale} changed since the engine was compiled: rebuild with "
                    f"{engine_build.REBUILD} to test the compiled build, or set "
                    f"{engine_build.PURE_VARIABLE}=1 to test pure Python", returncode=2)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(f"solstis engine under test: {engine_build.STATUS.line}")

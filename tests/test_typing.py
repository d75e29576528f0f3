"""The engine and the bots type-check under ``mypy --strict`` (issue 15).

The check is the one ``mypy`` with no arguments runs from the repository root: the
``[tool.mypy]`` settings and file list in pyproject.toml.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_core_and_bots_pass_mypy_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # mypy reads pyproject.toml and the file list from here
    out, err, status = api.run([])
    assert status == 0, f"mypy --strict reports problems:\n{out}{err}"
    assert "Success: no issues found" in out

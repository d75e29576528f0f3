"""The whole program type-checks under ``mypy --strict``: the ``solstis_tui`` package with
its bots (``ai/``) and themes, laid out as installed (``tools/typecheck.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_whole_package_passes_mypy_strict() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "typecheck.py")],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, f"mypy --strict reports problems:\n{run.stdout}{run.stderr}"
    assert "Success: no issues found" in run.stdout

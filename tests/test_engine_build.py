"""Which engine runs: the compiled one where it was built and still matches its source, the
pure-Python source otherwise, and never a compiled module that hides an edited source."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solstis_tui import engine_build
from solstis_tui.engine_build import COMPILED, MANIFEST, Status, decide

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "solstis_tui"
#: This checkout holds an up-to-date compiled build (whether or not this run uses it).
COMPILED_HERE = decide(engine_build.read_manifest(PACKAGE), False).compiled
needs_compiled = pytest.mark.skipif(not COMPILED_HERE, reason="no up-to-date compiled build "
                                    "here (no C compiler, SOLSTIS_PURE=1 at install, or a "
                                    "source edited since)")

PROBE = """
import json, solstis_tui, solstis_tui.core.game as game
from solstis_tui import engine_build
s = engine_build.STATUS
print(json.dumps({"compiled": s.compiled, "stale": s.stale, "line": s.line,
                  "game": game.__file__}))
"""


def run_probe(cwd: Path, env: dict[str, str]) -> dict[str, object]:
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         cwd=cwd, env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    found: dict[str, object] = json.loads(run.stdout)
    return found


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SOLSTIS_PURE")}
    return {**env, **extra}


@pytest.fixture
def copied_install(tmp_path: Path) -> Path:
    """A copy of the installed package, compiled modules and build record included, laid
    out by module name (ai/ inside solstis_tui/), importable with PYTHONPATH."""
    root = tmp_path / "site"
    shutil.copytree(PACKAGE, root / "solstis_tui",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "ai", root / "solstis_tui" / "ai",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "themes", root / "solstis_tui" / "themes",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_the_version_line_names_the_engine() -> None:
    run = subprocess.run([sys.executable, "-m", "solstis_tui.cli", "--version"],
                         capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert run.returncode == 0, run.stderr
    assert engine_build.STATUS.line in run.stdout


@needs_compiled
def test_the_installed_build_runs_compiled_and_solstis_pure_runs_the_source(
        tmp_path: Path) -> None:
    compiled = run_probe(tmp_path, clean_env())
    assert compiled["compiled"] and compiled["line"] == "compiled engine"
    assert not str(compiled["game"]).endswith(".py")
    pure = run_probe(tmp_path, clean_env(SOLSTIS_PURE="1"))
    assert not pure["compiled"] and str(pure["game"]).endswith("game.py")
    assert "SOLSTIS_PURE=1" in str(pure["line"])


@needs_compiled
def test_an_edited_source_runs_as_edited_and_says_how_to_rebuild(copied_install: Path) -> None:
    before = run_probe(copied_install, clean_env(PYTHONPATH=str(copied_install)))
    assert before["compiled"], "the copy runs its compiled modules while nothing changed"
    game = copied_install / "solstis_tui" / "core" / "game.py"
    game.write_text(game.read_text() + "\nEDITED = True\n")
    after = run_probe(copied_install, clean_env(PYTHONPATH=str(copied_install)))
    assert not after["compiled"] and after["game"] == str(game)
    assert after["stale"] == str(game)
    cli = subprocess.run([sys.executable, "-m", "solstis_tui.cli", "--version"],
                         capture_output=True, text=True, timeout=60, cwd=copied_install,
                         env=clean_env(PYTHONPATH=str(copied_install)))
    assert "pure-Python engine: the compiled build is out of date" in cli.stdout
    assert "core/game.py changed since the engine was compiled" in cli.stderr
    assert "pip install -e ." in cli.stderr


@needs_compiled
def test_compiled_modules_without_a_build_record_are_not_used(copied_install: Path) -> None:
    (copied_install / "solstis_tui" / MANIFEST).unlink()
    found = run_probe(copied_install, clean_env(PYTHONPATH=str(copied_install)))
    assert not found["compiled"] and str(found["game"]).endswith("game.py")
    assert found["stale"]


def test_the_decision_follows_the_record_the_environment_and_the_sources() -> None:
    # With no record, or a record of a pure build, this install's compiled files (if any)
    # are of unknown age: they are never used.
    leftovers = any(engine_build.compiled_files(m) for m in COMPILED)
    for record in (None, {"engine": "pure", "reason": "no C compiler (cc not found)"}):
        found = decide(record, False)
        assert not found.compiled
        if leftovers:
            assert found.reason == "compiled modules without a build record" and found.stale
        else:
            assert found.reason in ("not built", "no C compiler (cc not found)")
    digests = {m: engine_build.source_digest(path) for m in COMPILED
               if (path := engine_build.source_path(m)) is not None}
    record = {"engine": "compiled", "modules": digests}
    assert decide(record, True) == Status(False, "SOLSTIS_PURE=1")
    if len(digests) == len(COMPILED):
        assert decide(record, False) == Status(True, "")
    wrong = {**digests, COMPILED[0]: "0" * 64}
    stale = decide({"engine": "compiled", "modules": wrong}, False)
    assert not stale.compiled and stale.stale.endswith(COMPILED[0].rpartition(".")[2] + ".py")


def test_the_suite_runs_the_compiled_build_where_ci_asks_for_it() -> None:
    """.ci/run sets SOLSTIS_REQUIRE_COMPILED=1: there the whole suite must run compiled."""
    if os.environ.get("SOLSTIS_REQUIRE_COMPILED") != "1":
        pytest.skip("SOLSTIS_REQUIRE_COMPILED is not set (only CI asks for the compiled build)")
    assert engine_build.STATUS.compiled, engine_build.STATUS.line

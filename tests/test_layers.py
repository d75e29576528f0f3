"""The layers import one way.

The floors and what may reach what are import-linter contracts (pyproject.toml,
``[tool.importlinter]``), checked here on the package as installed (``tools/layers.py``).
The probes below check what is really loaded at run time: the core, the bots, the game host
and the play controller load no Textual, and none of them loads the client
(``solstis_tui.client``, the online app); the host loads nothing of the local app either.

A host serves many tables and a bot worker thinks in its own process; neither draws a
screen, so neither should pay for (or depend on) the terminal UI library.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ROOT / "tools" / "layers.py"


def lint_imports(config: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(LAYERS), *([str(config)] if config else [])],
                          capture_output=True, text=True, timeout=120)


def test_every_import_contract_is_kept() -> None:
    """The floors, no circles at any depth, the host apart from the apps, the client
    through the wire, the controller through ``SessionView``, no Textual under the screens:
    every contract in pyproject.toml is kept, and the bots are checked as
    ``solstis_tui.ai``."""
    run = lint_imports()
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout and " BROKEN" not in run.stdout
    assert "Missing layer" not in run.stdout + run.stderr


def test_an_arrow_up_breaks_the_floors(tmp_path: Path) -> None:
    """The contract sees the real imports: put the coach under the core and the coach's
    import of the core is an arrow up, reported as broken."""
    config = tmp_path / "contracts.toml"
    config.write_text("""
[tool.importlinter]
root_packages = ["solstis_tui"]

[[tool.importlinter.contracts]]
name = "the coach under the core"
type = "layers"
layers = ["solstis_tui.core", "solstis_tui.coach"]
""")
    run = lint_imports(config)
    assert run.returncode != 0
    assert "BROKEN" in run.stdout and "solstis_tui.coach." in run.stdout

HOST_ENTRIES = (
    "solstis_tui.cli",  # `solstis host` starts here
)

ANALYSIS = ("solstis_tui.coach.analysis", "solstis_tui.analyze_command")
"""`solstis analyze`, which runs without a screen."""

PROBE = f"""
import importlib, json, pkgutil, sys
import solstis_tui.ai, solstis_tui.core, solstis_tui.host, solstis_tui.play
import solstis_tui.coach, solstis_tui.words
packages = (solstis_tui.core, solstis_tui.ai, solstis_tui.host, solstis_tui.play,
            solstis_tui.coach, solstis_tui.words)
names = [p.__name__ for p in packages] + [*{list(HOST_ENTRIES)!r}, *{list(ANALYSIS)!r}]
for package in packages:
    names += [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
for name in names:
    importlib.import_module(name)
textual = sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))
client = sorted(m for m in sys.modules if m.startswith("solstis_tui.client"))
print(json.dumps({{"imported": names, "textual": textual, "client": client}}))
"""


def test_core_bots_host_and_play_controller_load_no_textual(tmp_path: Path) -> None:
    """In a fresh interpreter, every module of the core, the bots, the host (and the
    command line that starts it) and the play controller imports without any ``textual``
    module being loaded, and without the client."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    # The walk really reached the bots, the engine and the host (a mistyped package path
    # finds none).
    assert {"solstis_tui.ai.mcts", "solstis_tui.ai.arena", "solstis_tui.core.game",
            "solstis_tui.host.serve", "solstis_tui.host.botpool",
            "solstis_tui.play.controller", "solstis_tui.ai.judge",
            "solstis_tui.coach.analysis"} <= set(found["imported"])
    assert found["textual"] == []
    assert found["client"] == []


HOST_PROBE = """
import importlib, json, pkgutil, sys
import solstis_tui.host
names = ["solstis_tui.host", "solstis_tui.cli"]
names += [m.name for m in pkgutil.walk_packages(solstis_tui.host.__path__, "solstis_tui.host.")]
for name in names:
    importlib.import_module(name)
import contextlib, io
from solstis_tui.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main(["host", "--help"])
print(json.dumps(sorted(m for m in sys.modules if m.startswith("solstis_tui"))))
"""

#: What a game host may load of the package: the engine, the bots, what the wire speaks,
#: the file helpers, the game record's format (it keeps each game's record), the command
#: line that starts it, and the build selector.
HOST_MAY_LOAD = ("solstis_tui.core", "solstis_tui.ai", "solstis_tui.host", "solstis_tui.wire")
HOST_MAY_LOAD_MODULES = {"solstis_tui", "solstis_tui.cli", "solstis_tui.files",
                         "solstis_tui.records", "solstis_tui.engine_build",
                         "solstis_tui._engine__mypyc"}


def test_the_host_loads_nothing_of_the_local_app_or_the_client(tmp_path: Path) -> None:
    """Importing every host module, and ``solstis host --help`` through the command line,
    loads only the engine, the bots, the wire and the file helpers: no local turn loop,
    saves, seats, screens, widgets, terminal adaptations or client."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", HOST_PROBE], capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    loaded = json.loads(run.stdout)
    assert "solstis_tui.host.serve" in loaded and "solstis_tui.host.host" in loaded
    others = [m for m in loaded if m not in HOST_MAY_LOAD_MODULES
              and not m.startswith(tuple(f"{p}." for p in HOST_MAY_LOAD))
              and m not in HOST_MAY_LOAD]
    assert others == []


def test_no_screen_or_app_asks_which_kind_of_session_it_has():
    """No ``isinstance`` on a session class in the apps, screens, controller or client: what
    a screen needs of a game is on ``SessionView``."""
    sessions = {"Session", "RemoteSession", "TutorialSession", "SessionView"}
    found = []
    for folder in ("screens", "play", "client", "tutorial", "app.py", "shell.py"):
        place = ROOT / "solstis_tui" / folder
        for path in [place] if place.is_file() else sorted(place.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance":
                    kinds = node.args[1]
                    names = {getattr(k, "id", getattr(k, "attr", "")) for k in
                             (kinds.elts if isinstance(kinds, ast.Tuple) else [kinds])}
                    if names & sessions:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []

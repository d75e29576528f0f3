"""The layers import one way: the core, the bots, the game host and the play controller load
no Textual, and none of them loads the client (``solstis_tui.client``, the online app); the
host loads nothing of the local app either (its turn loop, saves, screens).

A host serves many tables and a bot worker thinks in its own process; neither draws a
screen, so neither should pay for (or depend on) the terminal UI library.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HOST_ENTRIES = (
    "solstis_tui.cli",  # `solstis host` starts here
)

ANALYSIS = ("solstis_tui.analysis", "solstis_tui.analyze_command")
"""`solstis analyze`, which runs without a screen."""

PROBE = f"""
import importlib, json, pkgutil, sys
import solstis_tui.ai, solstis_tui.core, solstis_tui.host, solstis_tui.play
names = ["solstis_tui.core", "solstis_tui.ai", "solstis_tui.host", "solstis_tui.play",
         *{list(HOST_ENTRIES)!r}, *{list(ANALYSIS)!r}]
for package in (solstis_tui.core, solstis_tui.ai, solstis_tui.host, solstis_tui.play):
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
            "solstis_tui.analysis"} <= set(found["imported"])
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

"""The layers import one way: the core, the bots, the game host and the play controller load
no Textual, and none of them loads the client (``solstis_tui.client``, the online app).

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

PROBE = f"""
import importlib, json, pkgutil, sys
import solstis_tui.ai, solstis_tui.core, solstis_tui.host, solstis_tui.play
names = ["solstis_tui.core", "solstis_tui.ai", "solstis_tui.host", "solstis_tui.play",
         *{list(HOST_ENTRIES)!r}]
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
            "solstis_tui.play.controller"} <= set(found["imported"])
    assert found["textual"] == []
    assert found["client"] == []

"""A fleet worker turned hostile (a preload, as a worker someone took over would be): its
``decide`` answers as the file ``SOLSTIS_TEST_HOSTILE`` names says at the time (its first
line; one fleet serves each test in turn), and otherwise it starts as the fleet's own
preload does (TLS checked, no HTTP server).

- ``pickle``: an object whose unpickling runs code: it writes ``ran-in-PID`` in each folder
  the file's second line names (``:``-separated), naming the process it ran in;
- ``garbage``: a tuple of the wrong shape and types (``(0, None, 0.0)``);
- ``illegal``: a well-formed answer whose move is not legal there;
- ``never``: no answer while the file says ``never``."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from solstis_tui.core import Move
from solstis_tui.core.observation_json import observation_from_dict
from solstis_tui.host import fleet_node

ORDERS = Path(os.environ.get("SOLSTIS_TEST_HOSTILE", "/nonexistent"))


def orders() -> tuple[str, list[str]]:
    """The mode, and the folders a hostile object marks."""
    lines = (ORDERS.read_text(encoding="utf-8").splitlines() if ORDERS.exists() else [])
    lines += ["", ""]
    return lines[0], [folder for folder in lines[1].split(":") if folder]


class RunsCode:
    """Unpickled, it writes a marker in each folder, named after the process it runs in."""

    def __init__(self, folders: list[str]) -> None:
        self.folders = folders

    def __reduce__(self) -> tuple[Any, ...]:
        code = ("import os\n"
                f"for folder in {self.folders!r}:\n"
                "    try:\n"
                "        open(os.path.join(folder, f'ran-in-{os.getpid()}'), 'w').close()\n"
                "    except OSError:\n"
                "        pass\n")
        return exec, (code,)


def hostile(factory: Any, tier: str, seed: int, observation: str, seconds: float) -> Any:
    import json

    mode, folders = orders()
    if mode == "pickle":
        return RunsCode(folders)
    if mode == "garbage":
        return (0, None, 0.0)
    deadline = time.monotonic() + 3600
    while mode == "never" and time.monotonic() < deadline:
        time.sleep(0.05)  # (the next test's orders, or the fleet's end, let it go)
        mode, _ = orders()
    if mode == "never":
        return None
    obs = observation_from_dict(json.loads(observation))
    for text in ("play 6-6", "capture 1-1", "rainbow 1-1", "play 1-1", "draw"):
        move = Move.parse(text)
        if move not in obs.legal_moves:
            return text, None, 1, 0.01, "tls://hostile:1"
    raise AssertionError("no illegal move found")


def dask_setup(server: Any) -> None:
    fleet_node.decide = hostile  # the gateway asks for fleet_node.decide by name
    fleet_node.dask_setup(server)

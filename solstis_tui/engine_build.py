"""Which engine this process runs: the mypyc-compiled one, or the same source as pure Python.

The install compiles the modules in ``COMPILED`` with mypyc where a C compiler and Python's
headers exist (``setup.py``), and writes ``_engine_build.json`` beside this file: which
engine it built, and a SHA-256 of each compiled module's source. At import (from
``solstis_tui/__init__.py``, before any engine module loads) ``select`` reads it:

- the compiled modules are used when the build says so and every source still matches;
- ``SOLSTIS_PURE=1`` in the environment runs the pure-Python source instead;
- a source edited since the build (or compiled modules with no build record) never hides
  the edit: the process runs pure Python and ``STATUS.stale`` names the file, so the
  ``solstis`` command and the test suite can say how to rebuild.

Running pure Python beside compiled modules works by a finder placed first on
``sys.meta_path`` that loads the ``.py`` files of ``COMPILED`` directly. This module uses
the standard library only: ``setup.py`` reads ``COMPILED`` from it without importing the
package.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

#: The modules mypyc compiles: the rules engine and the search's hot paths. Everything
#: else (the app, the host, the bots' thin classes) stays interpreted.
COMPILED: tuple[str, ...] = (
    "solstis_tui.core.board",
    "solstis_tui.core.determinize",
    "solstis_tui.core.encounter",
    "solstis_tui.core.errors",
    "solstis_tui.core.events",
    "solstis_tui.core.explain",
    "solstis_tui.core.game",
    "solstis_tui.core.json_codec",
    "solstis_tui.core.moves",
    "solstis_tui.core.observation",
    "solstis_tui.core.observation_json",
    "solstis_tui.core.options",
    "solstis_tui.core.pending",
    "solstis_tui.core.rng",
    "solstis_tui.core.scoring",
    "solstis_tui.core.serialize",
    "solstis_tui.core.spirits",
    "solstis_tui.core.state",
    "solstis_tui.core.steps",
    "solstis_tui.ai.alphabeta",
    "solstis_tui.ai.clock",
    "solstis_tui.ai.evaluate",
    "solstis_tui.ai.features",
    "solstis_tui.ai.policy",
    "solstis_tui.ai.search",
    "solstis_tui.ai.value",
)
#: The interpreted packages the compiled modules import (mypy reads them while compiling).
SUPPORT: tuple[str, ...] = ("solstis_tui.core", "solstis_tui.ai")

#: The build record, written by setup.py beside this file.
MANIFEST = "_engine_build.json"
#: Set to 1 (at install or at run time) for the pure-Python engine.
PURE_VARIABLE = "SOLSTIS_PURE"
#: The command that rebuilds the compiled engine in a development checkout.
REBUILD = "pip install -e ."


@dataclass(frozen=True)
class Status:
    """What ``select`` decided for this process."""

    compiled: bool
    """True when the compiled modules are in use."""
    reason: str
    """Why the engine is pure Python ('' when compiled)."""
    stale: str = ""
    """The edited source a compiled build no longer matches ('' when none)."""

    @property
    def line(self) -> str:
        """One line for people: 'compiled engine' or 'pure-Python engine: why'."""
        if self.compiled:
            return "compiled engine"
        return f"pure-Python engine: {self.reason}" if self.reason else "pure-Python engine"


STATUS = Status(False, "not selected yet")


def wants_pure(environ: os._Environ[str] | dict[str, str] = os.environ) -> bool:
    """True when the environment asks for the pure-Python engine."""
    return environ.get(PURE_VARIABLE, "").strip() not in ("", "0")


def source_digest(path: Path) -> str:
    """SHA-256 of a source file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


@cache
def package_dirs(package: str) -> tuple[Path, ...]:
    """The folders a package's modules load from (an editable install may map them)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return ()
    return tuple(Path(p) for p in spec.submodule_search_locations)


def source_path(module: str) -> Path | None:
    """The ``.py`` file of a module, found without importing it."""
    package, _, name = module.rpartition(".")
    for folder in package_dirs(package):
        candidate = folder / f"{name}.py"
        if candidate.is_file():
            return candidate
    return None


def compiled_files(module: str) -> list[Path]:
    """Extension modules built for ``module`` that sit beside its source."""
    package, _, name = module.rpartition(".")
    found = []
    for folder in package_dirs(package):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            candidate = folder / f"{name}{suffix}"
            if candidate.is_file():
                found.append(candidate)
    return found


class PureSource(importlib.abc.MetaPathFinder):
    """Loads the compiled modules from their ``.py`` source instead."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules or not path:
            return None
        name = fullname.rpartition(".")[2]
        for folder in path:
            candidate = os.path.join(folder, f"{name}.py")
            if os.path.isfile(candidate):
                return importlib.util.spec_from_file_location(fullname, candidate)
        return None


def read_manifest(folder: Path) -> dict[str, object] | None:
    """The build record, or None if there is none (or it cannot be read)."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def first_stale(digests: dict[str, str]) -> str:
    """The first compiled module whose source no longer matches its build digest, as a
    path a person recognises ('' when all match)."""
    for module in COMPILED:
        path = source_path(module)
        if path is None or digests.get(module) != source_digest(path):
            return str(path) if path is not None else module
    return ""


def decide(manifest: dict[str, object] | None, pure_asked: bool) -> Status:
    """What to run, from the build record and the environment (``select`` acts on it)."""
    if manifest is None or manifest.get("engine") != "compiled":
        leftovers = [m for m in COMPILED if compiled_files(m)]
        if leftovers:
            return Status(False, "compiled modules without a build record", stale=leftovers[0])
        why = manifest.get("reason") if manifest is not None else "not built"
        return Status(False, str(why or "built without a C compiler"))
    if pure_asked:
        return Status(False, f"{PURE_VARIABLE}=1")
    digests = manifest.get("modules")
    stale = first_stale(digests if isinstance(digests, dict) else {})
    if stale:
        return Status(False, "the compiled build is out of date", stale=stale)
    return Status(True, "")


def select() -> Status:
    """Decide once per process which engine runs, and make the imports follow it."""
    global STATUS
    status = decide(read_manifest(Path(__file__).parent), wants_pure())
    if not status.compiled and not any(isinstance(f, PureSource) for f in sys.meta_path):
        sys.meta_path.insert(0, PureSource(COMPILED))
    STATUS = status
    return status


def stale_message(status: Status) -> str:
    """What to tell a person whose compiled build no longer matches the source."""
    return (f"solstis: {status.stale} changed since the engine was compiled, so this runs "
            f"the slower pure-Python engine. Rebuild with: {REBUILD} "
            f"(or set {PURE_VARIABLE}=1 to choose pure Python)")

"""The package laid out as it is installed, for tools that name modules by their folders.

The repository keeps ``solstis_tui.ai`` in ``ai/`` and ``solstis_tui.themes`` in
``themes/`` (pyproject.toml's ``package-dir``). mypy and import-linter name a module by
the folders it sits in, so ``lay_out`` makes ``TREE/solstis_tui/`` of links to the
sources, by module name: checked there, ``ai/`` is ``solstis_tui.ai``.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def package_dirs() -> dict[str, Path]:
    """Subpackages of solstis_tui kept outside its folder: {name inside it: folder}."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapping: dict[str, str] = config["tool"]["setuptools"]["package-dir"]
    return {name.removeprefix("solstis_tui."): ROOT / folder
            for name, folder in mapping.items() if name.startswith("solstis_tui.")}


def lay_out(tree: Path) -> dict[str, str]:
    """Make ``tree/solstis_tui`` of links afresh; return {path in the tree: path in the
    repository}."""
    shutil.rmtree(tree, ignore_errors=True)
    package = tree / "solstis_tui"
    package.mkdir(parents=True)
    places: dict[str, str] = {}
    outside = package_dirs()
    for entry in sorted((ROOT / "solstis_tui").iterdir()):
        if entry.name in outside or entry.name == "__pycache__":
            continue
        if entry.is_dir() or entry.suffix in (".py", ".pyi"):
            (package / entry.name).symlink_to(entry)
            places[f"{package / entry.name}"] = f"solstis_tui/{entry.name}"
    for name, folder in outside.items():
        (package / name).symlink_to(folder)
        places[f"{package / name}"] = str(folder.relative_to(ROOT))
    return places

"""``mypy --strict`` over the whole program as it is installed.

    .venv/bin/python tools/typecheck.py [mypy options]

The repository keeps ``solstis_tui.ai`` in ``ai/`` and ``solstis_tui.themes`` in
``themes/`` (pyproject.toml's ``package-dir``), but mypy names a module by the folders
it sits in. So this lays out ``build/typecheck/solstis_tui/`` as links to the sources,
by module name, checks that tree with the ``[tool.mypy]`` settings, and prints each
problem under the file's path in the repository. Exit status: mypy's.
"""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / "build" / "typecheck"


def package_dirs() -> dict[str, Path]:
    """Subpackages of solstis_tui kept outside its folder: {name inside it: folder}."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapping: dict[str, str] = config["tool"]["setuptools"]["package-dir"]
    return {name.removeprefix("solstis_tui."): ROOT / folder
            for name, folder in mapping.items() if name.startswith("solstis_tui.")}


def lay_out() -> dict[str, str]:
    """Make the tree of links afresh; return {path in the tree: path in the repository}."""
    shutil.rmtree(TREE, ignore_errors=True)
    package = TREE / "solstis_tui"
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


def in_repository(text: str, places: dict[str, str]) -> str:
    """mypy's report with the tree's paths turned back into the repository's."""
    for linked, real in sorted(places.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(linked, real)
        text = text.replace(str(Path(linked).relative_to(ROOT)), real)
    return text


def main(argv: list[str]) -> int:
    os.chdir(ROOT)  # mypy reads [tool.mypy] from here
    places = lay_out()
    out, err, status = api.run([*argv, str(TREE / "solstis_tui")])
    sys.stdout.write(in_repository(out, places))
    sys.stderr.write(in_repository(err, places))
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

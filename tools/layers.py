"""The import contracts (pyproject.toml's ``[tool.importlinter]``) on the package as it is
installed.

    .venv/bin/python tools/layers.py [CONFIG]

import-linter names modules by their folders, so the package is laid out as installed
(``tools/installed_tree.py``, in ``build/layers/``, where ``ai/`` is ``solstis_tui.ai``)
and checked there, from a folder where nothing else named ``solstis_tui`` is found first.
CONFIG: another contracts file (default: pyproject.toml). Exit status: import-linter's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from installed_tree import ROOT, lay_out

TREE = ROOT / "build" / "layers"


def main(argv: list[str]) -> int:
    config = Path(argv[0]).resolve() if argv else ROOT / "pyproject.toml"
    lay_out(TREE)
    env = {**os.environ, "PYTHONPATH": str(TREE)}
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(lint), "--no-cache", str(config)], cwd=TREE,
                          env=env).returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

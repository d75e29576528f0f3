"""``mypy --strict`` over the whole program as it is installed.

    .venv/bin/python tools/typecheck.py [mypy options]

mypy names a module by the folders it sits in, so this checks the package as installed
(``tools/installed_tree.py`` lays it out in ``build/typecheck/``) with the ``[tool.mypy]``
settings, and prints each problem under the file's path in the repository. Exit status:
mypy's.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mypy import api

sys.path.insert(0, str(Path(__file__).resolve().parent))
from installed_tree import ROOT, lay_out

TREE = ROOT / "build" / "typecheck"


def in_repository(text: str, places: dict[str, str]) -> str:
    """mypy's report with the tree's paths turned back into the repository's."""
    for linked, real in sorted(places.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(linked, real)
        text = text.replace(str(Path(linked).relative_to(ROOT)), real)
    return text


def main(argv: list[str]) -> int:
    os.chdir(ROOT)  # mypy reads [tool.mypy] from here
    places = lay_out(TREE)
    out, err, status = api.run([*argv, str(TREE / "solstis_tui")])
    sys.stdout.write(in_repository(out, places))
    sys.stderr.write(in_repository(err, places))
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""The lab's tests: research/ and benchmarks/ are folders of scripts that import one another
by module name (``import strategies``, ``from positions import ...``), so both go on the
path here, as ``PYTHONPATH=research:benchmarks`` puts them for the scripts."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for folder in ("benchmarks", "research", "research/tests"):
    if str(ROOT / folder) not in sys.path:
        sys.path.insert(0, str(ROOT / folder))

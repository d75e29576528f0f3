"""Solstis TUI: the tile game Solstis in a terminal. Importing this does not import Textual.

Importing it chooses the engine this process runs, compiled or pure Python
(``engine_build``), before any engine module loads.
"""

from .engine_build import select as _select_engine

__version__ = "0.1.0"

_select_engine()

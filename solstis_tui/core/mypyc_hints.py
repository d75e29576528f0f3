"""What the compiler is told about the engine's classes, and Python ignores.

``mypyc_attr`` (from mypy_extensions, which the build has) marks a class for mypyc; where
mypy_extensions is not installed (a pure-Python install need not have it) it is a
decorator that does nothing. This module is not compiled: the compiled modules read the
marks at build time and never call it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - the test environment has mypy_extensions
    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:
        """Does nothing: only the compiler reads these marks."""
        return lambda cls: cls

__all__ = ["mypyc_attr"]

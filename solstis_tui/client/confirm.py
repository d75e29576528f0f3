"""Asking before a step that cannot be taken back: the screens' ``ConfirmScreen``, which
the online app's table keys use (resigning, leaving a table for good, a rematch offered)."""

from __future__ import annotations

from ..screens.confirm import ConfirmScreen

__all__ = ["ConfirmScreen"]

"""What the player chose in the app and expects back next time (today: the theme), kept in
``settings.json`` beside the saved game (``saves.data_dir``). ``--theme`` overrides it for
one run without changing it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .saves import data_dir, write_atomic

FILE = "settings.json"


def path() -> Path:
    return data_dir() / FILE


def read() -> dict[str, Any]:
    """The settings; {} when the file is missing or unreadable (the defaults apply)."""
    try:
        data = json.loads(path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def remembered_theme() -> str | None:
    """The theme last chosen in the command palette, if it is still one of ours."""
    from solstis_tui.themes import THEMES

    name = read().get("theme")
    return name if isinstance(name, str) and name in THEMES else None


def remember_theme(name: str) -> None:
    """Keep ``name`` as the theme of the next start (OSError if it cannot be written)."""
    write_atomic(path(), json.dumps({**read(), "theme": name}, indent=1))

"""What the player chose in the app and expects back next time (today: the theme), kept in
``settings.json`` beside the saved game (``files.data_dir``). ``--theme`` overrides it for
one run without changing it."""

from __future__ import annotations

from ..files import read_small_json, write_small_json

FILE = "settings.json"


def remembered_theme() -> str | None:
    """The theme last chosen in the command palette, if it is still one of ours."""
    from solstis_tui.themes import THEMES

    name = read_small_json(FILE).get("theme")
    return name if isinstance(name, str) and name in THEMES else None


def remember_theme(name: str) -> None:
    """Keep ``name`` as the theme of the next start (OSError if it cannot be written)."""
    write_small_json(FILE, {**read_small_json(FILE), "theme": name})

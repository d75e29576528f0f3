"""The command palette's theme list: our four themes, in our order, not Textual's stock;
the choice is kept for the next start (``SolstisApp.choose_theme``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.theme import ThemeProvider

from solstis_tui.themes import THEMES


class SolstisThemes(ThemeProvider):
    """Offers only the themes made for the board (``--theme`` names the same four)."""

    @property
    def commands(self) -> list[tuple[str, Callable[[], None]]]:
        def use(name: str) -> None:
            choose = getattr(self.app, "choose_theme", None)
            if choose is not None:  # our app: kept for the next start too
                choose(name)
            else:
                self.app.theme = name

        return [(name, partial(use, name)) for name in THEMES]

"""The game log: every move in plain words, scrollable; people's chat in a column of its
own, so that no chat line reads like one of the game's."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

from .view import asciify

#: What starts a chat line in the log, and nothing else: the game's own lines start with a
#: player's name (which starts with a letter or digit, see host.names), a word, or the
#: dash of a turn header.
CHAT_MARK = "» "


def chat_line(name: str, text: str) -> str:
    """The log's line for ``text`` said by ``name``."""
    return f"{CHAT_MARK}{name}: {text}"


def log_renderables(lines: Iterable[str], ascii_mode: bool) -> list[RenderableType]:
    """What the log draws for ``lines``: the game's sentences as plain text (turn headers
    dimmed), each run of them one text; a chat line as its mark, then the words in italic
    in a column of their own, wrapped inside it (a long line's rest never starts at the
    left edge, where the game's lines start)."""
    drawn: list[RenderableType] = []
    run: list[Text] = []
    for line in lines:
        if ascii_mode:
            line = asciify(line)
        mark = asciify(CHAT_MARK) if ascii_mode else CHAT_MARK
        if line.startswith(mark):
            if run:
                drawn.append(Text("\n").join(run))
                run = []
            grid = Table.grid(expand=True)
            grid.add_column(width=len(mark), no_wrap=True)
            grid.add_column(ratio=1)
            grid.add_row(Text(mark, style="bold"), Text(line[len(mark):], style="italic"))
            drawn.append(grid)
        else:
            run.append(Text(line, style="dim" if line.startswith(("—", "--")) else ""))
    if run:
        drawn.append(Text("\n").join(run))
    return drawn


class GameLog(RichLog):
    """A read-only log; turn headers dimmed, the rest as plain sentences, chat apart."""

    DEFAULT_CSS = """
    GameLog { height: 1fr; padding: 0 1; background: $surface; scrollbar-size-vertical: 1; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, auto_scroll=True,
                         min_width=20, **kwargs)
        self.can_focus = False
        self.lines_text: list[str] = []
        self.wrapped_at = 0
        """The width the written lines were wrapped to (0: not known yet)."""

    def add(self, lines: list[str]) -> None:
        ascii_mode = bool(getattr(self.app, "ascii_mode", False))
        for line in lines:
            self.lines_text.append(line)
            for drawn in log_renderables([line], ascii_mode):
                self.write(drawn)

    def on_resize(self, event: Resize) -> None:
        """Wrap every line again for the new width (a line written while the window was
        narrow would otherwise stay broken after it grows)."""
        super().on_resize(event)
        width = event.size.width
        if not width or width == self.wrapped_at:
            return
        rewrap = self.wrapped_at != 0 and bool(self.lines_text)
        self.wrapped_at = width
        if rewrap:
            self.reset(list(self.lines_text))

    def reset(self, lines: list[str]) -> None:
        self.clear()
        self.lines_text = []
        self.add(lines)

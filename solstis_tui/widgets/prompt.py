"""The prompt line: the pending decision, whose it is, which keys answer it, or an error."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from .view import asciify

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
ASCII_SPINNER = "|/-\\"


class PromptLine(Static):
    """Two lines: what is asked (and of whom), then the keys or the last error."""

    DEFAULT_CSS = """
    PromptLine { height: 2; padding: 0 1; background: $boost; }
    PromptLine.-error { color: $text-error; }
    """

    def say(self, headline: str, detail: str = "", error: str = "", thinking: int = -1,
            ascii_only: bool = False) -> None:
        if ascii_only:
            headline, detail, error = asciify(headline), asciify(detail), asciify(error)
        out = Text(no_wrap=True, overflow="ellipsis")
        if thinking >= 0:
            frames = ASCII_SPINNER if ascii_only else SPINNER
            out.append(frames[thinking % len(frames)] + " ", style="bold")
        out.append(headline, style="bold")
        out.append("\n")
        if error:
            out.append(("x " if ascii_only else "✗ ") + error, style="bold red")
        else:
            out.append(detail, style="dim")
        self.update(out)

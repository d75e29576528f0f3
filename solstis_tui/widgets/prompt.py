"""The prompt line: the pending decision, whose it is, which keys answer it, or an error."""

from __future__ import annotations

import textwrap

from rich.text import Text
from textual.widgets import Static

from .view import asciify, palette_of

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
ASCII_SPINNER = "|/-\\"


class PromptLine(Static):
    """What is asked (and of whom), then any hint, then the keys or the last error.

    The headline, the hint and an error wrap to the width (nothing is cut at 80 columns);
    the keys line is cut with an ellipsis, as the footer repeats the main keys.
    """

    DEFAULT_CSS = """
    PromptLine { height: auto; min-height: 2; max-height: 6; padding: 0 1;
        background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }
    PromptLine.-error { color: $text-error; }
    """

    said: tuple[str, str, str, int, bool, str] = ("", "", "", -1, False, "")

    def say(self, headline: str, detail: str = "", error: str = "", thinking: int = -1,
            ascii_only: bool = False, hint: str = "") -> None:
        self.said = (headline, detail, error, thinking, ascii_only, hint)
        self.update(self.compose_text())

    def on_resize(self) -> None:
        self.update(self.compose_text())

    def compose_text(self) -> Text:
        headline, detail, error, thinking, ascii_only, hint = self.said
        if ascii_only:
            headline, detail, error, hint = (asciify(headline), asciify(detail),
                                             asciify(error), asciify(hint))
        width = max(self.size.width, 20) if self.size.width else 78
        out = Text(no_wrap=True, overflow="ellipsis")
        if thinking >= 0:
            frames = ASCII_SPINNER if ascii_only else SPINNER
            headline = frames[thinking % len(frames)] + " " + headline
        out.append("\n".join(wrap(headline, width)), style="bold")
        out.append("\n")
        if hint:
            out.append("\n".join(wrap(hint, width)), style=palette_of(self).target)
            out.append("\n")
        if error:
            mark = "x " if ascii_only else "✗ "
            out.append("\n".join(wrap(mark + error, width)), style="bold red")
        else:
            out.append(detail, style="dim")
        return out


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters (one empty line for no text)."""
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]

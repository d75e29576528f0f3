"""The top bar: variant, seed, turn and mode; online, the move clock at its right end."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class TopBar(Static):
    """``Solstis · base · seed 3 · turn 12 · you vs Minimax bot``, and at the right end
    what ``clock`` says (shown reversed while ``urgent``)."""

    DEFAULT_CSS = """
    TopBar { height: 1; background: $primary; color: $text; padding: 0 1; text-style: bold; }
    """

    said: tuple[str, str, bool] = ("", "", False)

    def on_resize(self) -> None:
        self.say(*self.said)

    def say(self, text: str, clock: str = "", urgent: bool = False) -> None:
        self.said = (text, clock, urgent)
        if not clock:
            self.update(Text(text, no_wrap=True, overflow="ellipsis"))
            return
        width = self.size.width or 78
        room = max(0, width - len(clock) - 1)
        left = text if len(text) <= room else text[:max(0, room - 3)] + "..."
        line = Text(left, no_wrap=True, overflow="ellipsis")
        line.append(" " * max(1, width - len(left) - len(clock)))
        line.append(clock, style="reverse" if urgent else "")
        self.update(line)

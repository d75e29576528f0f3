"""Help: the keys, then the rules (``solstis_tui/rules.md``) by section."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown, MarkdownViewer, Static

from ..core import Decision
from ..play.words import asked

KEYS = """\
# Keys

| key | does |
|---|---|
| `1`–`9` | pick a hand tile, a spirit choice, or (when capturing) a pile |
| `A`–`Z` (shift) | pick a display pile when capturing or for the Beetle |
| `←` `→` / `h` `l` | move between choices |
| arrows / `h` `j` `k` `l` | move the cursor on a panorama (rainbow, square, Viper, Evil Spirit) |
| `Tab` / `Shift+Tab` | jump to the next / previous legal target |
| `Enter` | confirm the choice |
| click | pick a hand tile, a pile, a spirit choice, a panorama cell or square \
(yours, or the opponent's for the Viper and the Evil Spirit); click it again, \
or press `Enter`, to confirm |
| `Esc` | back out: clear an error or a hint, or take back a tile you played but have not \
captured with yet |
| `d` | draw two spirits (when a square formed) |
| `u` | undo: back to your previous decision (against bots) |
| `t` | hint: the strongest bot's suggestion, with a short why; it stays until you decide |
| `g` | a one-line legend of the board's symbols (in the prompt's second line) |
| `e` | every spirit and what it does |
| `v` | the whole game log |
| `Space` | skip ahead while a bot plays; `p` pause, `.` one step (watch mode) |
| `n` | new game · `q` quit · `Ctrl+P` command palette (themes, ASCII mode...) |
| `?` | this help, opened at the rules of the pending decision; in it `1`–`9`, `0` \
jump to rules §1–§10, `k` back to these keys, `Esc` goes back |

The board: each panorama is the 6-row pyramid, row 6 (S, purple summits) at the top and
row 1 (V, red valley) at the bottom. Every tile shows its row letter — V valley, M meadow,
F forest, H hills, P pastures, S summits — as well as its colour. `▲` is a lit fire, `△`
an unlit one (ASCII: `*` and `^`), `≈≈` a rainbow (`~~`), three letters between the rows
a spirit on that square (`Bee`, `Frg`...; two, `Be` `Fr`, when the next square holds one
too), `✦` a firefly (`f`), `✕✕` the cell the Evil
Spirit forbids (`XX`). `◇` marks the cells a choice may pick (`+`); `▪` after a display
tile means a face-down tile lies beneath (`#`).

"""

SECTION_OF: dict[Decision, int] = {
    Decision.PLAY: 3, Decision.CAPTURE: 3, Decision.PLACE_RAINBOW: 5,
    Decision.MOVE_RAINBOW: 4, Decision.ENCOUNTER: 7, Decision.KEEP: 7, Decision.SQUARE: 7,
    Decision.DEER: 9, Decision.BEETLE: 9, Decision.VIPER: 9, Decision.RENARD: 9,
    Decision.EVIL: 10, Decision.COVER: 11,
}


def rules_text() -> str:
    return resources.files("solstis_tui").joinpath("rules.md").read_text(encoding="utf-8")


def section_titles(text: str) -> dict[int, str]:
    titles = {}
    for line in text.splitlines():
        m = re.match(r"## (\d+)\. (.*)", line)
        if m:
            titles[int(m.group(1))] = line[3:]
    return titles


class RulesViewer(MarkdownViewer):
    """The keys and the rules; once the document is built it scrolls to ``start``."""

    def __init__(self, markdown: str, start: str | None, **kwargs: Any) -> None:
        super().__init__(markdown, **kwargs)
        self.start = start

    def _on_markdown_table_of_contents_updated(
            self, message: Markdown.TableOfContentsUpdated) -> None:
        super()._on_markdown_table_of_contents_updated(message)
        if self.start:
            self.call_after_refresh(self.goto_title, self.start)

    def goto_title(self, title: str) -> bool:
        """Scroll so the heading ``title`` is at the top; False if there is none."""
        for _level, text, block_id in self.document.table_of_contents:
            if text.strip() == title and block_id:
                block = self.document.query_one(f"#{block_id}")
                self.scroll_to_widget(block, top=True, animate=False)
                return True
        return False


class HelpScreen(ModalScreen[None]):
    """Keys and rules, opened at the rules section of the pending decision.

    A header line keeps the keys of that decision in view; digits jump to a section and
    ``k`` back to the full key list.
    """

    BINDINGS = [
        Binding("escape,q,question_mark", "app.pop_screen", "Back"),
        Binding("k", "keys", "All keys"),
        *[Binding(str(n), f"section({n})", f"§{n}", show=False) for n in range(1, 10)],
        Binding("0", "section(10)", "§10", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen { background: $background; }
    HelpScreen #now { height: auto; padding: 0 1; background: $boost;
        border-bottom: solid $primary; }
    HelpScreen MarkdownViewer { height: 1fr; }
    """

    def __init__(self, decision: Decision | None = None, wide: bool = True,
                 keys: str = "") -> None:
        super().__init__()
        self.rules = rules_text()
        self.titles = section_titles(self.rules)
        self.decision = decision
        self.start_section = SECTION_OF.get(decision) if decision else None
        self.keys = keys
        self.wide = wide

    def compose(self) -> ComposeResult:
        yield Static(self.now_text(), id="now", markup=False)
        start = self.titles.get(self.start_section) if self.start_section else None
        yield RulesViewer(KEYS + self.rules, start, show_table_of_contents=self.wide)
        yield Footer()

    def now_text(self) -> str:
        """The header: the pending decision, its rules section and the keys answering it."""
        lines = []
        if self.decision is not None:
            title = self.titles.get(self.start_section or 0, "")
            where = f" (rules §{title.replace('. ', ' ', 1)}, below)" if title else ""
            lines.append(f"Now: {asked(self.decision)}{where}")
        if self.keys:
            lines.append(f"Keys: {self.keys}")
        lines.append("Click: pick, again: confirm · k: all keys · 1–9, 0: rules §1–§10 · "
                     "Esc: back")
        return "\n".join(lines)

    def on_mount(self) -> None:
        self.query_one(RulesViewer).document.focus()

    def action_section(self, number: int) -> None:
        title = self.titles.get(number)
        if title:
            self.query_one(RulesViewer).goto_title(title)

    def action_keys(self) -> None:
        self.query_one(RulesViewer).scroll_home(animate=False)

"""Help: the keys, then the rules (RULES.md, shipped as ``solstis_tui/rules.md``) by section."""

from __future__ import annotations

import re
from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, MarkdownViewer

from ..core import Decision

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
| `Esc` | back out: clear an error, or take back a tile you played but have not captured with yet |
| `d` | draw two spirits (when a square formed) |
| `u` | undo: back to your previous decision (against bots) |
| `t` | hint: the strongest bot's suggestion, with a short why |
| `e` | every spirit and what it does |
| `v` | the whole game log |
| `Space` | skip ahead while a bot plays; `p` pause, `.` one step (watch mode) |
| `n` | new game · `q` quit · `Ctrl+P` command palette (themes, ASCII mode...) |
| `?` | this help; in it `1`–`9` jump to that rules section, `Esc` goes back |

The board: each panorama is the 6-row pyramid, row 6 (S, purple summits) at the top and
row 1 (V, red valley) at the bottom. Every tile shows its row letter — V valley, M meadow,
F forest, H hills, P pastures, S summits — as well as its colour. `▲` is a lit fire, `△`
an unlit one (ASCII: `*` and `^`), `≈≈` a rainbow (`~~`), three letters between the rows
a spirit on that square (`Bee`, `Frg`...), `✦` a firefly (`f`), `✕✕` the cell the Evil
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


def slug(title: str) -> str:
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


def section_titles(text: str) -> dict[int, str]:
    titles = {}
    for line in text.splitlines():
        m = re.match(r"## (\d+)\. (.*)", line)
        if m:
            titles[int(m.group(1))] = line[3:]
    return titles


class HelpScreen(ModalScreen[None]):
    """Keys and rules; digits jump to a rules section."""

    BINDINGS = [
        Binding("escape,q,question_mark", "app.pop_screen", "Back"),
        *[Binding(str(n), f"section({n})", f"§{n}", show=False) for n in range(1, 10)],
        Binding("0", "section(10)", "§10", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen { background: $background; }
    HelpScreen MarkdownViewer { height: 1fr; }
    """

    def __init__(self, decision: Decision | None = None, wide: bool = True) -> None:
        super().__init__()
        self.rules = rules_text()
        self.titles = section_titles(self.rules)
        self.start_section = SECTION_OF.get(decision) if decision else None
        self.wide = wide

    def compose(self) -> ComposeResult:
        yield MarkdownViewer(KEYS + self.rules, show_table_of_contents=self.wide)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(MarkdownViewer).document.focus()

    def action_section(self, number: int) -> None:
        title = self.titles.get(number)
        if title:
            self.query_one(MarkdownViewer).document.goto_anchor(slug(title))

"""Help: the keys, then the rules (``solstis_tui/rules.md``) by section."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

from rich.markdown import Markdown as RichMarkdown
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Static

from ..core import Decision
from ..widgets.footer import Footer
from ..words.moves import asked


def keys_text(variant: str = "base") -> str:
    """The key list and the board's symbols, naming only what ``variant`` has."""
    firefly, base = variant == "firefly", variant == "base"
    targets = "rainbow, square, Viper, Evil Spirit" if firefly else "rainbow, square"
    theirs = " (yours, or the opponent's for the Viper and the Evil Spirit)" if firefly else ""
    sections = (", `0` jump to rules §1–§10" if firefly else " jump to rules §1–§9") + \
        (", `e` to §11 (Evil Spirit)" if base else "")
    marks = ""
    if firefly:
        marks = (" `✦` a firefly (`f`), `✕✕` the cell the Evil Spirit forbids (`XX`).")
    if base:
        marks = " A spirit's letters in lower case (`bee`): the Evil Spirit covers it."
    return f"""\
# Keys

| key | does |
|---|---|
| `1`–`9` | pick a hand tile, a spirit choice, or (when capturing) a pile |
| `A`–`Z` (shift) | pick a display pile when capturing or for the Beetle |
| `←` `→` / `h` `l` | move between choices |
| arrows / `h` `j` `k` `l` | move the cursor on a panorama ({targets}) |
| `Tab` / `Shift+Tab` | jump to the next / previous legal target |
| `Enter` | confirm the choice |
| click | pick a hand tile, a pile, a spirit choice, a panorama cell or square{theirs}; \
click it again, or press `Enter`, to confirm |
| `Esc` | back out: clear an error or a hint, or take back a tile you played but have not \
captured with yet |
| `d` | draw two spirits (when a square formed) |
| `u` | undo: back to your previous decision (against bots). The deal stays the same, so \
a tile or spirit you drew before undoing is what comes next again: undo is for practice |
| `t` | hint: the strongest bot's suggestion, with a short why; it stays until you decide |
| `g` | a one-line legend of the board's symbols (in the prompt's second line) |
| `e` | every spirit and what it does |
| `v` | the whole game log |
| `Space` | skip ahead while a bot plays; `p` pause, `.` one step (watch mode) |
| `n` | new game · `q` quit · `Ctrl+P` command palette (themes, ASCII mode...) |
| `?` | this help, opened at the rules of the pending decision; in it `1`–`9`{sections}, \
`s` to §12 (scoring), `k` back to these keys, `Esc` goes back |

The board: each panorama is the 6-row pyramid, row 6 (S, purple summits) at the top and
row 1 (V, red valley) at the bottom. Every tile shows its row letter — V valley, M meadow,
F forest, H hills, P pastures, S summits — as well as its colour. `▲` is a lit fire, `△`
an unlit one (ASCII: `!` and `^`; `*` is a star), `≈≈` a rainbow (`~~`), three letters
between the rows a spirit on that square (`Bee`, `Frg`...; two, `Be` `Fr`, when the next
square holds one too).{marks} `◇` marks the cells a choice may pick (`+`); `▪` after a display
tile means a face-down tile lies beneath (`#`).

"""


KEYS = keys_text()
"""The base game's key list."""

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


def split_sections(text: str) -> dict[int, str]:
    """The rules cut at their numbered headings: 0 is what comes before §1."""
    parts: dict[int, str] = {}
    number = 0
    lines: list[str] = []
    for line in text.splitlines():
        m = re.match(r"## (\d+)\. ", line)
        if m:
            parts[number] = "\n".join(lines)
            number, lines = int(m.group(1)), []
        lines.append(line)
    parts[number] = "\n".join(lines)
    return parts


#: Sections of the rules each variant leaves out: §10 is the Firefly expansion, §11 the
#: base game's Evil Spirit.
LEFT_OUT: dict[str, tuple[int, ...]] = {"base": (10,), "beginner": (10, 11), "firefly": (11,)}
LEFT_OUT_NOTE: dict[str, str] = {
    "base": "This game is the base game: the Firefly expansion's rules (§10) and spirits "
            "are left out here.",
    "beginner": "This game is in beginner mode, without the Evil Spirit: its rules (§11), "
                "the Firefly expansion's (§10) and its spirits are left out here.",
    "firefly": "This game is played with the Firefly expansion: the base game's Evil "
               "Spirit (§11) is left out here.",
}


def rules_for(variant: str, text: str | None = None) -> dict[int, str]:
    """The rules by section as ``variant`` plays them: the sections it leaves out are gone,
    and so are the Firefly spirits' rows and the forbidden cell without Firefly; a note at
    the top says so."""
    sections = split_sections(rules_text() if text is None else text)
    for number in LEFT_OUT[variant]:
        sections.pop(number, None)
    if variant != "firefly":
        for number, body in sections.items():
            sections[number] = without_firefly(body)
    sections[0] = f"{sections.get(0, '')}\n\n*{LEFT_OUT_NOTE[variant]}*"
    return sections


def without_firefly(body: str) -> str:
    """``body`` without §9's Firefly rows and without list items about the Firefly Evil
    Spirit's forbidden cell."""
    out: list[str] = []
    skipping = False
    for line in body.splitlines():
        if line.startswith("- "):
            skipping = "Firefly Evil Spirit" in line
        elif not line.startswith("  "):
            skipping = False
        if skipping or "*(Firefly)*" in line:
            continue
        out.append(line)
    return "\n".join(out)


def sections_for(variant: str, more_keys: str = "") -> dict[int, str]:
    """What the help shows for ``variant``: -1 the keys, then the rules by section."""
    keys = keys_text(variant)
    return {-1: f"{keys}\n{more_keys}" if more_keys else keys, **rules_for(variant)}


#: The help's section keys: 1-9 and 0 reach §1-§10, e §11 (the Evil Spirit), s §12 (scoring).
SECTION_KEYS: dict[str, int] = {**{str(n): n for n in range(1, 10)}, "0": 10, "e": 11,
                                "s": 12}


@lru_cache(maxsize=32)
def parsed(text: str) -> RichMarkdown:
    """``text`` parsed once per run (the help opens again in milliseconds)."""
    return RichMarkdown(text, hyperlinks=False)


def prepare(variant: str = "base", more_keys: str = "") -> None:
    """Parse every section of ``variant``'s help now (``parsed`` keeps them)."""
    for text in sections_for(variant, more_keys).values():
        parsed(text)


class RulesViewer(VerticalScroll):
    """The keys, then the rules section by section (each a Rich Markdown block: built in
    milliseconds, where Textual's Markdown widget took most of a second)."""

    DEFAULT_CSS = """
    RulesViewer { height: 1fr; padding: 0 1; }
    RulesViewer > Static { height: auto; margin-bottom: 1; }
    """

    def __init__(self, sections: dict[int, str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sections = sections
        self.can_focus = True

    def compose(self) -> ComposeResult:
        for number, text in self.sections.items():
            yield Static(parsed(text), id=f"section-{number}")

    def goto(self, number: int) -> bool:
        """Scroll so section ``number`` (-1: the keys) starts at the top; False if there
        is none."""
        try:
            block = self.query_one(f"#section-{number}", Static)
        except NoMatches:
            return False
        self.scroll_to(y=block.virtual_region.y, animate=False, immediate=True)
        return True

    def section_at_top(self) -> int | None:
        """The section whose start is at the top of the view (None: between two)."""
        for block in self.query(Static):
            if block.virtual_region.y == round(self.scroll_y) and block.id:
                return int(block.id.removeprefix("section-"))
        return None


class HelpScreen(ModalScreen[None]):
    """Keys and rules, opened at the rules section of the pending decision.

    A header line keeps the keys of that decision in view; digits, ``e`` and ``s`` jump to
    a section and ``k`` back to the full key list.
    """

    BINDINGS = [
        Binding("escape,q,question_mark", "app.pop_screen", "Back"),
        Binding("k", "keys", "All keys"),
        *[Binding(key, f"section({n})", f"§{n}", show=False)
          for key, n in SECTION_KEYS.items()],
    ]
    DEFAULT_CSS = """
    HelpScreen { background: $background; }
    HelpScreen #now { height: auto; padding: 0 1; background: $boost;
        border-bottom: solid $primary; }
    """

    def __init__(self, decision: Decision | None = None, wide: bool = True,
                 keys: str = "", more_keys: str = "", variant: str = "base") -> None:
        super().__init__()
        self.more_keys = more_keys  # an app's own keys (the online table's), after KEYS
        self.variant = variant  # only what this variant has is shown
        self.deciding = ""  # who decides now, when it is not the person at this screen
        self.rules = rules_text()
        self.titles = section_titles(self.rules)
        self.decision = decision
        self.start_section = SECTION_OF.get(decision) if decision else None
        self.keys = keys
        self.wide = wide

    def compose(self) -> ComposeResult:
        yield Static(self.now_text(), id="now", markup=False)
        yield RulesViewer(sections_for(self.variant, self.more_keys))
        yield Footer()

    def now_text(self) -> str:
        """The header: the pending decision, its rules section and the keys answering it."""
        lines = []
        if self.decision is not None:
            title = self.titles.get(self.start_section or 0, "")
            where = f" (rules §{title.replace('. ', ' ', 1)}, below)" if title else ""
            now = f"{self.deciding} is to {asked(self.decision, of_you=False)}" \
                if self.deciding else asked(self.decision)
            lines.append(f"Now: {now}{where}")
        if self.keys:
            lines.append(f"Keys: {self.keys}")
        jumps = {"base": "1–9, e, s: rules",
                 "firefly": "1–9, 0, s: rules",
                 "beginner": "1–9, s: rules"}[self.variant]
        lines.append(f"Click: pick, again: confirm · k: all keys · {jumps} · Esc: back")
        return "\n".join(lines)

    def show_for(self, decision: Decision | None, keys: str = "", deciding: str = "") -> None:
        """Open (again) at the rules of ``decision``, with its ``keys`` in the header (and
        who is ``deciding``, when not the person here: a bot, the other player): the app
        keeps one help screen, built once, so that '?' opens it at once."""
        self.decision = decision
        self.deciding = deciding
        self.start_section = SECTION_OF.get(decision) if decision else None
        self.keys = keys
        if self.is_mounted:
            self.query_one("#now", Static).update(self.now_text())
            self.start_at()

    def on_mount(self) -> None:
        self.start_at()

    def on_screen_resume(self) -> None:
        self.query_one(RulesViewer).focus()

    def start_at(self) -> None:
        viewer = self.query_one(RulesViewer)
        viewer.focus()
        if self.start_section:
            self.call_after_refresh(viewer.goto, self.start_section)
        else:
            viewer.scroll_home(animate=False, immediate=True)

    def action_section(self, number: int) -> None:
        self.query_one(RulesViewer).goto(number)

    def action_keys(self) -> None:
        self.query_one(RulesViewer).scroll_home(animate=False, immediate=True)

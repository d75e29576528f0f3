"""Live scores: a one-line summary for small terminals, a full sheet for big ones."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ..core import Score, Spirit
from .view import BoardView, glyphs_of, palette_of

#: Blue spirits whose rule gives no bonus stars (rules.md §9): the Squirrel only puts the
#: tiles left in its owner's hand into the panorama at game end. Its star is on the
#: "Spirits (1 each)" line; a "Squirrel bonus 0" row would suggest a bonus it never has.
NO_BONUS = frozenset({Spirit.SQUIRREL.title})


def bonus_names(scores: tuple[Score, ...]) -> list[str]:
    """The spirits with a bonus row on the sheet, in the order they were scored."""
    return [name for name in dict.fromkeys(n for s in scores for n in s.bonuses)
            if name not in NO_BONUS]


def score_table(names: tuple[str, str], scores: tuple[Score, Score], star: str) -> Table:
    """Both breakdowns side by side; spirit bonuses line up by name."""
    table = Table(box=None, pad_edge=False, show_header=True, expand=False)
    table.add_column("")
    for name in names:  # a person's name: text, never markup
        table.add_column(Text(name), justify="right")
    base = [("Biggest section", "biggest_section"), ("Lit fires", "lit_fires"),
            ("Spirits (1 each)", "spirits")]
    for label, attr in base:
        table.add_row(label, str(getattr(scores[0], attr)), str(getattr(scores[1], attr)))
    for name in bonus_names(scores):
        cells = [str(s.bonuses[name]) if name in s.bonuses else "" for s in scores]
        table.add_row(f"  {name} bonus", *cells)
    if any(s.fireflies for s in scores):  # Firefly variant; the Evil Spirit is base game
        table.add_row("Fireflies", *(str(s.fireflies) for s in scores))
    if any(s.covered for s in scores):
        table.add_row("Covered by Evil", *(s.covered or "" for s in scores))
    table.add_row(Text(f"Total {star}", style="bold"),
                  *(Text(str(s.total), style="bold") for s in scores))
    return table


class ScoreLine(Static):
    """``You ★14 (8+2+3+1) │ Bot ★12 (...)`` in one line."""

    DEFAULT_CSS = """
    ScoreLine { height: 1; padding: 0 1; }
    """

    view: BoardView | None = None

    def show(self, view: BoardView) -> None:
        """Both totals with their parts; the parts get terser, then go, when the line
        would not fit (never a cut-off bracket)."""
        self.view = view
        room = self.size.width - 2 if self.size.width else 10_000
        for detail in ("words", "terse", "none"):
            line = self._line(view, detail)
            if line.cell_len <= room:
                break
        self.update(line)

    def on_resize(self) -> None:
        if self.view is not None:
            self.show(self.view)

    def _line(self, view: BoardView, detail: str) -> Text:
        pal, g = palette_of(self), glyphs_of(view)
        out = Text(no_wrap=True, overflow="ellipsis")
        for p in (view.me, 1 - view.me):
            s = view.scores[p]
            out.append(f"{view.names[p]} {g.star}{s.total}", style=pal.bold)
            bonus = sum(s.bonuses.values())
            if detail == "words":
                parts = f"sec {s.biggest_section} fire {s.lit_fires} spir {s.spirits}+{bonus}"
                if s.fireflies:
                    parts += f" ffly {s.fireflies}"
                out.append(f" ({parts})", style=pal.dim)
            elif detail == "terse":
                parts = f"sec{s.biggest_section} fire{s.lit_fires} spir{s.spirits}+{bonus}"
                if s.fireflies:
                    parts += f" ffly{s.fireflies}"
                out.append(f" ({parts})", style=pal.dim)
            if p == view.me:
                out.append("  │  " if not view.ascii else "  |  ", style=pal.dim)
        return out


class ScoreSheet(Static):
    """The full live breakdown of both players (shown on big terminals)."""

    DEFAULT_CSS = """
    ScoreSheet { height: auto; padding: 0 1; }
    """

    def show(self, view: BoardView) -> None:
        g = glyphs_of(view)
        self.update(score_table(view.names, view.scores, g.star))

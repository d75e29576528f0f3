"""Every spirit in play with what it does (the 'e' key)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..core import Observation, Spirit
from ..core.spirits import spirit_set


class SpiritsScreen(ModalScreen[None]):
    """A table: spirit, kind, where it is, effect."""

    BINDINGS = [Binding("escape,e,q", "app.pop_screen", "Back")]
    DEFAULT_CSS = """
    SpiritsScreen { align: center middle; }
    SpiritsScreen VerticalScroll { width: 90%; height: 90%; border: thick $primary;
        background: $surface; padding: 0 1; }
    """

    def __init__(self, obs: Observation, names: tuple[str, str]) -> None:
        super().__init__()
        self.obs = obs
        self.names = names

    def compose(self) -> ComposeResult:
        obs = self.obs
        where: dict[Spirit, str] = {s: "line" for s in obs.spirit_line}
        for p in (0, 1):
            for spirit, _sq in obs.panoramas[p].spirits:
                where[Spirit(spirit)] = self.names[p]
        table = Table(box=None, expand=True)
        table.add_column("Spirit", style="bold")
        table.add_column("Kind")
        table.add_column("Where")
        table.add_column("Effect", ratio=1)
        for spirit in spirit_set(obs.options.firefly, obs.options.beginner):
            kind = "evil" if spirit == Spirit.EVIL else "plain" if spirit.is_plain else "blue"
            table.add_row(spirit.title, kind, Text(where.get(spirit, "pile")), spirit.effect)
        with VerticalScroll():
            yield Static(f"Spirits (pile: {obs.spirit_pile} face down) — Esc: back")
            yield Static(table)

"""The whole game log, full screen and scrollable."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import RichLog, Static

from ..widgets.footer import Footer
from ..widgets.gamelog import log_renderables


class LogScreen(ModalScreen[None]):
    """Scroll with arrows/PgUp/PgDn; Esc goes back."""

    BINDINGS = [Binding("escape,v,q", "app.pop_screen", "Back")]
    DEFAULT_CSS = """
    LogScreen { background: $background; }
    LogScreen Static { height: 1; background: $primary; padding: 0 1; text-style: bold; }
    LogScreen RichLog { height: 1fr; padding: 0 1; }
    """

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        yield Static("Game log (Esc: back)")
        yield RichLog(wrap=True, markup=False, highlight=False, min_width=20, id="fulllog")
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one(RichLog)
        # One text for each run of the game's lines: a write per line cost several times as
        # much late in a game, and the key waited for it. Chat goes in its own column.
        for drawn in log_renderables(self.lines, bool(getattr(self.app, "ascii_mode", False))):
            log.write(drawn)
        log.focus()

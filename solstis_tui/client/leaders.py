"""The leaderboard (``l`` in the lobby): rated players and bots on one scale, a page at a
time, and your own place; ``c`` turns between the live games' board and the
correspondence games' (each pool has its own ratings)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

PAGE = 15  # the host's page of the leaderboard (host.standings.LEADERS_PAGE)
POOL_TITLES = {"live": "live games", "correspondence": "correspondence games"}


def provisional(rating: str) -> str:
    """What a rating's "?" means, said beside it (nothing for a settled rating)."""
    return " (provisional: too few recent rated games to be sure)" if rating.endswith(
        "?") else ""


def board_text(message: dict[str, Any]) -> str:
    """A ``leaders`` message as lines a person reads (names are shown as written)."""
    rows = message.get("rows") or []
    pool = message.get("pool")
    other = "live" if pool == "correspondence" else "correspondence"
    lines = [f"Leaderboard, {POOL_TITLES.get(str(pool), 'live games')} (\"?\": "
             "provisional rating)", ""]
    for row in rows:
        mark = "  <- you" if row.get("you") else ""
        lines.append(f"{row.get('place', '?'):>4}. {row.get('name')!s:<30} "
                     f"{row.get('rating') or '':>6}{mark}")
    if not rows:
        lines.append("Nobody is rated yet: create a rated table (k in the new-table box).")
    offset, total = int(message.get("offset") or 0), int(message.get("total") or 0)
    place, rating, why = message.get("place"), message.get("rating"), message.get("board")
    lines.append("")
    if place:
        lines.append(f"You: {rating}, place {place} of {total}")
    elif rating:  # rated, not listed: what is still needed
        lines.append(f"You: {rating}{provisional(str(rating))}")
        if why:
            lines.append(str(why))
    else:
        lines.append("You have no rated game yet.")
    more = []
    if offset > 0:
        more.append("[ previous page")
    if offset + len(rows) < total:
        more.append("] next page")
    other_rating = message.get("other")
    if isinstance(other_rating, str) and other_rating:
        lines.append(f"Your rating in {POOL_TITLES[other]}: {other_rating}"
                     f"{provisional(other_rating)}")
    lines.append(" · ".join([*more, f"c {other} games", "Esc goes back"]))
    return "\n".join(lines)


class LeadersScreen(ModalScreen[None]):
    """Shows the host's ``leaders`` pages; asks for them through ``ask``."""

    BINDINGS = [
        Binding("escape", "dismiss", "Back"),
        Binding("l", "dismiss", "Back", show=False),
        Binding("left_square_bracket", "turn(-1)", "Prev page", key_display="["),
        Binding("right_square_bracket", "turn(1)", "Next page", key_display="]"),
        Binding("c", "other_pool", "Live/correspondence"),
    ]
    DEFAULT_CSS = """
    LeadersScreen { align: center middle; }
    #leaders { width: 64; height: auto; border: round $accent; padding: 0 1;
               background: $surface; }
    """

    def __init__(self, ask: Callable[[int, str], None]) -> None:
        super().__init__()
        self.ask = ask
        self.first, self.total = 0, 0  # the page shown: its first row's index
        self.pool = "live"

    def compose(self) -> ComposeResult:
        with Vertical(id="leaders"):
            yield Static("Asking the host...", id="board", markup=False)

    def on_mount(self) -> None:
        self.ask(0, self.pool)

    def show(self, message: dict[str, Any]) -> None:
        self.first = int(message.get("offset") or 0)
        self.total = int(message.get("total") or 0)
        self.query_one("#board", Static).update(board_text(message))

    def action_turn(self, pages: int) -> None:
        offset = self.first + pages * PAGE
        if 0 <= offset < self.total:
            self.ask(offset, self.pool)

    def action_other_pool(self) -> None:
        self.pool = "live" if self.pool == "correspondence" else "correspondence"
        self.ask(0, self.pool)

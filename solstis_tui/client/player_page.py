"""A player's page (``p`` in the lobby): their rating, their latest rated games and a small
chart of their rating over those games, drawn with block characters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

BARS = "▁▂▃▄▅▆▇█"
RESULT = {1.0: "won", 0.5: "drew", 0.0: "lost"}
LISTED, SLOW_LISTED = 10, 3  # games listed in all (at 80x24), of them correspondence ones


def chart(ratings: list[int]) -> str:
    """One bar per game, low to high between the lowest and highest rating shown."""
    if not ratings:
        return ""
    low, high = min(ratings), max(ratings)
    span = max(1, high - low)
    return "".join(BARS[(r - low) * (len(BARS) - 1) // span] for r in ratings)


def game_line(game: dict[str, Any]) -> str:
    """One rated game as the page lists it."""
    score = game.get("score")
    result = RESULT.get(float(score), "?") if isinstance(score, int | float) else "?"
    return f"{result:<5} against {game.get('opponent')!s:<26} then {game.get('rating')}"


def page_text(message: dict[str, Any]) -> str:
    """A ``player`` message as lines a person reads (names as written)."""
    from .leaders import provisional

    rating, why = str(message.get("rating")), message.get("board")
    slow = message.get("correspondence")
    slow = slow if isinstance(slow, dict) else {}
    slow_rating, slow_games = slow.get("rating"), slow.get("games") or []
    lines = [f"{message.get('name')}: rating {rating}{provisional(rating)}"]
    if isinstance(slow_rating, str) and slow_rating:
        lines.append(f"Correspondence rating {slow_rating}" + (
            provisional(slow_rating) if slow_games else " (no correspondence game yet)"))
    lines.append("")
    if why:
        lines += [str(why), ""]
    points = [int(r) for r in message.get("chart") or []]
    if points:
        lines += [f"Rating over the last {len(points)} rated games "
                  f"({min(points)} to {max(points)}):", chart(points), ""]
    games = (message.get("games") or [])[:LISTED - min(len(slow_games), SLOW_LISTED)]
    lines += [game_line(g) for g in games] or (
        [] if slow_games else ["No rated game yet."])
    if slow_games:
        lines += ["", "Correspondence games:"]
        lines += [game_line(g) for g in slow_games[:SLOW_LISTED]]
    lines += ["", "Esc goes back"]
    return "\n".join(lines)


class PlayerScreen(ModalScreen[None]):
    """Shows the host's ``player`` answer; asks for it through ``ask``."""

    BINDINGS = [Binding("escape", "dismiss", "Back"), Binding("p", "dismiss", "Back",
                                                              show=False)]
    DEFAULT_CSS = """
    PlayerScreen { align: center middle; }
    #player { width: 64; height: auto; border: round $accent; padding: 0 1;
              background: $surface; }
    """

    def __init__(self, ask: Callable[[], None]) -> None:
        super().__init__()
        self.ask = ask

    def compose(self) -> ComposeResult:
        with Vertical(id="player"):
            yield Static("Asking the host...", id="page", markup=False)

    def on_mount(self) -> None:
        self.ask()

    def show(self, message: dict[str, Any]) -> None:
        self.query_one("#page", Static).update(page_text(message))

    def refused(self, text: str) -> None:
        self.query_one("#page", Static).update(f"{text}\n\nEsc goes back")

"""Your games at the host (``g`` in the lobby): the finished games you played or watched,
newest first, with the date, the opponent, what the game did to your rating and how it
ended; Enter reviews the one highlighted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ..widgets.footer import Footer
from ..wire.messages import GAMES_PAGE

ENDINGS = {"normal": "", "fireflies": "4th firefly", "resigned": "resigned",
           "time": "on time", "abandoned": "abandoned"}


def _name(entry: dict[str, Any], seat: int) -> str:
    names = entry.get("names") or ["?", "?"]
    return str(names[seat])


def game_row(entry: dict[str, Any]) -> tuple[str, str, str, str]:
    """One game of a ``games`` message as the list shows it: date, opponent, rating
    change, how it ended (from the player's side; a watched game names both players)."""
    date = str(entry.get("date") or "")[:16].replace("T", " ")
    seat, winner, end = entry.get("seat"), entry.get("winner"), str(entry.get("end"))
    how = ENDINGS.get(end, end)
    scores = entry.get("scores") or [0, 0]
    if seat in (0, 1):
        opponent = _name(entry, 1 - seat)
        result = ("no result" if end == "abandoned" else "shared" if winner is None
                  else "won" if winner == seat else "lost")
        stars = f"{scores[seat]}-{scores[1 - seat]}"
    else:
        opponent = f"watched: {_name(entry, 0)} vs {_name(entry, 1)}"
        result = ("no result" if end == "abandoned" else "shared" if winner is None
                  else f"{_name(entry, winner)} won")
        stars = f"{scores[0]}-{scores[1]}"
    ended = f"{result} {stars}" + (f", {how}" if how else "")
    return date, opponent, str(entry.get("change") or ""), ended


class MyGamesScreen(Screen[None]):
    """Shows the host's ``games`` pages (asked through ``ask``); Enter asks ``review`` for
    the highlighted game's record."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back"),
        Binding("enter", "review", "Review"),
        Binding("left_square_bracket", "turn(-1)", "Prev page", key_display="["),
        Binding("right_square_bracket", "turn(1)", "Next page", key_display="]"),
    ]
    DEFAULT_CSS = """
    MyGamesScreen Static#games-head { height: 1; background: $primary; padding: 0 1;
        text-style: bold; }
    MyGamesScreen DataTable { height: 1fr; }
    MyGamesScreen Static#games-note { height: auto; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, ask: Callable[[int], None], review: Callable[[str], None]) -> None:
        super().__init__()
        self.ask = ask
        self.review = review
        self.games: list[dict[str, Any]] = []
        self.first, self.total = 0, 0

    def compose(self) -> ComposeResult:
        yield Static("Your games at the host, newest first", id="games-head", markup=False)
        yield DataTable(cursor_type="row", zebra_stripes=True, id="games")
        yield Static("Asking the host...", id="games-note", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("date (UTC)", "opponent", "rating", "how it ended")
        table.focus()
        self.ask(0)

    def show(self, message: dict[str, Any]) -> None:
        """A ``games`` page from the host (names are shown as written, never as markup)."""
        self.games = [g for g in message.get("games") or [] if isinstance(g, dict)]
        self.first = int(message.get("offset") or 0)
        self.total = int(message.get("total") or 0)
        table = self.query_one(DataTable)
        table.clear()
        for i, entry in enumerate(self.games):
            table.add_row(*(Text(cell, no_wrap=True, overflow="ellipsis")
                            for cell in game_row(entry)), key=str(i))
        if not self.games:
            note = "No finished games yet: the games you play or watch here are kept."
        else:
            last = self.first + len(self.games)
            note = f"Games {self.first + 1}-{last} of {self.total}. Enter reviews a game."
        self.say(note)
        self.refresh_bindings()  # the page keys are offered only where there is a page

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No key is offered that would do nothing: ``[``/``]`` past the first or last
        page."""
        if action == "turn" and parameters:
            pages = parameters[0]
            offset = self.first + (pages if isinstance(pages, int) else 0) * GAMES_PAGE
            return 0 <= offset < self.total
        return True

    def say(self, text: str) -> None:
        self.query_one("#games-note", Static).update(text)

    def refused(self, text: str) -> None:
        """The host refused a request of this screen: say why here."""
        self.say(text)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_review()

    def action_review(self) -> None:
        row = self.query_one(DataTable).cursor_row
        if 0 <= row < len(self.games):
            self.say("Fetching the game's record...")
            self.review(str(self.games[row].get("game")))

    def action_turn(self, pages: int) -> None:
        offset = self.first + pages * GAMES_PAGE
        if 0 <= offset < self.total:
            self.ask(offset)

    def action_close(self) -> None:
        self.dismiss(None)

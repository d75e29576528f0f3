"""The lobby: who you are, the tables at the host (a page at a time), and keys to create,
join or watch."""

from __future__ import annotations

from typing import Any, Protocol, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from ..widgets.footer import Footer
from ..wire.names import BadName, normalize_name
from ..wire.protocol import MAX_NAME
from .create import bank_words, pace_words
from .waiting import waiting_words

PROMPT = "Your name (or #code to come back as yourself), then Enter:"
PAGE_SIZE = 50  # the host's rows per page until a full page shows otherwise


class LobbyServices(Protocol):
    """What the lobby asks of the online app: who this is, and the requests it sends."""

    player_name: str | None

    def hello(self, name: str | None = None, code: str | None = None) -> None: ...

    def create(self, variant: str, opponent: str, seat: int | None,
               rated: bool = False, clock: int | None = None,
               bank: int | None = None, days: int = 0) -> None: ...

    def join(self, table: str) -> None: ...

    def watch_table(self, table: str) -> None: ...

    def send(self, message: dict[str, Any]) -> None: ...

    def show_my_games(self) -> None: ...


class LobbyTable(DataTable[Text]):
    """The lobby's rows. PageDown on the last row turns to the next page of the lobby,
    PageUp on the first row to the previous one (landing on its last row)."""

    def action_page_down(self) -> None:
        screen = self.screen
        if (isinstance(screen, LobbyScreen) and self.cursor_row >= self.row_count - 1
                and screen.has_next()):
            screen.action_next_page()
        else:
            super().action_page_down()

    def action_page_up(self) -> None:
        screen = self.screen
        if isinstance(screen, LobbyScreen) and self.cursor_row <= 0 and screen.has_previous():
            screen.turn_page(-1, land="bottom")
        else:
            super().action_page_up()


class LobbyScreen(Screen[None]):
    """Lists the host's tables a page at a time (the player's own first). Enter joins (or
    watches a full table), c creates one, [ and ] turn the page."""

    BINDINGS = [
        Binding("c", "create", "Create"),
        # Enter watches a full table and the welcome line says w: room for g at 80 columns
        Binding("w", "watch", "Watch", show=False),
        Binding("g", "my_games", "My games"),
        Binding("r", "refresh", "Refresh"),
        Binding("l", "leaders", "Leaderboard", show=False),  # said in the welcome line
        Binding("p", "player_page", "Your page", show=False),
        Binding("n", "rename", "New name", show=False),
        Binding("q", "quit_app", "Quit"),
        Binding("left_square_bracket", "previous_page", "Prev page", key_display="["),
        Binding("right_square_bracket", "next_page", "Next page", key_display="]"),
    ]
    DEFAULT_CSS = """
    LobbyScreen { padding: 0 1; }
    #who { height: auto; margin-bottom: 1; }
    #tables { height: 1fr; }
    #page { height: auto; color: $text-muted; }
    #row { height: auto; color: $text-muted; }
    #lobby-error { color: $error; height: auto; }
    """

    def __init__(self, name_known: bool) -> None:
        super().__init__()
        self.name_known = name_known
        self.rows: list[dict[str, Any]] = []
        self.first = 0
        """The place of the first row shown in the whole lobby."""
        self.total = 0
        """How many tables the whole lobby has (the host's ``total``)."""
        self.page_size = PAGE_SIZE
        self.wanted = 0
        """The offset of the page last asked for (ahead of ``first`` while it comes)."""
        self.asked = 0
        """The ``id`` of the last ``list`` sent: older answers are out of date."""
        self.shown: list[str] = []
        """The ids of the rows in the widget, in order."""
        self.land: str | None = None
        """Where the cursor goes on the page being turned to: "top", "bottom" or, for a
        refresh, the same table (or row) as before."""
        self.me: tuple[str, str] | None = None
        self.rating: str | None = None  # the player's rating as the host shows it
        self.waiting: list[str] = []
        """The ids of the player's games that wait for their move (the host's word)."""
        self.message = ""
        self.mounted = False
        """True once the widgets exist (``on_mount`` ran): until then host news is kept."""

    @property
    def ready(self) -> bool:
        """The widgets are there to show host news: mounted, and not yet taken down (as
        the app closes, news may still come in after the widgets are gone)."""
        return self.mounted and bool(self.query("#tables"))

    @property
    def online(self) -> LobbyServices:
        return cast(LobbyServices, self.app)

    def compose(self) -> ComposeResult:
        # Names, table ids and the host's messages are shown as written, never as markup.
        yield Static("Connecting to the game host...", id="who", markup=False)
        yield Input(placeholder="name", id="name", max_length=MAX_NAME)
        yield LobbyTable(id="tables", cursor_type="row")
        yield Static("", id="page", markup=False)
        yield Static("", id="row", markup=False)
        yield Static("", id="lobby-error", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        # Below 110 columns the seats get 14 columns each (cut with an ellipsis; the line
        # under the table has them whole), so that every column, watchers too, is seen.
        seat_width = 14 if self.app.size.width < 110 else None
        table.add_columns("table", "variant", "status", "turn")
        table.add_column("seat 1", width=seat_width)
        table.add_column("seat 2", width=seat_width)
        table.add_column("watchers")
        name = self.query_one("#name", Input)
        name.display = not self.name_known
        if not self.name_known:
            self.query_one("#who", Static).update(PROMPT)
            name.focus()
        # The host may have answered before this screen was mounted (``--code``/``--name``
        # sends hello at once): show what came.
        self.mounted = True
        self._show_welcome()
        self._show_rows()
        self.say(self.message)

    def ask_name(self) -> None:
        """Ask for a name (or code) again, e.g. after the host refused one."""
        self.name_known = False
        if self.ready and self.me is None:
            name = self.query_one("#name", Input)
            name.display = True
            self.query_one("#who", Static).update(PROMPT)
            name.focus()

    def welcome(self, name: str, code: str, rating: str | None = None) -> None:
        self.me = (name, code)
        self.rating = rating
        self._show_welcome()

    def rated(self, rating: str) -> None:
        """The player's rating as the host shows it now (after a rated game, say)."""
        if rating != self.rating:
            self.rating = rating
            self._show_welcome()

    def renamed(self, name: str) -> None:
        """The host took the player's new name."""
        if self.me is not None:
            self.me = (name, self.me[1])
            self._show_welcome()
            self.ask_page()  # the seats at your tables show it too

    def _show_welcome(self) -> None:
        if self.me is None or not self.ready:
            return
        name, code = self.me
        self.query_one("#name", Input).display = False
        self.query_one("#who", Static).update(
            f"You are {name}."
            + (f" Your rating: {self.rating}." if self.rating else "")
            + waiting_words(len(self.waiting))
            + f" Your resume code is #{code}: type it instead of your name to "
            "get your seats back from anywhere.\nEnter joins the selected table (or watches "
            "a full one) · c creates a table · w watches · r refreshes · l leaderboard · "
            "p your page · n new name · q quits")
        self.query_one(DataTable).focus()

    def show_page(self, message: dict[str, Any], reply_to: int | None = None) -> None:
        """A page of the lobby from the host (a ``welcome``'s or a ``tables``', whose
        request was ``reply_to``); an answer to a ``list`` older than the last one sent is
        out of date and ignored."""
        if reply_to not in (None, self.asked):
            return
        if message.get("push") and message.get("offset", 0) != self.wanted:
            return  # the page pushed is not the one asked for since: its answer comes
        waiting = message.get("waiting")
        if isinstance(waiting, list):
            waiting = [t for t in waiting if isinstance(t, str)]
            if waiting != self.waiting:
                self.waiting = waiting
                self._show_welcome()
        self.show_tables(message["tables"], message.get("offset", 0), message.get("total"))

    def show_tables(self, rows: list[dict[str, Any]], offset: int = 0,
                    total: int | None = None) -> None:
        """One page of the lobby: ``rows`` from place ``offset`` of ``total`` tables."""
        total = offset + len(rows) if total is None else total
        if not rows and 0 < total <= offset:  # tables went away: show the last page
            self.ask_page(max(0, (total - 1) // self.page_size * self.page_size))
            return
        if rows and offset + len(rows) < total:  # a full page: the host's page size
            self.page_size = len(rows)
        self.rows, self.first, self.total, self.wanted = rows, offset, total, offset
        self._show_rows()
        self.say("" if rows else "No tables yet: press c to create one.")

    def _show_rows(self) -> None:
        if not self.ready:
            return
        table = self.query_one(DataTable)
        keep_row = table.cursor_row
        before = self.shown[keep_row] if keep_row < len(self.shown) else None
        table.clear()
        for row in self.rows:
            seats = [self._seat_text(s, self.online.player_name) for s in row["seats"]]
            status = "your move" if row["table"] in self.waiting else row["status"]
            cells = [row["table"], row["variant"], status, row["turn"], *seats,
                     row["watchers"]]
            table.add_row(*(Text(str(cell), no_wrap=True, overflow="ellipsis")
                            for cell in cells), key=str(row["table"]))
        self.shown = [row["table"] for row in self.rows]
        if self.land == "top" or not self.rows:
            cursor = 0
        elif self.land == "bottom":
            cursor = len(self.rows) - 1
        elif before in self.shown:  # a refresh: the same table stays selected
            cursor = self.shown.index(before)
        else:
            cursor = min(keep_row, len(self.rows) - 1)
        self.land = None
        table.move_cursor(row=cursor, animate=False)
        self.query_one("#page", Static).update(self._page_text())
        self.refresh_bindings()
        self._show_row()

    def _page_text(self) -> str:
        """E.g. "Tables 51–100 of 312 (yours first) · [ previous page · ] next page"."""
        if not self.rows or self.total <= len(self.rows):
            return ""
        first, last = self.first + 1, self.first + len(self.rows)
        shown = f"Table {first}" if first == last else f"Tables {first}–{last}"
        text = f"{shown} of {self.total} (yours first)"
        if self.has_previous():
            text += " · [ previous page"
        if self.has_next():
            text += " · ] next page"
        return text

    def has_next(self) -> bool:
        return self.first + len(self.rows) < self.total

    def has_previous(self) -> bool:
        return self.first > 0

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Page keys are hidden when the lobby fits one page, dimmed at its ends."""
        if action in ("next_page", "previous_page"):
            if self.total <= len(self.rows):
                return False
            able = self.has_next() if action == "next_page" else self.has_previous()
            return True if able else None
        return True

    def _show_row(self) -> None:
        """The selected table in one line, seats in full (the table may be cut at 80
        columns)."""
        row = self.selected()
        text = ""
        if row is not None:
            seats = " vs ".join(self._seat_text(s, self.online.player_name)
                                for s in row["seats"])
            rated = " · rated" if row.get("rated") else ""
            bank, days = row.get("bank"), row.get("days")
            game = (f" · {bank_words(bank // 60)}" if isinstance(bank, int) and
                    not isinstance(bank, bool) and 0 < bank < 24 * 3600 else "")
            if isinstance(days, int) and not isinstance(days, bool) and 0 < days < 100:
                game = f" · {pace_words(days)}"
            text = (f"{row['table']}: {seats} · {row['variant']}{rated}{game} · {row['status']}"
                    f" · turn {row['turn']} · {row['watchers']} watching")
        self.query_one("#row", Static).update(text)

    def on_data_table_row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self._show_row()

    @staticmethod
    def _seat_text(seat: dict[str, Any], me: str | None = None) -> str:
        """A seat as the lobby shows it: the name, its rating ("?": provisional), and a
        mark for a bot, for the player's own seat (``me``: "(you)", never "away" from a
        lobby they are in) or for a player away."""
        rating = f" {seat['rating']}" if seat.get("rating") else ""
        if seat.get("bot"):
            return f"{seat['name']}{rating} (bot)"
        if not seat.get("name"):
            return "— open —"
        name: str = seat["name"]
        if me is not None and name == me:
            return f"{name}{rating} (you)"
        return name + rating + ("" if seat.get("connected") else " (away)")

    def say(self, text: str) -> None:
        self.message = text
        if self.ready:
            self.query_one("#lobby-error", Static).update(text)

    def selected(self) -> dict[str, Any] | None:
        table = self.query_one(DataTable)
        if not self.rows or table.cursor_row is None:
            return None
        return self.rows[min(table.cursor_row, len(self.rows) - 1)]

    # ------------------------------------------------------------------ keys
    def on_input_changed(self, event: Input.Changed) -> None:
        """The name field stops at the host's limit as the player types: say so there."""
        full = len(event.value) >= MAX_NAME and not event.value.startswith("#")
        if full:
            self.say(f"A name has at most {MAX_NAME} characters.")
        elif self.message.startswith("A name has at most"):
            self.say("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.say("Type a name first.")
            return
        if text.startswith("#"):
            self.online.hello(code=text[1:])
            return
        try:
            name = normalize_name(text)
        except BadName as exc:
            self.say(f"That name cannot be used: {exc}.")
            return
        self.online.hello(name=name)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        row = self.selected()
        if row is None:
            return
        me = self.online.player_name
        mine = any(s.get("name") == me and not s.get("bot") for s in row["seats"])
        if row["status"] == "open" or mine:
            self.online.join(row["table"])
        else:
            self.online.watch_table(row["table"])

    def action_rename(self) -> None:
        if self.query_one("#name", Input).has_focus or self.me is None:
            return
        from .rename import RenameScreen

        def chosen(name: str | None) -> None:
            if name:
                self.online.send({"type": "rename", "name": name})

        self.app.push_screen(RenameScreen(), chosen)

    def action_player_page(self) -> None:
        if self.query_one("#name", Input).has_focus or self.me is None:
            return
        from .player_page import PlayerScreen

        self.app.push_screen(PlayerScreen(lambda: self.online.send({"type": "player"})))

    def action_leaders(self) -> None:
        if self.query_one("#name", Input).has_focus or self.me is None:
            return
        from .leaders import LeadersScreen

        def ask(offset: int, pool: str) -> None:
            self.online.send({"type": "leaders", "offset": offset, "pool": pool})

        self.app.push_screen(LeadersScreen(ask))

    def action_my_games(self) -> None:
        """Your finished games at the host (see my_games)."""
        if self.query_one("#name", Input).has_focus or self.me is None:
            return
        self.online.show_my_games()

    def action_create(self) -> None:
        if self.query_one("#name", Input).has_focus:
            return
        from .create import CreateTableScreen

        self.app.push_screen(CreateTableScreen(), self._created)

    def _created(self, choice: dict[str, Any] | None) -> None:
        if choice:
            self.online.create(**choice)

    def action_watch(self) -> None:
        row = self.selected()
        if row is not None:
            self.online.watch_table(row["table"])

    def ask_page(self, offset: int | None = None) -> None:
        """Ask the host for the page at ``offset`` (the page shown if not given)."""
        self.wanted = self.first if offset is None else offset
        self.asked += 1
        message: dict[str, Any] = {"type": "list", "id": self.asked}
        if self.wanted:
            message["offset"] = self.wanted
        self.online.send(message)

    def turn_page(self, pages: int, land: str = "top") -> None:
        """Ask for the page ``pages`` away from the one last asked for, within the lobby."""
        if self.query_one("#name", Input).has_focus:
            return
        last = max(0, (self.total - 1) // self.page_size * self.page_size)
        offset = min(max(0, self.wanted + pages * self.page_size), last)
        if offset != self.wanted:
            self.land = land
            self.ask_page(offset)

    def action_next_page(self) -> None:
        self.turn_page(1)

    def action_previous_page(self) -> None:
        self.turn_page(-1)

    def action_refresh(self) -> None:
        self.ask_page()

    def action_quit_app(self) -> None:
        if not self.query_one("#name", Input).has_focus:
            self.app.exit()

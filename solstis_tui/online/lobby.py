"""The lobby: who you are, the tables at the host, and keys to create, join or watch."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static

from .names import BadName, normalize_name

PROMPT = "Your name (or #code to come back as yourself), then Enter:"


class LobbyScreen(Screen):
    """Lists the host's tables. Enter joins (or watches a full table), c creates one."""

    BINDINGS = [
        Binding("c", "create", "Create table"),
        Binding("w", "watch", "Watch"),
        Binding("r", "refresh", "Refresh"),
        Binding("q", "quit_app", "Quit"),
    ]
    DEFAULT_CSS = """
    LobbyScreen { padding: 0 1; }
    #who { height: auto; margin-bottom: 1; }
    #tables { height: 1fr; }
    #row { height: auto; color: $text-muted; }
    #lobby-error { color: $error; height: auto; }
    """

    def __init__(self, name_known: bool) -> None:
        super().__init__()
        self.name_known = name_known
        self.rows: list[dict[str, Any]] = []
        self.me: tuple[str, str] | None = None
        self.message = ""
        self.ready = False
        """True once the widgets exist (``on_mount`` ran): until then host news is kept."""

    def compose(self) -> ComposeResult:
        # Names, table ids and the host's messages are shown as written, never as markup.
        yield Static("Connecting to the game host…", id="who", markup=False)
        yield Input(placeholder="name", id="name")
        yield DataTable(id="tables", cursor_type="row")
        yield Static("", id="row", markup=False)
        yield Static("", id="lobby-error", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("table", "variant", "status", "turn", "seat 1", "seat 2", "watchers")
        name = self.query_one("#name", Input)
        name.display = not self.name_known
        if not self.name_known:
            self.query_one("#who", Static).update(PROMPT)
            name.focus()
        # The host may have answered before this screen was mounted (``--code``/``--name``
        # sends hello at once): show what came.
        self.ready = True
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

    def welcome(self, name: str, code: str) -> None:
        self.me = (name, code)
        self._show_welcome()

    def _show_welcome(self) -> None:
        if self.me is None or not self.ready:
            return
        name, code = self.me
        self.query_one("#name", Input).display = False
        self.query_one("#who", Static).update(
            f"You are {name}. Your resume code is #{code}: type it instead of your name to "
            "get your seats back from anywhere.\nEnter joins the selected table (or watches "
            "a full one) · c creates a table · w watches · r refreshes · q quits")
        self.query_one(DataTable).focus()

    def show_tables(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows
        self._show_rows()
        self.say("" if rows else "No tables yet: press c to create one.")

    def _show_rows(self) -> None:
        if not self.ready:
            return
        table = self.query_one(DataTable)
        table.clear()
        for row in self.rows:
            seats = [self._seat_text(s) for s in row["seats"]]
            cells = [row["table"], row["variant"], row["status"], row["turn"], *seats,
                     row["watchers"]]
            table.add_row(*(Text(str(cell)) for cell in cells), key=str(row["table"]))
        self._show_row()

    def _show_row(self) -> None:
        """The selected table in one line, seats in full (the table may be cut at 80
        columns)."""
        row = self.selected()
        text = ""
        if row is not None:
            seats = " vs ".join(self._seat_text(s) for s in row["seats"])
            text = (f"{row['table']}: {seats} · {row['variant']} · {row['status']} · turn "
                    f"{row['turn']} · {row['watchers']} watching")
        self.query_one("#row", Static).update(text)

    def on_data_table_row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self._show_row()

    @staticmethod
    def _seat_text(seat: dict[str, Any]) -> str:
        if seat.get("bot"):
            return f"{seat['name']} (bot)"
        if not seat.get("name"):
            return "— open —"
        return seat["name"] + ("" if seat.get("connected") else " (away)")

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
    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.say("Type a name first.")
            return
        if text.startswith("#"):
            self.app.hello(code=text[1:])
            return
        try:
            name = normalize_name(text)
        except BadName as exc:
            self.say(f"That name cannot be used: {exc}.")
            return
        self.app.hello(name=name)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        row = self.selected()
        if row is None:
            return
        me = self.app.player_name
        mine = any(s.get("name") == me and not s.get("bot") for s in row["seats"])
        if row["status"] == "open" or mine:
            self.app.join(row["table"])
        else:
            self.app.watch(row["table"])

    def action_create(self) -> None:
        if self.query_one("#name", Input).has_focus:
            return
        from .create import CreateTableScreen

        self.app.push_screen(CreateTableScreen(), self._created)

    def _created(self, choice: dict[str, Any] | None) -> None:
        if choice:
            self.app.create(**choice)

    def action_watch(self) -> None:
        row = self.selected()
        if row is not None:
            self.app.watch(row["table"])

    def action_refresh(self) -> None:
        self.app.send({"type": "list"})

    def action_quit_app(self) -> None:
        if not self.query_one("#name", Input).has_focus:
            self.app.exit()

"""The lobby: who you are, the tables at the host, and keys to create, join or watch."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static

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
    #lobby-error { color: $error; height: auto; }
    """

    def __init__(self, name_known: bool) -> None:
        super().__init__()
        self.name_known = name_known
        self.rows: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        yield Static("Connecting to the game host…", id="who")
        yield Input(placeholder="name", id="name")
        yield DataTable(id="tables", cursor_type="row")
        yield Static("", id="lobby-error")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("table", "variant", "status", "turn", "seat 1", "seat 2", "watchers")
        name = self.query_one("#name", Input)
        name.display = not self.name_known
        if not self.name_known:
            self.query_one("#who", Static).update(PROMPT)
            name.focus()

    def welcome(self, name: str, code: str) -> None:
        self.query_one("#name", Input).display = False
        self.query_one("#who", Static).update(
            f"You are {name}. Your resume code is #{code}: type it instead of your name to "
            "get your seats back from anywhere.\nEnter joins the selected table (or watches "
            "a full one) · c creates a table · w watches · r refreshes · q quits")
        self.query_one(DataTable).focus()

    def show_tables(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows
        table = self.query_one(DataTable)
        table.clear()
        for row in rows:
            seats = [self._seat_text(s) for s in row["seats"]]
            table.add_row(row["table"], row["variant"], row["status"], str(row["turn"]),
                          *seats, str(row["watchers"]), key=row["table"])
        self.say("" if rows else "No tables yet: press c to create one.")

    @staticmethod
    def _seat_text(seat: dict[str, Any]) -> str:
        if seat.get("bot"):
            return f"{seat['name']} (bot)"
        if not seat.get("name"):
            return "— open —"
        return seat["name"] + ("" if seat.get("connected") else " (away)")

    def say(self, text: str) -> None:
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
        else:
            self.app.hello(name=text)

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

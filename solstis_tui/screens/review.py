"""Post-game review: step through a person's decisions beside the strongest bot's ranking.

The review replays the local game from its seed (``Session.replay``) to get, for each of a
person's decisions, the observation that person had then: the bot ranks from that
observation alone and the table shows only the moves, so nothing hidden is shown. Online
games have no review (their game lives at the host).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ..core import Move, Observation
from ..local.bot_process import BotFailed
from ..local.session import Session
from ..play.words import asked, asked_short, close_call, describe_move, short_move
from ..widgets.footer import Footer

#: The strongest bot's ranking of an observation's moves: (obs, seconds, cancel).
RankMoves = Callable[[Observation, float, threading.Event | None], list[tuple[Move, float]]]

#: Thinking time per decision in the review (seconds).
REVIEW_SECONDS = 0.4


class ReviewScreen(Screen[None]):
    """A table of your decisions; the bot's view fills in as it thinks (Esc: back)."""

    BINDINGS = [Binding("escape,q", "close", "Back")]
    DEFAULT_CSS = """
    ReviewScreen Static#head { height: 1; background: $primary; padding: 0 1;
        text-style: bold; }
    ReviewScreen DataTable { height: 1fr; }
    ReviewScreen Static#detail { height: 3; padding: 0 1; background: $boost; }
    """

    def __init__(self, session: Session, rank_moves: RankMoves,
                 seconds: float = REVIEW_SECONDS) -> None:
        super().__init__()
        self.session = session
        self.rank_moves = rank_moves
        self.seconds = seconds
        self.cancel = threading.Event()
        self.rows: list[dict[str, Any]] = []
        self.done = 0

    def compose(self) -> ComposeResult:
        # Names are people's text: every widget here shows text as written, never markup.
        yield Static(self.heading(), id="head", markup=False)
        yield DataTable(cursor_type="row", zebra_stripes=True, id="table")
        yield Static("", id="detail", markup=False)
        yield Footer()

    @property
    def reviewed(self) -> list[int]:
        """Whose decisions are listed: the people's; in a watched game, both bots'."""
        return self.session.humans or [0, 1]

    @property
    def several(self) -> bool:
        """Whether the decisions of two players are listed (hot-seat, watched games)."""
        return len(self.reviewed) > 1

    def heading(self) -> str:
        s = self.session
        names = [s.name(p) for p in self.reviewed]
        if names == ["You"]:
            return "Review: your decisions and the strongest bot's view"
        return f"Review: decisions of {' and '.join(names)}, and the strongest bot's view"

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        # Below 110 columns the text columns get fixed widths (cut with an ellipsis; the
        # line under the table says it all for the highlighted row), so that every
        # column, the cost too, is on screen at 80 columns.
        narrow = self.app.size.width < 110
        width = {"who": 9, "decision": 16, "chosen": 15,
                 "best": 15} if narrow else {}
        table.add_columns("#", "turn")
        if self.several:
            table.add_column("who", key="who", width=width.get("who"))
        table.add_column("decision", width=width.get("decision"))
        table.add_column("chosen" if self.several else "you chose", width=width.get("chosen"))
        table.add_column("bot prefers", key="best", width=width.get("best"))
        table.add_column("cost", key="cost")
        self.rows = self.decisions()
        for i, row in enumerate(self.rows):
            who = [self.session.name(row["player"])] if self.several else []
            cells = [str(i + 1), str(row["turn"]), *who, row["asked"], row["short"], "...", ""]
            table.add_row(*(Text(c, no_wrap=True, overflow="ellipsis") for c in cells),
                          key=str(i))
        if not self.rows:
            self.query_one("#detail", Static).update(
                "No decisions to review: every move of this game was forced.")
        table.focus()
        self.run_worker(partial(self._work, self.cancel), thread=True, exclusive=True,
                        group="review", exit_on_error=False, name="review")

    def decisions(self) -> list[dict[str, Any]]:
        """Every non-automatic decision made by a person, with the game just before it."""
        s = self.session
        out = []
        game = s.origin.copy()
        reviewed = self.reviewed
        for i, (player, mv) in enumerate(s.made_since_origin()):
            if player in reviewed:
                out.append({"player": player, "turn": game.turn,
                            "prompt": asked(game.decision),
                            "asked": asked_short(game.decision),
                            "yours": describe_move(mv), "short": short_move(mv),
                            "move": mv,
                            "obs": game.observation(player), "index": i})
            game.play(mv)
        return out

    def _work(self, cancel: threading.Event) -> None:
        for i, row in enumerate(self.rows):
            if cancel.is_set():
                return
            try:
                ranked = self.rank_moves(row["obs"], self.seconds, cancel)
            except BotFailed as exc:
                with contextlib.suppress(RuntimeError):  # the app may be closing
                    self.app.call_from_thread(self._failed, str(exc))
                return
            try:
                self.app.call_from_thread(self._fill, i, ranked)
            except RuntimeError:
                return

    def _failed(self, reason: str) -> None:
        self.notify(f"The review stopped: its bot failed ({reason}). The moves judged so far "
                    "stay.", severity="error", markup=False, timeout=15)

    def _fill(self, i: int, ranked: list[tuple[Move, float]]) -> None:
        row = self.rows[i]
        best, best_value = ranked[0]
        values = dict(ranked)
        mine = values.get(row["move"], best_value)
        cost = best_value - mine
        row["best"] = describe_move(best)
        row["cost"] = cost
        row["agree"] = best == row["move"] or cost <= 0
        row["close"] = not row["agree"] and close_call(cost)
        shown = "same" if row["agree"] else short_move(best)
        table = self.query_one(DataTable)
        table.update_cell(str(i), "best", Text(shown, no_wrap=True, overflow="ellipsis"))
        table.update_cell(str(i), "cost", Text(
            "" if row["agree"] else f"≈{cost:.1f}★" if row["close"] else f"{cost:.1f}★"))
        self.done += 1
        if i == table.cursor_row:
            self._show(i)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show(event.cursor_row)

    def _show(self, i: int) -> None:
        if not 0 <= i < len(self.rows):
            return
        row = self.rows[i]
        who = self.session.name(row["player"]) if self.several else "You"
        if "best" not in row:
            text = f"Turn {row['turn']}: {row['prompt']}. {who}: {row['yours']}. (bot thinking...)"
        elif row["agree"]:
            text = (f"Turn {row['turn']}: {row['prompt']}. {who}: {row['yours']}. "
                    "The bot agrees.")
        elif row["close"]:
            text = (f"Turn {row['turn']}: {row['prompt']}. {who}: {row['yours']}. The bot "
                    f"leaned to {row['best']}, by {row['cost']:.1f} stars: within what its "
                    "estimate can tell apart, so about as good.")
        else:
            text = (f"Turn {row['turn']}: {row['prompt']}. {who}: {row['yours']}. The bot "
                    f"preferred {row['best']}: about {row['cost']:.1f} stars better by its "
                    "estimate.")
        self.query_one("#detail", Static).update(text)

    def on_unmount(self) -> None:
        self.cancel.set()

    def action_close(self) -> None:
        self.cancel.set()
        self.dismiss(None)

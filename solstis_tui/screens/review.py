"""The analysis board: a finished game stepped through on the board, with the judge's view.

``ReviewScreen(record, seats, path=...)`` is the API every entry point uses (the end
dialog's ``r``, Ctrl+P "Review last game", ``solstis review``, and online records): a
finished game's ``GameRecord`` and the seats whose decisions are reviewed (default: the
people's; both seats for a game of bots). Each decision is drawn with the game screen's
own board widgets from what the deciding seat saw then (``play.review_board``), the move
played reversed and the judge's best underlined. The analysis (``analysis.analyse``) runs
in a thread worker whose judge works in processes, with its progress in the top bar; with
``path`` (the record's file) it is kept beside it and read back the next time, as
``solstis analyze`` keeps it. ``f`` posts ``PlayFromHere`` where the app offers it; ``s``
shows the game in sum once it is judged (on a wide screen it stands above the list too).
"""

from __future__ import annotations

import contextlib
import textwrap
import threading
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from ..coach import analysis, store
from ..core import Decision
from ..play.review_board import ReviewBoard
from ..play.review_graph import GraphCell
from ..records import GameRecord
from ..widgets.board_parts import board_parts
from ..widgets.display import DisplayPiles
from ..widgets.footer import Footer
from ..widgets.hand import HandBar
from ..widgets.panorama import LARGE, SMALL, PanoramaGrid
from ..widgets.pool import SpiritPool
from ..widgets.topbar import TopBar
from ..widgets.view import ASCII, UNICODE, Palette, asciify, palette_of
from .message import MessageScreen
from .play_from_here import PlayFromHere

SPIRIT_DECISIONS = frozenset({Decision.ENCOUNTER, Decision.KEEP, Decision.COVER})
JUDGE_NICE = 10
"""How much lower the judge's processes run than the screen: its keys come first."""
LARGE_WIDTH, LARGE_HEIGHT = 150, 36
"""From this size on, the panoramas are drawn with tiles twice as big."""
_NAME_WIDTH = 9


def legend(ascii_mode: bool, lucky: str) -> str:
    """What the board's review marks and the graph's characters mean (the luck marked
    being ``lucky``'s)."""
    g = ASCII if ascii_mode else UNICODE
    return (f"Reversed: the move played ({g.played * 2} a cell, <+> a square; tiles, "
            "spirits and the spirit pile alike). "
            f"Underlined: the judge's best ({g.target * 2} a cell, [+] a square). "
            "Beside the graph, the judge's top three, < the move played. "
            "Graph: each side's expected star margin; i, m, b: inaccuracy, mistake, "
            f"blunder (n and p go to them); + and -: the draw's big swings for {lucky}.")


class _Stopped(Exception):
    """The screen closed while the analysis ran."""


class ReviewScreen(Screen[None]):
    """The analysis board of ``record`` (see the module docstring). ``effort`` and
    ``workers`` size the judge (tests make it tiny, on one process)."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "Step", key_display="←/→"),
        Binding("left", "step(-1)", "Back", show=False),
        Binding("home", "home", "First", show=False),
        Binding("end", "end", "Last", show=False),
        Binding("n", "mistake(1)", "Mistakes", key_display="n/p"),
        Binding("p", "mistake(-1)", "Previous mistake", show=False),
        Binding("f", "play_from_here", "Play from here"),
        Binding("s", "summary", "Summary"),
        Binding("question_mark", "legend", "Marks", key_display="?"),
        Binding("enter", "whole_text", "All of the text", show=False),
        Binding("escape,q", "close", "Close"),
    ]
    DEFAULT_CSS = """
    ReviewScreen { layout: vertical; background: $background; }
    ReviewScreen #main { height: 1fr; }
    ReviewScreen #left { width: 1fr; }
    ReviewScreen #board { height: 13; }
    ReviewScreen #mine { background: $surface; }
    ReviewScreen #theirs { background: $panel; }
    ReviewScreen #display, ReviewScreen #hand, ReviewScreen #pool { background: $surface; }
    ReviewScreen #graph { height: 3; padding: 0 1; }
    ReviewScreen #info { height: 1fr; min-height: 0; padding: 0 1; background: $boost; }
    ReviewScreen #side { display: none; width: 1fr; border-left: tall $panel; }
    ReviewScreen #summary { height: auto; padding: 0 1 1 1; display: none; }
    ReviewScreen #summary.-shown { display: block; }
    ReviewScreen #list { height: 1fr; padding: 0 1; }
    ReviewScreen #legend { height: auto; padding: 1 1 0 1; color: $text-muted; }
    ReviewScreen.-narrow #pool { display: none; }
    ReviewScreen.-narrow.-spirits #pool { display: block; }
    ReviewScreen.-wide #left { width: 68; }
    ReviewScreen.-wide #side { display: block; }
    ReviewScreen.-large #left { width: 110; }
    ReviewScreen.-large #board { height: 19; }
    ReviewScreen.-large PanoramaGrid { width: 54; max-width: 54; height: 19; }
    ReviewScreen.-ascii #side { border-left: ascii $panel; }
    """

    def __init__(self, record: GameRecord, seats: Sequence[int] | None = None, *,
                 path: Path | None = None, effort: analysis.Effort | None = None,
                 workers: int | None = None) -> None:
        super().__init__()
        self.board = ReviewBoard(record, seats)
        self.path = path
        self.effort = effort or analysis.Effort()
        if workers is None:
            from solstis_tui.ai.expert import usable_cores

            # Two processes at least: a judge on this process would hold the screen's keys.
            workers = max(2, usable_cores())
        self.judges = workers
        """Processes the judge works on."""
        self.cancel = threading.Event()
        self.info_lines: list[str] = []
        """The lines under the board, whole (the screen may cut them: Enter shows all)."""

    @property
    def ascii_mode(self) -> bool:
        return bool(getattr(self.app, "ascii_mode", False))

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield TopBar(id="topbar")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield from board_parts()
                yield Static(id="graph", markup=False)
                yield Static(id="info", markup=False)
            with Vertical(id="side"):
                yield Static(id="summary", markup=False)
                yield Static(id="list", markup=False)
                yield Static(id="legend", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.set_class(self.ascii_mode, "-ascii")
        self.check_size()
        self.redraw()
        if self.board.steps:
            self.run_worker(partial(self._analyse, self.cancel), thread=True, exclusive=True,
                            group="review", exit_on_error=False, name="analysis")

    def on_resize(self) -> None:
        self.check_size()
        self.redraw()

    def check_size(self) -> None:
        width, height = self.app.size
        large = width >= LARGE_WIDTH and height >= LARGE_HEIGHT
        self.set_class(large, "-large")
        for grid in self.query(PanoramaGrid):
            grid.set_geometry(LARGE if large else SMALL)

    # ------------------------------------------------------------------ painting
    def text(self, line: str) -> str:
        return asciify(line) if self.ascii_mode else line

    def redraw(self) -> None:
        """Paint the board, the graph, the lines under them and the list from ``board``."""
        if not self.is_mounted:
            return
        b = self.board
        self.query_one(TopBar).say(self.text(b.heading()))
        step = b.current
        if step is not None:
            view = b.board(self.ascii_mode)
            for grid in self.query(PanoramaGrid):
                grid.show(view)
            self.query_one(DisplayPiles).show(view)
            self.query_one(HandBar).show(view)
            self.query_one(SpiritPool).show(view)
            # Narrow screens show the spirit line only where a spirit is chosen.
            self.set_class(view.obs.decision in SPIRIT_DECISIONS, "-spirits")
        graph, beside = self.graph_text()
        self.query_one("#graph", Static).update(graph)
        self.info_lines = [self.text(line) for line in b.info(top_beside=beside)]
        self.query_one("#info", Static).update(Text("\n".join(self.info_lines)))
        self.call_after_refresh(self.fit_info)  # once the layout gives the lines their room
        self.query_one("#list", Static).update(self.list_text())
        self.query_one("#legend", Static).update(Text(self.legend_text()))

    def fit_info(self) -> None:
        """Cut the lines under the board to the room they have (about four at 80×24),
        the last one ending with a pointer to Enter, which shows them whole."""
        info = self.query_one("#info", Static)
        width, height = info.content_region.width, info.content_region.height
        if width <= 0 or height <= 0:
            return  # not laid out yet
        lines = Text("\n".join(self.info_lines)).wrap(self.app.console, width)
        if len(lines) <= height:
            return
        more = self.text(" … Enter: all of it")
        kept = list(lines)[:height]
        kept[-1].truncate(max(0, width - len(more)))
        kept[-1].append(more)
        info.update(Text("\n").join(kept))

    def action_whole_text(self) -> None:
        """Enter: the lines under the board whole, where the screen cut them."""
        if self.info_lines:
            self.app.push_screen(MessageScreen(self.text(self.board.heading()),
                                               "\n\n".join(self.info_lines)))

    def legend_text(self) -> str:
        """What the marks and the graph mean, in this screen's characters."""
        return self.text(legend(self.ascii_mode, self.board.names[self.board.seats[0]]))

    def graph_text(self) -> tuple[Text, bool]:
        """The graph, and beside it the judge's top three where they fit (then True)."""
        b = self.board
        room = self.query_one("#graph").size.width - 2 - _NAME_WIDTH
        top = [self.text(line) for line in b.top_entries()]
        side = max((len(line) for line in top), default=0) + 2
        beside = bool(top) and room - side >= min(b.points, 30)
        width = max(10, room - side if beside else room)
        rows = b.graph(width, self.ascii_mode)
        pal = palette_of(self)
        if not rows:
            # The top bar counts the decisions judged; this line is drawn once.
            note = "The graph of each side's expected result comes once all is judged." \
                if b.steps else ""
            wrapped = textwrap.wrap(self.text(note), _NAME_WIDTH + width)[:3]
            lines = [Text(part, style=pal.dim, no_wrap=True, overflow="crop")
                     for part in wrapped + [""] * (3 - len(wrapped))]
        else:
            names = [*b.names, "marks"]
            lines = []
            for i, row in enumerate(rows):
                line = Text(no_wrap=True, overflow="crop")
                line.append(f"{names[i][:_NAME_WIDTH - 1]:<{_NAME_WIDTH}}",
                            style=pal.bold if i < 2 else pal.dim)
                for cell in row:
                    line.append(cell.text, style=self._cell_style(cell, i, pal))
                lines.append(line)
        if beside:
            left = max(line.cell_len for line in lines)
            for line, entry in zip(lines, top, strict=False):
                line.append(" " * (left - line.cell_len + 2))
                line.append(entry, style=pal.played if entry.endswith(" <") else None)
        return Text("\n", no_wrap=True, overflow="crop").join(lines), beside

    @staticmethod
    def _cell_style(cell: GraphCell, row: int, pal: Palette) -> Any:
        """Each seat's strip in a colour of its own, mistakes in the Evil Spirit's, luck
        in the rainbow's; the cursor's column reversed (seen without colour too)."""
        if cell.kind == "strip":
            style = pal.fire_lit if row == 0 else pal.blue_spirit
        else:
            style = {"label": pal.evil, "luck": pal.rainbow}.get(cell.kind, pal.dim)
        return style + pal.played if cell.cursor else style

    def list_text(self) -> Text:
        height = max(1, self.query_one("#list").size.height or 20)
        lines, at = self.board.decision_lines(height)
        pal = palette_of(self)
        out = Text(no_wrap=True, overflow="ellipsis")
        for i, line in enumerate(lines):
            out.append(self.text(line), style=pal.played if i == at else None)
            if i < len(lines) - 1:
                out.append("\n")
        return out

    # ------------------------------------------------------------------ the analysis
    def _analyse(self, cancel: threading.Event) -> None:
        b = self.board

        def progress(done: int, total: int) -> None:
            if cancel.is_set():
                raise _Stopped
            self._from_thread(self._progress, done, total)

        def judged(k: int, note: analysis.DecisionNote) -> None:
            self._from_thread(self._judged, k, note)

        try:  # a kept analysis at once; else judged here and kept beside the record
            found = store.analysed(self.path, game=(b.game, b.names), effort=self.effort,
                                   workers=self.judges, progress=progress, judged=judged,
                                   nice=JUDGE_NICE)
        except _Stopped:
            return
        except Exception as exc:  # the review stays, without the judge's view
            self._from_thread(self._failed, str(exc) or type(exc).__name__)
            return
        self._from_thread(self._analysed, found.analysis)

    def _from_thread(self, callback: Callable[..., None], *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the app may be closing
            self.app.call_from_thread(callback, *args)

    def _progress(self, done: int, total: int) -> None:
        self.board.set_progress(done, total)
        self.query_one(TopBar).say(self.text(self.board.heading()))

    def _judged(self, k: int, note: analysis.DecisionNote) -> None:
        """One decision judged: the board shows it if it is on screen (or listed)."""
        self.board.add_note(k, note)
        step = self.board.current
        if (step is not None and step.point == k) or self.has_class("-wide"):
            self.redraw()

    def _analysed(self, found: analysis.Analysis) -> None:
        try:
            self.board.set_analysis(found)
        except ValueError as exc:
            self._failed(str(exc))
            return
        self.redraw()
        # The sum changes only here: drawn once, not at every key.
        summed = self.query_one("#summary", Static)
        summed.update(Text("\n".join(self.text(line) for line in self.board.summary_lines())))
        summed.add_class("-shown")
        self.refresh_bindings()  # the summary's key is offered from now on

    def _failed(self, reason: str) -> None:
        self.board.analysis_failed(reason)
        self.redraw()

    # ------------------------------------------------------------------ keys
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``f`` only where the app can play from here (and there is a decision); ``s``
        once the game is judged."""
        if action == "summary":
            return self.board.analysis is not None
        if action == "play_from_here":
            return getattr(self.app, "play_from_here", None) is not None and \
                self.board.current is not None
        return True

    def action_step(self, delta: int) -> None:
        self.board.step(delta)
        self.redraw()

    def action_home(self) -> None:
        self.board.home()
        self.redraw()

    def action_end(self) -> None:
        self.board.end()
        self.redraw()

    def action_mistake(self, direction: int) -> None:
        if direction > 0:
            self.board.next_mistake()
        else:
            self.board.previous_mistake()
        self.redraw()

    def action_summary(self) -> None:
        """The game in sum: each seat's error rate, labels and luck, and who played and
        drew better."""
        lines = self.board.summary_lines()
        if lines:
            self.app.push_screen(MessageScreen(
                "The game in sum", "\n\n".join(self.text(line) for line in lines)))

    def action_legend(self) -> None:
        """?: what the board's marks and the graph's characters mean (beside the board
        from 120 columns; on a smaller screen, only here)."""
        self.app.push_screen(MessageScreen("Reading the board", self.legend_text()))

    def action_play_from_here(self) -> None:
        step = self.board.current
        if step is not None:
            self.post_message(PlayFromHere(self.board.record, step.point, step.seat))

    def on_unmount(self) -> None:
        self.cancel.set()

    def action_close(self) -> None:
        self.cancel.set()
        self.dismiss(None)

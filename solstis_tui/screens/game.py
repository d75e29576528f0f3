"""The game screen: the board, the prompt and the log, drawn from a ``PlayController``.

The screen binds keys and clicks to the controller's intents and paints what it returns
(``board``, ``prompt``). For the controller it runs what must not block the screen: a
bot's search in an exclusive thread worker (group ``bot``), a hint (group ``hint``), timers
and dialogs (it is the controller's ``ScreenPort``).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar, Protocol, cast

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Static

from solstis_tui.ai.base import Cancelled, Chooser, legal_choice

from ..core import Observation
from ..local.bot_process import BotFailed
from ..play.controller import PlayController
from ..play.pacing import Cancellable
from ..play.session_view import SessionView
from ..play.view import BoardView
from ..widgets.board_parts import board_parts
from ..widgets.clicks import BoardClick
from ..widgets.display import PILE_LETTERS, DisplayPiles
from ..widgets.footer import Footer
from ..widgets.gamelog import GameLog
from ..widgets.hand import HandBar
from ..widgets.panorama import LARGE, SMALL, PanoramaGrid
from ..widgets.pool import SpiritPool
from ..widgets.prompt import PromptLine
from ..widgets.scores import ScoreLine, ScoreSheet
from ..widgets.topbar import TopBar
from ..widgets.view import asciify
from .helpers import legend_lines, legend_text
from .services import AppServices

MIN_WIDTH, MIN_HEIGHT = 80, 24
LARGE_WIDTH, LARGE_HEIGHT = 150, 36
"""From this size on, the panoramas are drawn with tiles twice as big."""



class ShowsBoard(Protocol):
    """A widget that draws its part of the board from a ``BoardView``."""

    def show(self, view: BoardView) -> None: ...

class GameScreen(Screen[None]):
    """One game in progress (``session``), from the seat of the person playing it.

    Everything drawn comes from the controller (``play``), which reads only observations."""

    CSS_PATH = ["game.tcss"]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", "OK"),
        Binding("escape", "back", "Back"),
        Binding("question_mark", "help", "Help"),
        Binding("u", "undo", "Undo"),
        # Where undo can never act (hot-seat, watching, online) the footer leaves it out;
        # the key still says why (see ``check_action``).
        Binding("u", "undo_unavailable", "Undo", show=False),
        Binding("t", "hint", "Hint"),
        Binding("t", "hint_unavailable", "Hint", show=False),
        Binding("n", "new_game", "New"),
        Binding("v", "show_log", "Log"),
        Binding("e", "spirits", "Spirits"),
        Binding("g", "legend", "Legend", show=False),
        Binding("space", "skip", "Skip", show=False),
        Binding("p", "pause", "Pause", show=False),
        Binding("full_stop", "step", "Step", show=False),
        Binding("q", "quit_game", "Quit"),
        Binding("r", "review", "Review", show=False),
        Binding("left,h", "cursor(-1, 0)", "Left", show=False),
        Binding("right,l", "cursor(1, 0)", "Right", show=False),
        Binding("up,k", "cursor(0, 1)", "Up", show=False),
        Binding("down,j", "cursor(0, -1)", "Down", show=False),
        Binding("tab", "next_target(1)", "Next", show=False),
        Binding("shift+tab", "next_target(-1)", "Previous", show=False),
        Binding("d", "draw", "Draw", show=False),
        *[Binding(str(n), f"pick({n})", f"Pick {n}", show=False) for n in range(1, 10)],
        *[Binding(ch, f"pile({i})", f"Pile {ch}", show=False)
          for i, ch in enumerate(PILE_LETTERS)],
    ]

    def __init__(self, session: SessionView, pace: float = 0.5) -> None:
        super().__init__()
        self.play = self.make_controller(session, pace)
        self.spin = 0
        self.legend_page = -1
        """Which legend line `g` showed last (-1: none yet)."""
        self.too_small = False
        self.palette_was_on: bool | None = None
        self.over_drawn = False
        """The game was over when last drawn (the footer's keys follow it)."""

    def make_controller(self, session: SessionView, pace: float) -> PlayController:
        """The controller this screen shows (a tutorial or online screen has its own)."""
        return PlayController(session, self, pace)

    @property
    def session(self) -> SessionView:
        return self.play.session

    @property
    def sapp(self) -> AppServices:
        """The application's services (screens, saves, rankings) this screen may use."""
        return cast(AppServices, self.app)

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield TopBar(id="topbar")
        yield Static(id="too-small")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield from board_parts()
                yield ScoreLine(id="scoreline")
                yield Static(id="lastturn", markup=False)
                yield GameLog(id="log")
                yield Static(id="legend")
            with Vertical(id="side"):
                yield ScoreSheet(id="sheet")
                yield GameLog(id="biglog")
        yield PromptLine(id="prompt")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.set_class(self.sapp.ascii_mode, "-ascii")
        self.set_interval(0.1, self._tick)
        self.play.log.reset()
        self.check_size()
        self.call_after_refresh(self.play.advance)

    def on_resize(self) -> None:
        self.check_size()

    def check_size(self) -> None:
        width, height = self.app.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(small, "-too-small")
        if small != self.too_small:
            self.too_small = small
            self._block_palette(small)
            self.refresh_bindings()
        large = width >= LARGE_WIDTH and height >= LARGE_HEIGHT
        self.set_class(large, "-large")
        for grid in self.query(PanoramaGrid):
            grid.set_geometry(LARGE if large else SMALL)
        if small:
            cross = "x" if self.sapp.ascii_mode else "×"
            self.query_one("#too-small", Static).update(
                f"Make the window at least {MIN_WIDTH}{cross}{MIN_HEIGHT} to play Solstis.\n"
                f"It is {width}{cross}{height} now.\n\nq quits.")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Behind the "window too small" screen only quitting acts (and resizing). Undo and
        hints are in the footer only in a game where they can act (hints: until it is
        over; False also leaves a key out of it); watching bots, neither are Enter and
        Esc."""
        if self.too_small:
            return action == "quit_game"
        if action in ("undo", "undo_unavailable"):
            return self.play.undo_offered() == (action == "undo")
        if action in ("hint", "hint_unavailable"):
            return self.play.hint_now() == (action == "hint")
        # Watching bots nobody here decides: Enter and Esc have nothing to act on.
        return not (action in ("confirm", "back") and self.session.is_watch)

    def _block_palette(self, block: bool) -> None:
        """Turn the command palette off while the board is too small to be seen (and back
        on as it was when it is seen again, or when this screen is covered or closed)."""
        if block and self.palette_was_on is None:
            self.palette_was_on = self.app.use_command_palette
            self.app.use_command_palette = False
        elif not block and self.palette_was_on is not None:
            self.app.use_command_palette = self.palette_was_on
            self.palette_was_on = None
        with contextlib.suppress(NoMatches):
            self.query_one(Footer).show_command_palette = self.app.use_command_palette

    def on_screen_suspend(self) -> None:
        self._block_palette(False)

    def on_screen_resume(self) -> None:
        self._block_palette(self.too_small)

    def on_unmount(self) -> None:
        self._block_palette(False)
        self.play.turns.stop()

    # ------------------------------------------------------------------ painting
    @property
    def view(self) -> BoardView | None:
        return self.play.board()

    def redraw(self) -> None:
        if not self.is_mounted:
            return
        view = self.play.board(self.sapp.ascii_mode)
        parts: list[ShowsBoard] = [
            self.query_one("#mine", PanoramaGrid), self.query_one("#theirs", PanoramaGrid),
            self.query_one("#display", DisplayPiles), self.query_one("#pool", SpiritPool),
            self.query_one("#scoreline", ScoreLine), self.query_one("#sheet", ScoreSheet)]
        for part in parts:
            part.show(view)
        if view.obs.is_over != self.over_drawn:  # t leaves the footer at the end (and an
            self.over_drawn = view.obs.is_over  # undo of the last decision brings it back)
            self.refresh_bindings()
        hand = self.query_one("#hand", HandBar)
        if self.play.hands_hidden:
            hand.update("Hand hidden: pass the keyboard")
        else:
            hand.show(view)
        self.paint_top_bar()
        self.query_one("#legend", Static).update(
            legend_text(self.sapp.ascii_mode, view.obs.options.variant))
        last = self.play.log.last_turn()
        self.query_one("#lastturn", Static).update(
            asciify(last) if self.sapp.ascii_mode else last)
        self.query_one(SpiritPool).show_effects = self.has_class("-wide")
        self.redraw_prompt()

    def paint_top_bar(self) -> None:
        """The top bar (``PlayController.top_bar``)."""
        bar = self.play.top_bar()
        self.query_one(TopBar).say(asciify(bar) if self.sapp.ascii_mode else bar)

    def redraw_prompt(self) -> None:
        if not self.is_mounted:
            return
        p = self.play.prompt()
        self.query_one(PromptLine).say(p.headline, p.detail, p.error,
                                       self.spin if p.thinking else -1, self.sapp.ascii_mode,
                                       hint=p.hint)

    def _tick(self) -> None:
        # Under another screen (the log, the spirits' table, help) the spinner waits: each
        # turn of it would repaint this screen behind the one the player is reading.
        if self.play.turns.pacing.thinking_since is not None and self.app.screen is self:
            self.spin += 1
            self.redraw_prompt()

    def log_lines(self, lines: list[str], reset: bool) -> None:
        for log in self.query(GameLog):
            if reset:
                log.reset([])
            if lines:
                log.add(lines)

    def shown_log(self) -> list[str]:
        """The game log's lines as they stand."""
        return list(self.query_one("#log", GameLog).lines_text)

    # ------------------------------------------------------------------ the port
    def save(self) -> None:
        self.sapp.autosave(self.session)

    def game_over(self, obs: Observation) -> None:
        self.sapp.show_end(self.session, obs)

    def pass_keyboard(self, name: str) -> None:
        self.sapp.pass_keyboard(name, lambda _result: self.play.passed())

    def think(self, token: int, bot: Chooser, obs: Observation,
              cancel: threading.Event) -> None:
        self.run_worker(partial(self._think, token, bot, obs, cancel), thread=True,
                        exclusive=True, group="bot", exit_on_error=False, name="bot")

    def _think(self, token: int, bot: Chooser, obs: Observation,
               cancel: threading.Event) -> None:
        try:
            move = legal_choice(bot, obs, cancel)
        except Exception as exc:  # a bot's failure goes to the person, who chooses what next
            if not cancel.is_set():
                self._from_thread(self.play.turns.failed, token, exc)
            return
        if not cancel.is_set():
            self._from_thread(self.play.turns.done, token, move)

    def find_hint(self, token: int, obs: Observation, cancel: threading.Event) -> None:
        names = (self.session.name(0), self.session.name(1))
        self.run_worker(partial(self._hint, token, obs, names, cancel), thread=True,
                        exclusive=True, group="hint", exit_on_error=False, name="hint")

    def _hint(self, token: int, obs: Observation, names: tuple[str, str],
              cancel: threading.Event) -> None:
        try:
            found = self.sapp.judge_hint(obs, names, cancel=cancel)
        except Cancelled:  # the game moved on: nobody waits for this hint
            return
        except BotFailed as exc:
            self._from_thread(self.play.hint_failed, token, str(exc))
            return
        self._from_thread(self.play.hint_ready, token, obs, found)

    def _from_thread(self, callback: Callable[..., None], *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the app may be closing
            self.app.call_from_thread(callback, *args)

    def later(self, seconds: float, callback: Callable[[], None]) -> Cancellable:
        return self.set_timer(seconds, callback)

    def bot_error(self, message: str, fallback: str) -> None:
        self.sapp.bot_error(message, fallback, self.play.turns.after_error)

    # ------------------------------------------------------------------ keys and clicks
    def action_confirm(self) -> None:
        self.play.confirm()

    def action_back(self) -> None:
        self.play.back()

    def action_cursor(self, dx: int, dy: int) -> None:
        self.play.move_cursor(dx, dy)

    def action_next_target(self, step: int) -> None:
        self.play.next_target(step)

    def action_pick(self, n: int) -> None:
        self.play.pick(n)

    def action_pile(self, index: int) -> None:
        self.play.pile(index)

    def action_draw(self) -> None:
        self.play.draw()

    def action_undo(self) -> None:
        self.play.undo()

    def action_undo_unavailable(self) -> None:
        """``u`` where undo never acts: the prompt says why."""
        self.play.undo()

    def action_hint(self) -> None:
        self.play.hint()

    def action_hint_unavailable(self) -> None:
        """``t`` where hints are never given: the prompt says why."""
        self.play.hint()

    def action_skip(self) -> None:
        self.play.turns.skip()

    def action_pause(self) -> None:
        self.play.pause()

    def action_step(self) -> None:
        self.play.step()

    def on_key(self, event: events.Key) -> None:
        """A lowercase letter no key uses, while a pile is to be picked: say that piles
        take capitals (instead of nothing at all)."""
        ch = event.character or ""
        if len(ch) == 1 and "a" <= ch <= "z" and ch not in self.bound_letters() and \
                not self.too_small and self.play.lowercase(ch):
            event.stop()

    @classmethod
    def bound_letters(cls) -> frozenset[str]:
        """The single keys this screen (its own bindings and its bases') acts on."""
        keys: set[str] = set()
        for klass in cls.__mro__:
            for binding in vars(klass).get("BINDINGS", []):
                if isinstance(binding, Binding):
                    keys.update(k.strip() for k in binding.key.split(","))
        return frozenset(k for k in keys if len(k) == 1)

    def on_board_click(self, message: BoardClick) -> None:
        message.stop()
        self.play.click(*message.target)

    def action_legend(self) -> None:
        """The board's symbols on the prompt's second line, one line per press (the
        next other key brings the usual line back)."""
        lines = legend_lines(self.sapp.ascii_mode, self.session.variant)
        self.legend_page = (self.legend_page + 1) % len(lines)
        self.play.say_notice(lines[self.legend_page])

    def action_help(self) -> None:
        view = self.play.board()
        variant = self.session.variant
        if view is None or view.obs.is_over:
            self.sapp.show_help(variant=variant)
            return
        obs = view.obs
        deciding = "" if self.session.human_to_play else self.session.name(obs.to_play)
        self.sapp.show_help(obs.decision, self.play.zone_keys(), variant, deciding)

    def action_show_log(self) -> None:
        self.sapp.show_log(self.shown_log())

    def action_spirits(self) -> None:
        self.sapp.show_spirits(self.session.observation(self.play.viewer()))

    def action_review(self) -> None:
        if self.play.review():
            self.sapp.show_review(self.session)

    def action_new_game(self) -> None:
        self.sapp.open_new_game()

    def action_quit_game(self) -> None:
        self.play.turns.stop()
        self.app.exit()




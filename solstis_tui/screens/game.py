"""The game screen: the board, the prompt, the log, and the keys that play.

Persons answer the pending decision with keys (see ``choices``); bots think in an exclusive
thread worker (group ``bot``) on an ``Observation`` and can be cancelled at any time. Each
bot decision is shown one at a time, ``pace`` seconds apart (Space skips ahead).
"""

from __future__ import annotations

import contextlib
import threading
import time
from functools import partial
from typing import cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..core import Decision, IllegalMove, Move, Observation
from ..core.board import MATCH as _MATCH
from ..narrate import narrate
from ..session import Session
from ..session_view import SessionView, scores_of
from ..widgets.display import PILE_LETTERS, DisplayPiles
from ..widgets.gamelog import GameLog
from ..widgets.hand import HandBar
from ..widgets.panorama import LARGE, SMALL, PanoramaGrid
from ..widgets.pool import SpiritPool
from ..widgets.prompt import PromptLine
from ..widgets.scores import ScoreLine, ScoreSheet
from ..widgets.topbar import TopBar
from ..widgets.view import BoardView, asciify
from . import choices
from .game_keys import GameKeys
from .game_mouse import GameMouse
from .helpers import describe_move, legend_text, prompt_text
from .services import AppServices

MIN_WIDTH, MIN_HEIGHT = 80, 24
LARGE_WIDTH, LARGE_HEIGHT = 150, 36
"""From this size on, the panoramas are drawn with tiles twice as big."""
_MERGEABLE = ("play", "second", "spirits_drawn")


class GameScreen(GameKeys, GameMouse, Screen):
    """One game in progress (``session``), from the seat of the person playing it.

    Everything drawn comes from ``session.observation(seat)`` (``obs``): never the game."""

    CSS_PATH = "game.tcss"
    turn_in_prompt = True
    """The prompt names the turn (the tutorial leaves it to the top bar, to save a line)."""
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS = [
        Binding("enter", "confirm", "Confirm"),
        Binding("escape", "back", "Back"),
        Binding("question_mark", "help", "Help"),
        Binding("u", "undo", "Undo"),
        # Where undo can never act (hot-seat, watching, online, a rebuilt game) the footer
        # leaves it out; the key still says why (see ``check_action``).
        Binding("u", "undo_unavailable", "Undo", show=False),
        Binding("t", "hint", "Hint"),
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
        self.session = session
        self.pace = pace
        self.token = 0
        self.cancel = threading.Event()
        self.thinking_since: float | None = None
        self.spin = 0
        self.paused = False
        self.step_once = False
        self.skip_turn = False
        self.pending_timer = None
        self.pending_apply = None
        self.shown_player: int | None = None
        self.selected = -1
        self.cursor: int | None = None
        self.decision_key: tuple | None = None
        self.error = ""
        self.notice = ""
        self.legend_page = -1
        """Which legend line `g` showed last (-1: none yet)."""
        self.log_pos = 0
        self.view: BoardView | None = None
        self.hint_move: Move | None = None
        self.hint_text = ""
        self.hint_may_select = False
        """True from asking for a hint until the person picks something themselves."""
        self.too_small = False
        self.palette_was_on: bool | None = None
        self.last_click: tuple | None = None
        self.ended_shown = False

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
                with Horizontal(id="board"):
                    yield PanoramaGrid("mine", id="mine")
                    yield PanoramaGrid("theirs", id="theirs")
                yield DisplayPiles(id="display")
                yield HandBar(id="hand")
                yield SpiritPool(id="pool")
                yield ScoreLine(id="scoreline")
                yield GameLog(id="log")
                yield Static(id="legend")
            with Vertical(id="side"):
                yield ScoreSheet(id="sheet")
                yield GameLog(id="biglog")
        yield PromptLine(id="prompt")
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.sapp.ascii_mode, "-ascii")
        self.set_interval(0.1, self._tick)
        self.reset_log()
        self.check_size()
        self.call_after_refresh(self.advance)

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
        """Behind the "window too small" screen only quitting acts (and resizing). Undo is
        in the footer only in a game where it can act (False also leaves a key out of it)."""
        if self.too_small:
            return action == "quit_game"
        if action in ("undo", "undo_unavailable"):
            return self.undo_offered() == (action == "undo")
        return True

    def undo_offered(self) -> bool:
        """Undo can act in this game, now or later: a person against bots, in a game that
        replays from its seed (not hot-seat, watching, online or rebuilt from a snapshot)."""
        s = self.session
        return s.assists and s.replayable and bool(s.humans)

    def action_undo_unavailable(self) -> None:
        """``u`` where undo never acts: the prompt says why."""
        self.action_undo()

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
        self.stop_bot()

    # ------------------------------------------------------------------ the loop
    @property
    def obs(self) -> Observation:
        """What the seat this screen shows (``viewer``) sees now."""
        return self.session.observation(self.viewer())

    def viewer(self) -> int:
        """The seat whose view is drawn: the person's; in hot-seat the one shown (or, hands
        hidden, the one to play next); seat 0 when watching bots."""
        s = self.session
        if s.is_watch:
            return 0
        if s.is_hotseat:
            if self.shown_player is not None:
                return self.shown_player
            return s.observation(0).to_play  # public: whose turn it is
        return s.humans[0]

    def advance(self) -> None:
        """Decide what happens next: the end screen, a person's keys, or a bot's worker."""
        if not self.is_mounted:
            return
        obs = self.obs
        if obs.is_over:
            self.thinking_since = None
            self.refresh_board()
            if not self.ended_shown:
                self.ended_shown = True
                self.sapp.show_end(self.session, obs)
            return
        if self.session.human_to_play:
            self.skip_turn = False
            if self.session.is_hotseat and self.shown_player != obs.to_play:
                self.shown_player = None
                self.refresh_board()
                self.sapp.pass_keyboard(self.session.name(obs.to_play), self._passed)
                return
            self.refresh_board()
            return
        self.refresh_board()
        if self.paused and not self.step_once:
            return
        self.step_once = False
        self.start_bot()

    def _passed(self, _result: object = None) -> None:
        self.shown_player = self.obs.to_play
        self.reset_log()
        self.refresh_board()

    def after_move(self) -> None:
        """Everything that follows a decision: autosave, the log, the next step."""
        self.error = ""
        self.clear_hint()
        self.keep()
        self.update_log()
        self.advance()

    def keep(self) -> None:
        """Save the game as it stands (the autosave)."""
        self.sapp.autosave(self.session)

    # ------------------------------------------------------------------ bots
    def start_bot(self) -> None:
        player = self.obs.to_play
        self.stop_bot()
        self.token += 1
        token = self.token
        self.cancel = threading.Event()
        try:
            bot = self.session.bot(player)
        except Exception as exc:
            self.bot_failed(token, exc)
            return
        obs = self.session.observation(player)
        self.thinking_since = time.monotonic()
        self.run_worker(partial(self._bot_work, token, bot, obs, self.cancel), thread=True,
                        exclusive=True, group="bot", exit_on_error=False, name="bot")

    def _bot_work(self, token: int, bot, obs, cancel: threading.Event) -> None:
        try:
            move = Session.bot_choose(bot, obs, cancel)
        except Exception as exc:
            if not cancel.is_set():
                self._from_thread(self.bot_failed, token, exc)
            return
        if not cancel.is_set():
            self._from_thread(self.bot_done, token, move)

    def _from_thread(self, callback, *args) -> None:
        with contextlib.suppress(RuntimeError):  # the app may be closing
            self.app.call_from_thread(callback, *args)

    def stop_bot(self) -> None:
        """Cancel any search and any bot move waiting to be shown."""
        self.cancel.set()
        self.token += 1
        self.thinking_since = None
        if self.pending_timer is not None:
            self.pending_timer.stop()
            self.pending_timer = None
            self.pending_apply = None

    def bot_done(self, token: int, move: Move) -> None:
        if token != self.token:
            return
        elapsed = time.monotonic() - (self.thinking_since or time.monotonic())
        delay = 0.0 if self.skip_turn else max(0.0, self.pace - elapsed)
        apply = partial(self._apply_bot, token, move)
        if delay > 0:
            self.pending_apply = apply
            self.pending_timer = self.set_timer(delay, apply)
        else:
            apply()

    def _apply_bot(self, token: int, move: Move) -> None:
        self.pending_timer = self.pending_apply = None
        if token != self.token:
            return
        self.thinking_since = None
        try:
            self.session.apply(move)
        except IllegalMove as exc:
            self.bot_failed(token, exc)
            return
        self.after_move()

    def bot_failed(self, token: int, exc: Exception) -> None:
        if token != self.token:
            return
        self.thinking_since = None
        name = self.session.name(self.obs.to_play)
        fallback = self.session.fallback_move()
        message = f"{name} failed: {type(exc).__name__}: {exc}"
        self.sapp.bot_error(message, describe_move(fallback),
                            partial(self._after_bot_error, fallback))

    def _after_bot_error(self, fallback: Move, choice: str | None) -> None:
        if choice == "retry":
            self.session.forget_bot(self.obs.to_play)
            self.advance()
            return
        self.session.apply(fallback)
        self.after_move()

    def _tick(self) -> None:
        if self.thinking_since is not None:
            self.spin += 1
            self.update_prompt()

    # ------------------------------------------------------------------ board view
    def build_view(self) -> BoardView:
        s = self.session
        me = self.viewer()
        obs = s.observation(me)
        decider_human = s.human_to_play and (not s.is_hotseat or self.shown_player == obs.to_play)
        zone = choices.zone_of(obs.decision) if decider_human and obs.legal_moves else None
        if s.is_watch:  # bots on both seats: both hands are shown, by design
            their_hand: tuple[int, ...] | None = s.observation(1 - me).hand
        elif zone == "opp_hand":
            their_hand = tuple(mv.arg for mv in obs.legal_moves)
        else:
            their_hand = obs.opponent_known or None
        key = (len(obs.history), obs.decision, obs.to_play, me, zone)
        items = choices.items_for(obs, their_hand) if zone in (
            "hand", "display", "spirits", "opp_hand") else []
        targets = choices.cell_targets(obs) if zone in ("mine", "theirs", "display") else \
            frozenset()
        if key != self.decision_key:
            self.decision_key = key
            self.selected = next((i for i, it in enumerate(items) if it.legal), -1)
            self.cursor = min(targets) if zone in ("mine", "theirs") and targets else None
        capturable: frozenset[int] = frozenset()
        if zone == "hand" and obs.decision is Decision.PLAY and 0 <= self.selected < len(items):
            tile = items[self.selected].value
            capturable = frozenset(t for t, _ in obs.display if _MATCH[tile] >> t & 1)
        return BoardView(
            obs=obs, me=me, names=(s.name(0), s.name(1)),
            scores=scores_of(obs), my_hand=obs.hand,
            their_hand=their_hand, their_count=obs.opponent_hand_count, zone=zone,
            items=items, selected=self.selected, cursor=self.cursor, targets=targets,
            capturable=capturable, square_mode=obs.decision is Decision.SQUARE,
            ascii=self.sapp.ascii_mode, to_play=obs.to_play, deciding_is_human=decider_human,
        )

    def refresh_board(self) -> None:
        if not self.is_mounted:
            return
        view = self.view = self.build_view()
        hidden = self.session.is_hotseat and self.shown_player is None
        for widget_id in ("#mine", "#theirs", "#display", "#pool", "#scoreline", "#sheet"):
            self.query_one(widget_id).show(view)
        hand = self.query_one("#hand", HandBar)
        if hidden:
            hand.update("Hand hidden: pass the keyboard")
        else:
            hand.show(view)
        g = view.obs
        s = self.session
        seats = f"{s.name(0)} vs {s.name(1)}"
        mode = " · watching" if s.is_watch else " · hot-seat" if s.is_hotseat else ""
        paused = "PAUSED · " if self.paused else ""
        bar = (f"{paused}Solstis · {g.options.variant} · {self.game_label()} · turn {g.turn} · "
               f"{seats}{mode}")
        self.query_one(TopBar).say(asciify(bar) if self.sapp.ascii_mode else bar)
        self.query_one("#legend", Static).update(legend_text(self.sapp.ascii_mode))
        self.query_one(SpiritPool).show_effects = self.has_class("-wide")
        self.update_prompt()

    def game_label(self) -> str:
        """What names this game in the top bar: a chosen seed (which replays the same deal,
        so it is no secret); a secret seed is never shown (it gives the deal away)."""
        setup = self.session.setup
        return "secret deal" if setup.secret else f"seed {setup.seed} (chosen, not secret)"

    def update_prompt(self) -> None:
        if not self.is_mounted or self.view is None:
            return
        headline, detail, thinking = prompt_text(self)
        hint = self.hint_text if self.view.deciding_is_human and not self.obs.is_over else ""
        self.query_one(PromptLine).say(headline, detail, self.error,
                                       self.spin if thinking else -1, self.sapp.ascii_mode,
                                       hint=hint)

    # ------------------------------------------------------------------ the log
    def reset_log(self) -> None:
        self.log_pos = 0
        for log in self.query(GameLog):
            log.reset([])
        self.update_log()

    def update_log(self) -> None:
        s = self.session
        me = self.viewer()
        events = s.shown_log(me)
        end = len(events)
        if not self.obs.is_over and end > self.log_pos and events[end - 1][0] in _MERGEABLE:
            end -= 1
        if end <= self.log_pos:
            return
        reader = None if s.is_hotseat or s.is_watch else me  # a shared screen: nobody's
        lines = narrate(events[self.log_pos:end], s.name, viewer=reader)
        self.log_pos = end
        for log in self.query(GameLog):
            log.add(lines)

    def log_lines(self) -> list[str]:
        return list(self.query_one("#log", GameLog).lines_text)

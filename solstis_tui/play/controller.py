"""The play controller: everything a game screen knows besides drawing, with no Textual in it.

It holds what a person has half-chosen (the picked item, the cursor on a panorama), the
hint, the error and notice lines, whose turn is shown in hot-seat, and the bots' pacing,
and it takes the person's **intents** (``pick``, ``confirm``, ``back``, ``hint``, ``undo``,
``click``...). After each it tells the screen, through a ``ScreenPort``, what to draw and
what to run: a bot's search, a hint, a dialog. What to draw comes from ``board`` (a
``BoardView``) and ``prompt`` (a ``Prompt``). Tests drive it with a port that records.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from solstis_tui.ai.base import Chooser

from ..coach.hints import Answer
from ..core import Decision, IllegalMove, Move, Observation
from ..core.board import MATCH
from ..core.events import Event, Played, SecondChance, SpiritsDrawn
from ..core.explain import drawn_for_second_chance, why_illegal
from ..words.moves import describe_move
from ..words.narrate import narrate, possessive, turn_summary
from .clicks import Choice, click_choice
from .pacing import BotPacing, Cancellable
from .prompt import Prompt, deciding_lines, game_over_lines, waiting_lines, zone_keys
from .session_view import LocalBots, SessionView, scores_of
from .view import BoardView
from .zones import (
    CELL_ZONES,
    LIST_ZONES,
    Item,
    Zone,
    cell_move,
    cell_targets,
    items_for,
    step_cursor,
    zone_of,
)

#: Log events held back while more of the same turn may follow (narrated together).
_MERGEABLE = (Played, SecondChance, SpiritsDrawn)
PILE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Frame:
    """What follows from one observation for this screen: the zone of the pending decision
    (None when nobody here decides), its items and target cells, the other hand as shown,
    and whether a person at this screen decides."""

    me: int
    """The seat the frame is drawn for."""
    zone: Zone | None
    items: list[Item]
    targets: frozenset[int]
    their_hand: tuple[int, ...] | None
    deciding_is_human: bool


class ScreenPort(Protocol):
    """What the controller asks of the screen that shows it."""

    def redraw(self) -> None:
        """Draw the board and the prompt again (``board()``, ``prompt()``)."""

    def redraw_prompt(self) -> None:
        """Draw the prompt line again (``prompt()``)."""

    def log_lines(self, lines: list[str], reset: bool) -> None:
        """Add narrated lines to the game log (after clearing it, with ``reset``)."""

    def save(self) -> None:
        """Keep the game as it stands (the autosave)."""

    def game_over(self, obs: Observation) -> None:
        """Show the finished game (the score sheet and what next)."""

    def pass_keyboard(self, name: str) -> None:
        """Ask for the keyboard to go to ``name``; then call ``passed``."""

    def think(self, token: int, bot: Chooser, obs: Observation,
              cancel: threading.Event) -> None:
        """Run ``bot`` on ``obs`` away from the screen; then ``bot_done`` or ``bot_failed``
        with ``token`` (on the screen's thread)."""

    def find_hint(self, token: int, obs: Observation, cancel: threading.Event) -> None:
        """Find the hint for ``obs`` away from the screen (``hints.answer``, stopping once
        ``cancel`` is set); then ``hint_ready`` (or ``hint_failed``) with ``token``."""

    def later(self, seconds: float, callback: Callable[[], None]) -> Cancellable:
        """Call ``callback`` on the screen's thread after ``seconds``."""

    def bot_error(self, message: str, fallback: str) -> None:
        """Say a bot failed; then ``after_bot_error`` with the person's choice."""


class PlayController:
    """One game on one screen (``session``): the person's half-made choices, the bots'
    pacing, and what to draw. See the module docstring."""

    turn_in_prompt = True
    """The prompt names the turn (the tutorial leaves it to its panel)."""

    def __init__(self, session: SessionView, port: ScreenPort, pace: float = 0.5,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.port = port
        self.clock = clock
        self.pacing = BotPacing(pace)
        self.ascii_mode = False
        """The screen draws in ASCII (the board view says so to its widgets)."""
        self._frame: tuple[tuple[int, int, int | None], Observation, Frame] | None = None
        """The observation drawn from, and what follows from it (see ``frame``), made once
        for each state of the game (``SessionView.version``) and seat shown."""
        self._log: tuple[tuple[int, int], tuple[Event, ...]] | None = None
        self.shown_player: int | None = None
        """Hot-seat: whose view is shown (None while the keyboard passes)."""
        self.selected = -1
        self.cursor: int | None = None
        self.decision_key: tuple[object, ...] | None = None
        self.error = ""
        self.wait_refused = False
        """The error says to wait for someone else's decision (gone once it is ours)."""
        self.notice = ""
        self.hint_move: Move | None = None
        self.hint_text = ""
        self.hint_may_select = False
        """True from asking for a hint until the person picks something themselves."""
        self.last_click: tuple[object, ...] | None = None
        self.ended_shown = False
        self.log_pos = 0
        session.on_change = self._session_changed  # the session says when it changes
        self.sync()

    # ------------------------------------------------------------------ reading
    @property
    def obs(self) -> Observation:
        """What the seat this screen shows (``viewer``) sees now (built once for each state
        of the game: see ``frame``)."""
        return self.frame()[0]

    def frame(self) -> tuple[Observation, Frame]:
        """The observation this screen draws from and what follows from it: the zone of
        the pending decision, its items and targets. It is made afresh only when the game
        or the seat shown (or, in hot-seat, whether a hand is shown) has changed
        (``SessionView.version``). Drawing reads it and changes nothing: the choice is
        reset when the session says it changed (``sync``)."""
        key = (self.session.version, self.viewer(), self.shown_player)
        if self._frame is None or self._frame[0] != key:
            obs = self.session.observation(key[1])
            self._frame = (key, obs, self._make_frame(obs, key[1]))  # a cache, not state
        return self._frame[1], self._frame[2]

    def sync(self) -> None:
        """The session or the seat shown changed: a new decision picks its first legal
        choice (the cursor its first target); the same decision keeps the person's."""
        obs, made = self.frame()
        decision_key = (len(obs.history), obs.decision, obs.to_play, made.me, made.zone)
        if decision_key != self.decision_key:
            self.decision_key = decision_key
            self.selected = next((i for i, it in enumerate(made.items) if it.legal), -1)
            self.cursor = min(made.targets) if made.zone in CELL_ZONES and made.targets \
                else None

    def _session_changed(self, _session: object) -> None:
        self.sync()

    def _make_frame(self, obs: Observation, me: int) -> Frame:
        s = self.session
        decider_human = s.human_to_play and (not s.is_hotseat or self.shown_player == obs.to_play)
        zone = zone_of(obs.decision) if decider_human and obs.legal_moves else None
        if s.is_watch:  # bots on both seats: both hands are shown, by design
            their_hand: tuple[int, ...] | None = s.observation(1 - me).hand
        elif zone is Zone.OPP_HAND:
            their_hand = tuple(mv.arg for mv in obs.legal_moves)
        else:
            their_hand = obs.opponent_known or None
        items = items_for(obs) if zone in LIST_ZONES else []
        targets = cell_targets(obs) if zone in (Zone.MINE, Zone.THEIRS, Zone.DISPLAY) else \
            frozenset()
        return Frame(me, zone, items, targets, their_hand, decider_human)

    def shown_log(self) -> tuple[Event, ...]:
        """The log this screen narrates (``SessionView.shown_log``), once for each state."""
        key = (self.session.version, self.viewer())
        if self._log is None or self._log[0] != key:
            self._log = (key, self.session.shown_log(key[1]))
        return self._log[1]

    def forget_frame(self) -> None:
        """Make the frame afresh, and pick the first legal choice."""
        self._frame = None
        self.decision_key = None
        self.sync()

    @property
    def view(self) -> BoardView:
        """What the board widgets draw now (``board``)."""
        return self.board()

    # pacing, as the screens and tests read it
    @property
    def thinking_since(self) -> float | None:
        return self.pacing.thinking_since

    @property
    def paused(self) -> bool:
        return self.pacing.paused

    @property
    def token(self) -> int:
        return self.pacing.token

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

    @property
    def zone(self) -> Zone | None:
        return self.frame()[1].zone

    @property
    def hands_hidden(self) -> bool:
        """Hot-seat between two people's turns: no hand is shown."""
        return self.session.is_hotseat and self.shown_player is None

    def undo_offered(self) -> bool:
        """Undo can act in this game, now or later: a person against bots."""
        s = self.session
        return s.assists and bool(s.humans)

    def hint_offered(self) -> bool:
        """Hints can be asked for in this game: a person against bots (as undo)."""
        return self.undo_offered()

    def hint_now(self) -> bool:
        """A hint can be asked for now: a game with hints, not over yet."""
        return self.hint_offered() and not self.obs.is_over

    def game_label(self) -> str:
        """What names this game in the top bar: a chosen seed (which replays the same deal,
        so it is no secret); a secret seed is never shown (it gives the deal away)."""
        return self.session.deal_label()

    def top_bar(self) -> str:
        g, s = self.obs, self.session
        me = self.viewer()  # in the panoramas' order: the left one is the viewer's
        seats = f"{s.name(me)} vs {s.name(1 - me)}"
        mode = " · watching" if s.is_watch else " · hot-seat" if s.is_hotseat else ""
        paused = "PAUSED · " if self.pacing.paused else ""
        return (f"{paused}Solstis · {g.options.variant} · {self.game_label()} · turn "
                f"{g.turn} · {seats}{mode}")

    # ------------------------------------------------------------------ the board
    def board(self, ascii_mode: bool | None = None) -> BoardView:
        """What the board widgets draw now, from the frame and the half-made choice."""
        obs, made = self.frame()
        capturable: frozenset[int] = frozenset()
        if made.zone is Zone.HAND and obs.decision is Decision.PLAY and \
                0 <= self.selected < len(made.items):
            tile = made.items[self.selected].value
            capturable = frozenset(t for t, _ in obs.display if MATCH[tile] >> t & 1)
        s, me = self.session, made.me
        return BoardView(
            obs=obs, me=me, names=(s.name(0), s.name(1)),
            scores=scores_of(obs), my_hand=obs.hand,
            their_hand=made.their_hand, their_count=obs.opponent_hand_count, zone=made.zone,
            items=made.items, selected=self.selected, cursor=self.cursor,
            targets=made.targets, capturable=capturable,
            square_mode=obs.decision is Decision.SQUARE,
            ascii=self.ascii_mode if ascii_mode is None else ascii_mode,
            to_play=obs.to_play, deciding_is_human=made.deciding_is_human,
        )

    # ------------------------------------------------------------------ the prompt
    def zone_keys(self, view: BoardView | None = None) -> str:
        """The keys that answer the pending decision ('' when none is asked)."""
        return zone_keys(view or self.board(), self.esc_takes_back())

    def esc_takes_back(self) -> bool:
        """Esc would put the tile just played back in the hand (only a local game can)."""
        takeback = self.session.takeback
        return takeback is not None and takeback.can_take_back_play()

    def prompt(self) -> Prompt:
        """The prompt line now (a notice is shown in place of the keys: once while a person
        decides, until the decision while a bot does)."""
        s, game = self.session, self.obs
        view = self.board()
        if game.is_over:
            return Prompt(*game_over_lines(s, game), error=self.error)
        if s.is_hotseat and self.shown_player is None:
            return Prompt(f"Pass the keyboard to {s.name(game.to_play)}.", error=self.error)
        if not view.deciding_is_human:
            headline, detail = waiting_lines(s, game, self.paused)
            # The prompt is drawn again at each turn of the spinner: a notice (the legend)
            # stays until the next decision is made instead of going at the first one.
            detail = self.notice or detail
            thinking = not self.pacing.paused and self.pacing.thinking_since is not None
            return Prompt(headline, detail, self.error, thinking=thinking)
        headline, detail = deciding_lines(s, game, view, self.zone_keys(view),
                                          self.turn_in_prompt)
        return Prompt(headline, self.notice or detail, self.error, self.hint_text)

    def not_now(self) -> None:
        """A key that answers nothing at this moment: say why."""
        if self.obs.is_over:
            self.error = "the game is over: that key does nothing now"
        elif self.session.human_to_play:
            self.error = "that key does nothing for this decision"
        else:
            self.error = f"wait: it is {possessive(self.session.name(self.obs.to_play))} decision"
            self.wait_refused = True
        self.port.redraw_prompt()

    def say_error(self, text: str) -> None:
        self.error = text
        self.port.redraw_prompt()

    def say_notice(self, text: str) -> None:
        """Show ``text`` on the prompt's second line until the person's next pick or move
        (while a bot decides: until the next decision)."""
        self.notice = text
        self.port.redraw_prompt()

    def last_turn(self) -> str:
        """The other player's latest turn in one line (in watch mode, the latest turn of
        either): it stays in sight however far the log has scrolled."""
        s = self.session
        me = self.viewer()
        other = None if s.is_watch else 1 - me
        return turn_summary(self.shown_log(), s.name, other, viewer=me)

    # ------------------------------------------------------------------ the log
    def reset_log(self) -> None:
        self.log_pos = 0
        self.port.log_lines([], reset=True)
        self.update_log()

    def update_log(self) -> None:
        """Narrate what happened since the log was last brought up to date."""
        s = self.session
        me = self.viewer()
        events = self.shown_log()
        end = len(events)
        if not self.obs.is_over and end > self.log_pos and isinstance(events[end - 1], _MERGEABLE):
            end -= 1
        if end <= self.log_pos:
            return
        reader = None if s.is_hotseat or s.is_watch else me  # a shared screen: nobody's
        lines = narrate(events[self.log_pos:end], s.name, viewer=reader)
        self.log_pos = end
        self.port.log_lines(lines, reset=False)

    # ------------------------------------------------------------------ the loop
    def advance(self) -> None:
        """Decide what happens next: the end, a person's keys, or a bot's search."""
        obs = self.obs
        pacing = self.pacing
        if obs.is_over:
            pacing.thinking_since = None
            self.port.redraw()
            if not self.ended_shown:
                self.ended_shown = True
                self.port.game_over(obs)
            return
        if self.session.human_to_play:
            pacing.skip_turn = False
            if self.wait_refused:  # "wait: it is X's decision" is no longer true
                self.error, self.wait_refused = "", False
            if self.session.is_hotseat and self.shown_player != obs.to_play:
                self.shown_player = None
                self.sync()
                self.port.redraw()
                self.port.pass_keyboard(self.session.name(obs.to_play))
                return
            self.port.redraw()
            return
        self.port.redraw()
        if pacing.paused and not pacing.step_once:
            return
        pacing.stepping, pacing.step_once = pacing.step_once, False
        self.start_bot()

    def passed(self) -> None:
        """The keyboard went to the next person (hot-seat)."""
        self.shown_player = self.obs.to_play
        self.sync()
        self.reset_log()
        self.port.redraw()

    def after_move(self) -> None:
        """Everything that follows a decision: autosave, the log, the next step."""
        self.error = ""
        self.notice = ""
        self.clear_hint()
        self.port.save()
        self.update_log()
        self.advance()

    def start_bot(self) -> None:
        player = self.obs.to_play
        token = self.pacing.begin(self.clock())
        bots = self.session.local_bots
        if bots is None:
            return  # they decide elsewhere (a host): its next state says what they did
        try:
            bot = bots.bot(player)
        except Exception as exc:  # a bot that cannot even be made: the dialog says why
            self.bot_failed(token, exc)
            return
        self.port.think(token, bot, self.session.observation(player), self.pacing.cancel)

    def _bots(self) -> LocalBots:
        """The session's own bots (a bot failed here, so it has them)."""
        bots = self.session.local_bots
        if bots is None:
            raise LookupError("the bots of this game decide elsewhere")
        return bots

    def stop_bot(self) -> None:
        """Cancel any search and any bot move waiting to be shown."""
        self.pacing.stop()

    def bot_done(self, token: int, move: Move) -> None:
        """A bot answered: show its move after the rest of the pace (Space skips)."""
        if token != self.pacing.token:
            return
        delay = self.pacing.delay(self.clock())

        def apply() -> None:
            self.apply_bot(token, move)

        if delay > 0:
            self.pacing.pending = (self.port.later(delay, apply), apply)
        else:
            apply()

    def apply_bot(self, token: int, move: Move) -> None:
        pacing = self.pacing
        pacing.pending = None
        if token != pacing.token:
            return
        pacing.thinking_since = None
        if pacing.should_hold():  # held until resumed (or a step)
            pacing.held_move = (token, move)
            self.port.redraw()
            return
        pacing.stepping = False
        try:
            self.session.apply(move)
        except IllegalMove as exc:
            self.bot_failed(token, exc)
            return
        self.after_move()

    def bot_failed(self, token: int, exc: Exception) -> None:
        if token != self.pacing.token:
            return
        self.pacing.thinking_since = None
        name = self.session.name(self.obs.to_play)
        fallback = self._bots().fallback_move()
        self.port.bot_error(f"{name} failed: {type(exc).__name__}: {exc}",
                            describe_move(fallback))

    def after_bot_error(self, choice: str | None) -> None:
        """The person's answer to a failed bot: retry it, or go on with the fallback move."""
        if choice == "retry":
            self._bots().forget_bot(self.obs.to_play)
            self.advance()
            return
        self.session.apply(self._bots().fallback_move())
        self.after_move()

    # ------------------------------------------------------------------ intents
    def move_cursor(self, dx: int, dy: int) -> None:
        zone, view = self.zone, self.view
        if zone in LIST_ZONES and view is not None and view.items:
            step = dx or -dy
            self.selected = (self.selected + step) % len(view.items)
        elif zone in CELL_ZONES:
            self.cursor = step_cursor(self.cursor, dx, dy, view.square_mode if view else False)
        else:
            return
        self.error, self.notice, self.hint_may_select = "", "", False
        self.port.redraw()

    def next_target(self, step: int) -> None:
        zone, view = self.zone, self.view
        if view is None or zone is None:
            return
        if zone in CELL_ZONES:
            ordered = sorted(view.targets)
            if not ordered:
                return
            if self.cursor in ordered:
                i = (ordered.index(self.cursor) + step) % len(ordered)
            else:
                i = 0 if step > 0 else len(ordered) - 1
            self.cursor = ordered[i]
        elif view.items:
            n = len(view.items)
            for k in range(1, n + 1):
                i = (self.selected + step * k) % n
                if view.items[i].legal:
                    self.selected = i
                    break
        self.error, self.notice, self.hint_may_select = "", "", False
        self.port.redraw()

    def pick(self, n: int) -> None:
        """Digit ``n`` (from 1): the n-th item of a list zone."""
        zone, view = self.zone, self.view
        if zone not in LIST_ZONES or view is None:
            self.not_now()
            return
        if n > len(view.items):
            self.error = f"there is no choice {n} here"
        else:
            self.selected, self.error, self.notice = n - 1, "", ""
            self.hint_may_select = False
        self.port.redraw()

    def pile(self, index: int) -> None:
        """Letter A, B, ...: a display pile."""
        zone, view = self.zone, self.view
        if zone is not Zone.DISPLAY or view is None:
            self.say_error("piles are picked only to capture or for the Beetle")
            return
        if index >= len(view.items):
            self.error = f"there is no pile {PILE_LETTERS[index]}"
        elif not view.items[index].legal and view.items[index].move is not None:
            why = why_illegal(view.obs, view.items[index].move)
            self.error = f"pile {PILE_LETTERS[index]}: {why}"
        else:
            self.selected, self.error, self.notice = index, "", ""
            self.hint_may_select = False
        self.port.redraw()

    def lowercase(self, letter: str) -> bool:
        """A lowercase letter no key uses: while a pile is to be picked, say that piles
        take capitals (True if it was said)."""
        if self.zone is not Zone.DISPLAY:
            return False
        self.say_error(f"piles are picked with capital letters: Shift+{letter} for pile "
                       f"{letter.upper()}")
        return True

    def draw(self) -> None:
        if self.obs.decision is not Decision.ENCOUNTER or self.zone is None:
            self.not_now()
            return
        self.try_move(Move.parse("draw"))

    def confirm(self) -> None:
        """Enter: play the half-made choice (on a finished game: the score sheet)."""
        obs = self.obs
        if obs.is_over:
            self.port.game_over(obs)
            return
        zone, view = self.zone, self.view
        if view is None or zone is None:
            self.not_now()
            return
        if zone in CELL_ZONES:
            if self.cursor is None or view.obs.decision is None:
                return
            self.try_move(cell_move(view.obs.decision, self.cursor))
        elif 0 <= self.selected < len(view.items):
            move = view.items[self.selected].move
            if move is not None:
                self.try_move(move)

    def try_move(self, move: Move) -> None:
        try:
            self.session.apply(move)
        except IllegalMove as exc:
            self.say_error(str(exc))
            return
        self.after_move()

    def back(self) -> None:
        """Esc: drop an error or a hint, or take back a tile played to capture."""
        if self.error:
            self.error = ""
        elif self.hint_text:
            self.clear_hint()
        elif (takeback := self.session.takeback) is not None and takeback.take_back_play():
            self.notice = "the tile is back in your hand"
            self.reset_log()
        elif self.session.human_to_play and drawn_for_second_chance(self.obs):
            self.error = "no going back: the tile drawn for the second chance is face up"
        self.forget_frame()
        self.port.redraw()

    def undo(self) -> None:
        """u: back to before the person's last decision (against bots)."""
        takeback = self.session.takeback
        if takeback is None or not takeback.can_undo():
            if self.session.is_hotseat:
                self.say_error("undo is for games against bots")
            else:
                self.say_error("there is no decision of yours to take back")
            return
        self.stop_bot()
        self.clear_hint()
        self.error = ""
        takeback.undo()
        self.ended_shown = False
        self.port.save()
        self.notice = "took back your last decision"
        self.reset_log()
        self.forget_frame()
        self.advance()

    def hint(self) -> None:
        """t: the judge's best move and why, found away from the screen."""
        if not self.hint_offered():
            self.say_error("hints are for a person playing against bots")
            return
        if self.obs.is_over:
            self.say_error("the game is over: r reviews every decision with the judge")
            return
        if self.zone is None:
            self.not_now()
            return
        self.hint_move = None
        self.hint_text = "Hint: thinking…"
        self.hint_may_select = True
        self.error = ""
        self.port.redraw_prompt()
        self.port.find_hint(self.pacing.token, self.session.observation(self.obs.to_play),
                            self.pacing.cancel)

    def hint_ready(self, token: int, obs: Observation, found: Answer) -> None:
        """The judge answered: say the hint and select its move."""
        if token != self.pacing.token or obs.history != self.obs.history or not found.judged:
            return
        move = found.judged[0][0]
        self.hint_move = move
        self.hint_text = found.text
        view = self.view
        if view is not None and self.hint_may_select:  # never over the person's own pick
            for i, item in enumerate(view.items):
                if item.move == move:
                    self.selected = i
            if move.arg in view.targets and view.zone in CELL_ZONES:
                self.cursor = move.arg
        self.port.redraw()

    def hint_failed(self, token: int, reason: str) -> None:
        """The hint's bot failed: say so (the game goes on; the person may ask again)."""
        if token != self.pacing.token:
            return
        self.clear_hint()
        self.say_error(f"no hint: the hint bot failed ({reason})")

    def clear_hint(self) -> None:
        """Forget the hint (the person decided, undid or dismissed it with Esc)."""
        self.hint_move = None
        self.hint_text = ""
        self.hint_may_select = False

    def skip(self) -> None:
        """Space: show a bot's move without waiting out the pace."""
        pacing = self.pacing
        pacing.skip_turn = True
        if pacing.pending is not None:
            timer, apply = pacing.pending
            timer.stop()
            apply()

    def pause(self) -> None:
        """p: hold the bots (a move found while paused waits), or go on."""
        pacing = self.pacing
        pacing.paused = not pacing.paused
        self.error = ""
        if pacing.paused:
            self.port.redraw()
        elif pacing.held_move is not None:
            self.show_held()
        elif pacing.busy:
            self.port.redraw()  # the search (or the pace) goes on; its move lands then
        else:
            self.advance()

    def show_held(self) -> None:
        held = self.pacing.take_held()
        if held is not None:
            self.apply_bot(*held)

    def step(self) -> None:
        """.: one bot decision while paused."""
        pacing = self.pacing
        if not pacing.paused or self.session.human_to_play:
            return
        self.error = ""
        if pacing.held_move is not None:
            self.show_held()
        elif pacing.busy:
            pacing.stepping = True  # the search under way is the step
        else:
            pacing.step_once = True
            self.advance()

    def review_offered(self) -> bool:
        """The finished game can be reviewed (not a tutorial's)."""
        return True

    def review(self) -> bool:
        """r: True if the review may open (the game is over); else say why."""
        if not self.obs.is_over:
            self.say_error("the review opens when the game is over")
            return False
        return True

    # ------------------------------------------------------------------ the mouse
    def click(self, kind: str, where: str, value: int) -> None:
        """A click on something pickable (``widgets.clicks.Target``): it picks what the
        keys could pick; a second click on the same thing confirms it."""
        view = self.view
        if view is None or view.zone is None:
            self.not_now()
            return
        choice = click_choice(view, kind, where, value)
        if isinstance(choice, str):
            self.say_error(choice)
        elif choice is not None:
            self.click_pick(choice)

    def click_pick(self, what: Choice) -> None:
        """Pick ``what``; confirm it if the previous click picked it and it is still picked."""
        key = (self.decision_key, what)
        if self.last_click == key and self.picked() == what:
            self.last_click = None
            self.confirm()
            return
        kind, value = what
        if kind == "item":
            self.selected = value
        else:
            self.cursor = value
        self.last_click = key
        self.error, self.notice, self.hint_may_select = "", "", False
        self.port.redraw()

    def picked(self) -> Choice | None:
        if self.zone in CELL_ZONES:
            return ("cell", self.cursor) if self.cursor is not None else None
        return ("item", self.selected)


__all__ = ["Item", "PlayController", "Prompt", "ScreenPort", "Zone"]

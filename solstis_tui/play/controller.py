"""The play controller: everything a game screen knows besides drawing, with no Textual in it.

It takes the person's **intents** (``pick``, ``confirm``, ``back``, ``hint``, ``undo``,
``click``...) and, after each, tells the screen through a ``ScreenPort`` what to draw and
what to run: a bot's search, a hint, a dialog. What to draw comes from ``board`` (a
``BoardView``) and ``prompt`` (a ``Prompt``). Tests drive it with a port that records.

It owns its parts and conducts them: the half-made choice (``Selection``, a value
replaced at each pick), the observation and frame drawn once per state (``FrameCache``,
``board_view``), the bots' turns and pacing (``BotTurns``) and the log's narration
(``GameLog``). It holds the prompt's error and notice, the hint, whose turn is shown in
hot-seat, and whether the end was shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..coach.hints import Answer
from ..core import Decision, IllegalMove, Move, Observation
from ..core.events import Event
from ..core.explain import drawn_for_second_chance
from ..words.narrate import possessive
from .bot_turns import BotTurns
from .clicks import Choice, click_choice
from .frame import Frame, FrameCache, board_view
from .game_log import GameLog
from .prompt import Prompt, deciding_lines, game_over_lines, waiting_lines, zone_keys
from .screen_port import ScreenPort
from .selection import Selection
from .session_view import SessionView
from .view import BoardView
from .zones import LIST_ZONES, Item, Zone


class PlayController:
    """One game on one screen (``session``): the person's half-made choices, the bots'
    pacing, and what to draw. See the module docstring."""

    turn_in_prompt = True
    """The prompt names the turn (the tutorial leaves it to its panel)."""

    def __init__(self, session: SessionView, port: ScreenPort, pace: float = 0.5,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.port = port
        self.turns = BotTurns(session, port, pace, clock, lambda: self.obs.to_play,
                              self.after_move, self.advance)
        self.pacing = self.turns.pacing
        self.ascii_mode = False
        """The screen draws in ASCII (the board view says so to its widgets)."""
        self.frames = FrameCache(session)
        self.game_log = GameLog(session, port)
        self.shown_player: int | None = None
        """Hot-seat: whose view is shown (None while the keyboard passes)."""
        self.choice = Selection()
        self.error = ""
        self.wait_refused = False
        """The error says to wait for someone else's decision (gone once it is ours)."""
        self.notice = ""
        self.hint_move: Move | None = None
        self.hint_text = ""
        self.ended_shown = False
        session.on_change = lambda _session: self.sync()  # the session says when it changes
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
        return self.frames.frame(self.viewer(), self.shown_player)

    def sync(self) -> None:
        """The session or the seat shown changed: a new decision picks its first legal
        choice (the cursor its first target); the same decision keeps the person's."""
        self.choice = self.choice.for_decision(*self.frame())

    def shown_log(self) -> tuple[Event, ...]:
        """The log this screen narrates (``SessionView.shown_log``), once for each state."""
        return self.game_log.events(self.viewer())

    def forget_frame(self) -> None:
        """Make the frame afresh, and pick the first legal choice."""
        self.frames.forget()
        self.choice = self.choice.forgotten()
        self.sync()

    @property
    def view(self) -> BoardView:
        """What the board widgets draw now (``board``)."""
        return self.board()

    # the half-made choice, as the screens and tests read it
    @property
    def selected(self) -> int:
        return self.choice.selected

    @selected.setter
    def selected(self, index: int) -> None:
        self.choice = self.choice.with_selected(index)

    @property
    def cursor(self) -> int | None:
        return self.choice.cursor

    @property
    def decision_key(self) -> tuple[object, ...] | None:
        return self.choice.decision

    @decision_key.setter
    def decision_key(self, key: None) -> None:
        """Set to None: the choice is made afresh at the next ``sync``."""
        self.choice = self.choice.forgotten()

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
        s = self.session
        return board_view(obs, made, (s.name(0), s.name(1)), self.choice.selected,
                          self.choice.cursor,
                          self.ascii_mode if ascii_mode is None else ascii_mode)

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
        """The other player's latest turn in one line (``GameLog.last_turn``)."""
        return self.game_log.last_turn(self.viewer())

    # ------------------------------------------------------------------ the log
    def reset_log(self) -> None:
        """Narrate the game log again from its start."""
        self.game_log.reset(self.viewer(), self.obs.is_over)

    def update_log(self) -> None:
        """Narrate what happened since the log was last brought up to date."""
        self.game_log.update(self.viewer(), self.obs.is_over)

    # ------------------------------------------------------------------ the loop
    def advance(self) -> None:
        """Decide what happens next: the end, a person's keys, or a bot's search."""
        obs = self.obs
        if obs.is_over:
            self.pacing.thinking_since = None
            self.port.redraw()
            if not self.ended_shown:
                self.ended_shown = True
                self.port.game_over(obs)
            return
        if self.session.human_to_play:
            self.pacing.skip_turn = False
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
        if self.turns.begin_turn():
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

    # ------------------------------------------------------------------ the bots
    def start_bot(self) -> None:
        """Start the search of the bot to play."""
        self.turns.start(self.obs.to_play)

    def stop_bot(self) -> None:
        """Cancel any search and any bot move waiting to be shown."""
        self.turns.stop()

    def bot_done(self, token: int, move: Move) -> None:
        """A bot answered: show its move after the rest of the pace (Space skips)."""
        self.turns.done(token, move)

    def bot_failed(self, token: int, exc: Exception) -> None:
        """A bot failed: the dialog offers a retry or a fallback move."""
        self.turns.failed(token, exc)

    def after_bot_error(self, choice: str | None) -> None:
        """The person's answer to a failed bot: retry it, or go on with the fallback move."""
        self.turns.after_error(choice)

    def skip(self) -> None:
        """Space: show a bot's move without waiting out the pace."""
        self.turns.skip()

    def pause(self) -> None:
        """p: hold the bots (a move found while paused waits), or go on."""
        self.error = ""
        self.turns.pause()

    def step(self) -> None:
        """.: one bot decision while paused."""
        if self.turns.can_step():
            self.error = ""
            self.turns.step()

    # ------------------------------------------------------------------ intents
    def _choose(self, outcome: Selection | str) -> None:
        """The person's pick: the new choice (the error and the notice go), or why not."""
        if isinstance(outcome, str):
            self.error = outcome
        else:
            self.choice, self.error, self.notice = outcome, "", ""
        self.port.redraw()

    def move_cursor(self, dx: int, dy: int) -> None:
        if (stepped := self.choice.stepped(self.view, dx, dy)) is not None:
            self._choose(stepped)

    def next_target(self, step: int) -> None:
        if (target := self.choice.next_target(self.view, step)) is not None:
            self._choose(target)

    def pick(self, n: int) -> None:
        """Digit ``n`` (from 1): the n-th item of a list zone."""
        if self.zone not in LIST_ZONES:
            self.not_now()
            return
        self._choose(self.choice.pick(n, self.view))

    def pile(self, index: int) -> None:
        """Letter A, B, ...: a display pile."""
        if self.zone is not Zone.DISPLAY:
            self.say_error("piles are picked only to capture or for the Beetle")
            return
        self._choose(self.choice.pile(index, self.view))

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
        if self.zone is None:
            self.not_now()
            return
        if (move := self.choice.move(self.view)) is not None:
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
        self.choice = self.choice.hint_asked()
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
        self.choice = self.choice.hinted(move, self.view)  # never over the person's own pick
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
        self.choice = self.choice.hint_dropped()

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
        if view.zone is None:
            self.not_now()
            return
        choice = click_choice(view, kind, where, value)
        if isinstance(choice, str):
            self.say_error(choice)
        elif choice is not None:
            self.click_pick(choice)

    def click_pick(self, what: Choice) -> None:
        """Pick ``what``; confirm it if the previous click picked it and it is still picked."""
        choice, confirms = self.choice.clicked(what, self.zone)
        if confirms:
            self.choice = choice
            self.confirm()
        else:
            self._choose(choice)


__all__ = ["Item", "PlayController", "Prompt", "ScreenPort", "Zone"]

"""The play controller: everything a game screen knows besides drawing, with no Textual in it.

It takes the person's **intents** (``pick``, ``confirm``, ``back``, ``hint``, ``undo``,
``click``...) and, after each, tells the screen through a ``ScreenPort`` what to draw and
what to run: a bot's search, a hint, a dialog. What to draw comes from ``board`` (a
``BoardView``) and ``prompt`` (a ``Prompt``). Tests drive it with a port that records.

It owns its parts and conducts them; screens and tests reach each part by its name:
``choice``, the half-made choice (a ``Selection``, a value replaced at each pick);
``frames``, the observation and frame drawn once per state (``FrameCache``; ``board``
adds the choice to them); ``turns``, the bots' turns and their pacing (``BotTurns``, which the
screen hands a bot's answer); ``log``, the log's narration (``GameLog``). The controller
holds the prompt's error and notice, the hint, whose turn is shown in hot-seat, and
whether the end was shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..coach.hints import Answer
from ..core import Decision, IllegalMove, Move, Observation
from ..core.explain import drawn_for_second_chance
from ..words.narrate import possessive
from .bot_turns import BotTurns
from .clicks import Choice, click_choice
from .frame import FrameCache, board_view
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
        self.ascii_mode = False
        """The screen draws in ASCII (the board view says so to its widgets)."""
        self.frames = FrameCache(session, self.viewer, lambda: self.shown_player)
        self.log = GameLog(session, port, self.viewer, lambda: self.obs.is_over)
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
        """What the seat this screen shows (``viewer``) sees now (``frames``)."""
        return self.frames.frame()[0]

    def sync(self) -> None:
        """The session or the seat shown changed: a new decision picks its first legal
        choice (the cursor its first target); the same decision keeps the person's. Drawing
        changes nothing: the choice changes here, when the session says it changed."""
        self.choice = self.choice.for_decision(*self.frames.frame())

    def forget_frame(self) -> None:
        """Make the frame afresh, and pick the first legal choice."""
        self.frames.forget()
        self.choice = self.choice.forgotten()
        self.sync()

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
        return self.frames.frame()[1].zone

    @property
    def hands_hidden(self) -> bool:
        """Hot-seat between two people's turns: no hand is shown."""
        return self.session.is_hotseat and self.shown_player is None

    def undo_offered(self) -> bool:
        """Undo can act in this game, now or later: a person against bots."""
        return self.session.assists and bool(self.session.humans)

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
        paused = "PAUSED · " if self.turns.pacing.paused else ""
        return (f"{paused}Solstis · {g.options.variant} · {self.game_label()} · turn "
                f"{g.turn} · {seats}{mode}")

    def board(self, ascii_mode: bool | None = None) -> BoardView:
        """What the board widgets draw now, from the frame and the half-made choice."""
        obs, made = self.frames.frame()
        s = self.session
        return board_view(obs, made, (s.name(0), s.name(1)), self.choice.selected,
                          self.choice.cursor,
                          self.ascii_mode if ascii_mode is None else ascii_mode)

    # ------------------------------------------------------------------ the prompt
    def zone_keys(self, view: BoardView | None = None) -> str:
        """The keys that answer the pending decision ('' when none is asked); Esc among
        them where it would put the tile just played back in the hand (a local game)."""
        takeback = self.session.takeback
        esc_takes_back = takeback is not None and takeback.can_take_back_play()
        return zone_keys(view or self.board(), esc_takes_back)

    def prompt(self) -> Prompt:
        """The prompt line now (a notice is shown in place of the keys: once while a person
        decides, until the decision while a bot does)."""
        s, game, pacing = self.session, self.obs, self.turns.pacing
        view = self.board()
        if game.is_over:
            return Prompt(*game_over_lines(s, game), error=self.error)
        if s.is_hotseat and self.shown_player is None:
            return Prompt(f"Pass the keyboard to {s.name(game.to_play)}.", error=self.error)
        if not view.deciding_is_human:
            headline, detail = waiting_lines(s, game, pacing.paused)
            # The prompt is drawn again at each turn of the spinner: a notice (the legend)
            # stays until the next decision is made instead of going at the first one.
            detail = self.notice or detail
            thinking = not pacing.paused and pacing.thinking_since is not None
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

    # ------------------------------------------------------------------ the loop
    def advance(self) -> None:
        """Decide what happens next: the end, a person's keys, or a bot's search."""
        obs = self.obs
        if obs.is_over:
            self.turns.pacing.thinking_since = None
            self.port.redraw()
            if not self.ended_shown:
                self.ended_shown = True
                self.port.game_over(obs)
            return
        if self.session.human_to_play:
            self.turns.pacing.skip_turn = False
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
        if self.turns.begin_turn():  # the bot's answer goes to ``turns``
            self.turns.start(obs.to_play)

    def passed(self) -> None:
        """The keyboard went to the next person (hot-seat)."""
        self.shown_player = self.obs.to_play
        self.sync()
        self.log.reset()
        self.port.redraw()

    def after_move(self) -> None:
        """Everything that follows a decision: autosave, the log, the next step."""
        self.error = self.notice = ""
        self.clear_hint()
        self.port.save()
        self.log.update()
        self.advance()

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
        if (stepped := self.choice.stepped(self.board(), dx, dy)) is not None:
            self._choose(stepped)

    def next_target(self, step: int) -> None:
        if (target := self.choice.next_target(self.board(), step)) is not None:
            self._choose(target)

    def pick(self, n: int) -> None:
        """Digit ``n`` (from 1): the n-th item of a list zone."""
        if self.zone not in LIST_ZONES:
            self.not_now()
            return
        self._choose(self.choice.pick(n, self.board()))

    def pile(self, index: int) -> None:
        """Letter A, B, ...: a display pile."""
        if self.zone is not Zone.DISPLAY:
            self.say_error("piles are picked only to capture or for the Beetle")
            return
        self._choose(self.choice.pile(index, self.board()))

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
        if (move := self.choice.move(self.board())) is not None:
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
            self.log.reset()
        elif self.session.human_to_play and drawn_for_second_chance(self.obs):
            self.error = "no going back: the tile drawn for the second chance is face up"
        self.forget_frame()
        self.port.redraw()

    def undo(self) -> None:
        """u: back to before the person's last decision (against bots)."""
        takeback = self.session.takeback
        if takeback is None or not takeback.can_undo():
            self.say_error("undo is for games against bots" if self.session.is_hotseat
                           else "there is no decision of yours to take back")
            return
        self.turns.stop()
        self.clear_hint()
        self.error = ""
        takeback.undo()
        self.ended_shown = False
        self.port.save()
        self.notice = "took back your last decision"
        self.log.reset()
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
        self.hint_move, self.hint_text = None, "Hint: thinking…"
        self.choice = self.choice.hint_asked()
        self.error = ""
        self.port.redraw_prompt()
        pacing = self.turns.pacing  # the bots' token: an undo or a new game drops the hint
        self.port.find_hint(pacing.token, self.session.observation(self.obs.to_play),
                            pacing.cancel)

    def hint_ready(self, token: int, obs: Observation, found: Answer) -> None:
        """The judge answered: say the hint and select its move."""
        if token != self.turns.pacing.token or obs.history != self.obs.history or \
                not found.judged:
            return
        move = found.judged[0][0]
        self.hint_move = move
        self.hint_text = found.text
        self.choice = self.choice.hinted(move, self.board())  # never over the person's own pick
        self.port.redraw()

    def hint_failed(self, token: int, reason: str) -> None:
        """The hint's bot failed: say so (the game goes on; the person may ask again)."""
        if token != self.turns.pacing.token:
            return
        self.clear_hint()
        self.say_error(f"no hint: the hint bot failed ({reason})")

    def clear_hint(self) -> None:
        """Forget the hint (the person decided, undid or dismissed it with Esc)."""
        self.hint_move, self.hint_text = None, ""
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
        view = self.board()
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

"""The game screen's key actions: picking, the cursor, confirming, undo, hint, pacing.

A mixin for ``GameScreen`` (kept apart so each module stays small); ``self`` is the screen.
"""

from __future__ import annotations

from functools import partial

from ..core import Decision, IllegalMove, Move
from ..core.board import CELLS, COL_OF, NAMES, ROW_OF, SQUARES, cell_index
from ..session import drawn_for_second_chance
from ..widgets.display import PILE_LETTERS
from . import choices
from .helpers import describe_move, esc_takes_back, hint_reason, legend_lines, zone_keys


class GameKeys:
    """Actions bound to keys in ``GameScreen.BINDINGS``."""

    def _zone(self) -> str | None:
        return self.view.zone if self.view is not None else None

    def _not_now(self) -> None:
        if self.session.human_to_play:
            self.error = "that key does nothing for this decision"
        else:
            self.error = f"wait: it is {self.session.name(self.obs.to_play)}'s decision"
        self.update_prompt()

    def action_cursor(self, dx: int, dy: int) -> None:
        zone, view = self._zone(), self.view
        if zone in ("hand", "display", "spirits", "opp_hand") and view and view.items:
            step = dx or -dy
            self.selected = (self.selected + step) % len(view.items)
        elif zone in ("mine", "theirs"):
            self.cursor = move_cursor(self.cursor, dx, dy, view.square_mode if view else False)
        else:
            return
        self.error, self.hint_may_select = "", False
        self.refresh_board()

    def action_next_target(self, step: int) -> None:
        zone, view = self._zone(), self.view
        if view is None or zone is None:
            return
        if zone in ("mine", "theirs"):
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
        self.error, self.hint_may_select = "", False
        self.refresh_board()

    def action_pick(self, n: int) -> None:
        zone, view = self._zone(), self.view
        if zone not in ("hand", "display", "spirits", "opp_hand") or view is None:
            self._not_now()
            return
        if n > len(view.items):
            self.error = f"there is no choice {n} here"
        else:
            self.selected, self.error, self.hint_may_select = n - 1, "", False
        self.refresh_board()

    def action_pile(self, index: int) -> None:
        zone, view = self._zone(), self.view
        if zone != "display" or view is None:
            self.error = "piles are picked only to capture or for the Beetle"
            self.update_prompt()
            return
        if index >= len(view.items):
            self.error = f"there is no pile {PILE_LETTERS[index]}"
        else:
            self.selected, self.error, self.hint_may_select = index, "", False
        self.refresh_board()

    def action_draw(self) -> None:
        if self.view is None or self.view.obs.decision is not Decision.ENCOUNTER or \
                self._zone() is None:
            self._not_now()
            return
        self.try_move(Move.parse("draw"))

    def action_confirm(self) -> None:
        obs = self.obs
        if obs.is_over:
            self.sapp.show_end(self.session, obs)
            return
        zone, view = self._zone(), self.view
        if view is None or zone is None:
            self._not_now()
            return
        if zone in ("mine", "theirs"):
            if self.cursor is None:
                return
            self.try_move(choices.cell_move(view.obs.decision, self.cursor))
        elif 0 <= self.selected < len(view.items):
            self.try_move(view.items[self.selected].move)

    def try_move(self, move) -> None:
        try:
            self.session.apply(move)
        except IllegalMove as exc:
            self.error = str(exc)
            self.update_prompt()
            return
        self.after_move()

    def action_back(self) -> None:
        if self.error:
            self.error = ""
        elif self.hint_text:
            self.clear_hint()
        elif self.session.take_back_play():
            self.notice = "the tile is back in your hand"
            self.reset_log()
        elif self.session.human_to_play and drawn_for_second_chance(self.obs):
            self.error = "no going back: the tile drawn for the second chance is face up"
        self.decision_key = None
        self.refresh_board()

    def action_undo(self) -> None:
        if not self.session.can_undo():
            if self.session.is_hotseat:
                self.error = "undo is for games against bots"
            elif not self.session.replayable:
                self.error = "no undo in a game rebuilt from its save's snapshot"
            else:
                self.error = "there is no decision of yours to take back"
            self.update_prompt()
            return
        self.stop_bot()
        self.clear_hint()
        self.error = ""
        self.session.undo()
        self.ended_shown = False
        self.keep()
        self.notice = "took back your last decision"
        self.reset_log()
        self.decision_key = None
        self.advance()

    def action_hint(self) -> None:
        if self._zone() is None:
            self._not_now()
            return
        self.hint_move = None
        self.hint_text = "Hint: thinking…"
        self.hint_may_select = True
        self.error = ""
        self.update_prompt()
        obs = self.session.observation(self.obs.to_play)
        token = self.token
        self.run_worker(partial(self._hint_work, token, obs), thread=True, exclusive=True,
                        group="hint", exit_on_error=False, name="hint")

    def _hint_work(self, token: int, obs) -> None:
        ranked = self.sapp.rank_moves(obs, seconds=1.5, cancel=self.cancel)
        self._from_thread(self.show_hint, token, obs, ranked)

    def show_hint(self, token: int, obs, ranked) -> None:
        if token != self.token or obs.history != self.obs.history or not ranked:
            return
        move = ranked[0][0]
        self.hint_move = move
        self.hint_text = f"Hint: {describe_move(move)} — {hint_reason(obs, ranked)}"
        view = self.view
        if view is not None and self.hint_may_select:  # never over the person's own pick
            for i, item in enumerate(view.items):
                if item.move == move:
                    self.selected = i
            if move.arg in view.targets and view.zone in ("mine", "theirs"):
                self.cursor = move.arg
        self.refresh_board()

    def clear_hint(self) -> None:
        """Forget the hint (the person decided, undid or dismissed it with Esc)."""
        self.hint_move = None
        self.hint_text = ""
        self.hint_may_select = False

    def action_skip(self) -> None:
        self.skip_turn = True
        if self.pending_apply is not None:
            apply = self.pending_apply
            if self.pending_timer is not None:
                self.pending_timer.stop()
            apply()

    def action_pause(self) -> None:
        self.paused = not self.paused
        self.error = ""
        if not self.paused:
            self.advance()
        else:
            self.refresh_board()

    def action_step(self) -> None:
        if self.paused and not self.session.human_to_play and self.thinking_since is None:
            self.step_once = True
            self.error = ""
            self.advance()

    def action_help(self) -> None:
        view = self.view
        if view is None or view.obs.is_over:
            self.sapp.show_help()
            return
        keys = zone_keys(view, esc_takes_back(self.session)) if view.zone is not None else ""
        self.sapp.show_help(view.obs.decision, keys)

    def action_show_log(self) -> None:
        self.sapp.show_log(self.log_lines())

    def action_legend(self) -> None:
        """The board's symbols on the prompt's second line, one line per press (the
        next other key brings the usual line back)."""
        lines = legend_lines(self.sapp.ascii_mode)
        self.legend_page = (self.legend_page + 1) % len(lines)
        self.notice = lines[self.legend_page]
        self.update_prompt()

    def action_spirits(self) -> None:
        self.sapp.show_spirits(self.session.observation(self.viewer()))

    def action_review(self) -> None:
        if not self.obs.is_over:
            self.error = "the review opens when the game is over"
            self.update_prompt()
            return
        self.sapp.show_review(self.session)

    def action_new_game(self) -> None:
        self.sapp.open_new_game()

    def action_quit_game(self) -> None:
        self.stop_bot()
        self.app.exit()



def move_cursor(cursor: int | None, dx: int, dy: int, square_mode: bool) -> int:
    """The cell (or square) next to ``cursor`` in a direction, staying on the board."""
    valid = SQUARES if square_mode else CELLS
    if cursor is None:
        return valid[0]
    row, col = ROW_OF[cursor] + dy, COL_OF[cursor] + dx
    row = min(max(row, 1), 6)
    columns = [c for c in range(1, 11) if cell_index(row, c) in valid]
    if not columns:
        return cursor
    col = min(columns, key=lambda c: (abs(c - col), c))
    target = cell_index(row, col)
    return target if target in NAMES and (target in valid) else cursor


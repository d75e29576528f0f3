"""The Solstis rules engine: a full game state that advances one decision at a time.

The game runs as a small machine: ``play(move)`` applies the answer to the pending decision,
then runs the queued steps of the turn (putting tiles into a panorama, encountering a
spirit, refilling, ending the turn...) until the next decision or the end. A decision with a
single legal move is applied at once and recorded in ``history`` as automatic.
"""

from __future__ import annotations

from typing import Final

from . import encounter
from . import rng as _rng
from .board import CELLS, MATCH, NAMES
from .errors import IllegalMove
from .events import (
    Captured,
    Covered,
    Discarded,
    EndReason,
    MarmotTurn,
    Passed,
    Placed,
    Played,
    RainbowOut,
    RainbowPlaced,
    RainbowShifted,
    Removed,
    SecondChance,
    SquirrelPlaced,
)
from .explain import why_illegal
from .moves import (
    BEETLE_KIND,
    CAPTURE_DECISION,
    CAPTURE_KIND,
    COVER_DECISION,
    COVER_KIND,
    DEER_KIND,
    DRAW_KIND,
    EVIL_KIND,
    KEEP_KIND,
    MOVE_RAINBOW_DECISION,
    PASS_KIND,
    PLAY_KIND,
    RAINBOW_KIND,
    RENARD_KIND,
    SHIFT_KIND,
    SQUARE_KIND,
    TAKE_KIND,
    VIPER_KIND,
    Decision,
    Move,
)
from .observation import Observation, observe
from .options import Options
from .scoring import Score, score
from .serialize import game_from_json, game_to_json
from .spirits import SPIRITS, Spirit, spirit_ids
from .state import NO_MOVES, PUT_STEPS, SINGLE, State, Task
from .steps import (
    BY_EFFECT,
    BY_SQUIRREL,
    BY_TURN,
    COVER,
    EFFECT,
    ENCOUNTER,
    END_TURN,
    EVIL,
    FINISH,
    HAND_SIZE,
    PLACE_FIREFLIES,
    PUT,
    REFILL,
    SQUIRREL,
    pair_with,
)

# The steps every game's end queues (shared: a queued step is never changed).
_FINISH_STEP: Final[Task] = (FINISH,)
_SQUIRREL_STEPS: Final[tuple[Task, Task]] = ((SQUIRREL, 0), (SQUIRREL, 1))
_COVER_STEP: Final[Task] = (COVER,)


class Game(State):
    """A whole game of Solstis, hidden parts included: the state (``State``, state.py,
    documents every attribute) and the machine that advances it. See the module docstring."""

    __slots__ = ()

    # ----------------------------------------------------------------- construction
    @classmethod
    def new(cls, seed: int | None = None, options: Options | None = None, *,
            legacy: bool = False) -> Game:
        """A freshly dealt game (rules.md §2). ``seed`` None draws a secret one (128 bits
        from the OS). The deal comes from a generator keyed with the seed, so what players
        see reveals nothing of it. ``legacy`` deals as game format 1 did (SplitMix64 from
        the seed): only for replaying games saved in that format."""
        options = options or Options()
        if seed is None:
            seed = _rng.new_secret()
        tiles = list(CELLS)
        spirits = spirit_ids(options.firefly, options.beginner)
        if legacy:
            draws: _rng.Draws = _rng.SPLITMIX
            state = _rng.shuffle(_rng.seed_state(seed), tiles)
            state = _rng.shuffle(state, spirits)
        else:
            draws = _rng.Keyed(seed)
            draws.shuffle(b"tiles", tiles)
            draws.shuffle(b"spirits", spirits)
            state = 0
        game = cls._empty(options, seed, draws)
        game.draw_state = state
        for _ in range(6):
            game.face_down.append(tiles.pop())
        for _ in range(6):
            tile = tiles.pop()
            game.face_up.append(tile)
            game.face_up_mask |= 1 << tile
        for p in (0, 1):
            game.hands[p] = sorted(tiles.pop() for _ in range(HAND_SIZE))
        game.pile = tiles
        game.spirit_pile = spirits
        game._begin_turn()
        return game

    @classmethod
    def _empty(cls, options: Options, seed: int, draws: _rng.Draws) -> Game:
        """A game with nothing dealt (see ``State._reset``)."""
        game = Game()
        game._reset(options, seed, draws)
        return game

    # ----------------------------------------------------------------- public API
    def copy(self) -> Game:
        """An independent copy (cheap: bots make thousands)."""
        g = Game()
        self._copy_into(g)
        return g

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # A game pickles as its JSON (worker processes are sent games): the compiled
        # build's classes do not pickle by themselves.
        return Game.from_json, (self.to_json(),)

    def play(self, mv: object) -> None:
        """Apply the ``Move`` ``mv``; IllegalMove (and no change at all) if the rules do not
        allow it, or if it is not a move at all."""
        legal = self._legal
        chosen: Move | None = None
        for known in legal:  # moves are interned: usually it is the very object
            if known is mv:
                chosen = known
                break
        if chosen is None:
            if not isinstance(mv, Move) or mv not in legal:
                raise IllegalMove(self._why_illegal(mv))
            chosen = mv
        self._record(chosen, False)
        self._resolve(chosen)

    def end(self, reason: EndReason, loser: int | None = None) -> None:
        """End the game now, for a reason the rules do not give: ``RESIGNED`` or ``TIME``
        (``loser`` gives up or ran out of time; the other player wins) or ``ABANDONED``
        (nobody wins; ``loser`` is None). The log gets a ``GameEnded`` event and the game's
        JSON keeps the position it ended in. IllegalMove, and no change, if the game is
        over already, if the rules end games for that reason (``NORMAL``, ``FIREFLIES``),
        or if ``loser`` does not fit the reason."""
        if self.is_over:
            raise IllegalMove("the game is over already")
        if reason.by_rules:
            raise IllegalMove(f"only the rules end a game for {reason.value!r}")
        if reason is EndReason.ABANDONED:
            if loser is not None:
                raise IllegalMove("an abandoned game has no loser")
        elif loser not in (0, 1):
            raise IllegalMove(f"a game ended for {reason.value!r} needs its loser: 0 or 1")
        self._end_now(reason, loser)

    def play_str(self, text: str) -> Move:
        """Parse ``text`` in move notation and play it; returns the move played."""
        try:
            mv = Move.parse(text)
        except ValueError as exc:
            raise IllegalMove(str(exc)) from None
        self.play(mv)
        return mv

    def observation(self, player: int, spectator: bool = False) -> Observation:
        """What ``player`` may know (see ``Observation``); with ``spectator``, a watcher's
        view from ``player``'s seat."""
        return observe(self, player, spectator)

    def score(self, player: int) -> Score:
        """The star breakdown ``player``'s panorama would score now (final once over)."""
        return score(self, player)

    def to_json(self) -> str:
        """The whole game as versioned, human-readable JSON."""
        return game_to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """A game from ``to_json`` output or a hand-made position; InvalidPosition if bad.
        A turn start that the rules have already ended (land pile empty, nobody can
        capture: rules.md §8) is played on to the end: cover, Squirrel, scoring."""
        game = game_from_json(text, cls._empty)
        if (game.decision is Decision.PLAY and not game.pile
                and not game._anyone_can_capture()):
            game.decision, game._legal = None, []
            game._start_game_end()
            game._run()
            if len(game._legal) == 1:  # a forced cover is automatic, as in play
                game._record(game._legal[0], True)
                game._resolve(game._legal[0])
        return game

    # ----------------------------------------------------------------- the machine
    def _resolve(self, mv: Move) -> None:
        while True:
            self.decision = None
            self._legal = NO_MOVES
            self._apply(mv.kind, mv.arg)
            if not self._waiting():
                self._run()
            legal = self._legal
            if self.is_over or len(legal) != 1:
                return
            mv = legal[0]
            self._record(mv, True)

    def _waiting(self) -> bool:
        """True while a decision is pending. (A method, so that no caller's check is
        narrowed by an assignment the type checker saw before a step changed it.)"""
        return self.decision is not None

    def _run(self) -> None:
        # A step may replace the queue (a turn begins, the game ends): read it anew.
        while self._tasks and not self._waiting() and not self.is_over:
            self._step(self._tasks.pop())

    def _apply(self, kind: int, arg: int) -> None:
        """Apply the answer ``arg`` to the pending decision with a move of ``kind``."""
        if kind == PLAY_KIND:
            self._apply_play(arg)
        elif kind == CAPTURE_KIND:
            self._apply_capture(arg)
        elif kind == RAINBOW_KIND:
            self._apply_rainbow(arg)
        elif kind == SHIFT_KIND:
            self._apply_shift(arg)
        elif kind == PASS_KIND:
            self._apply_pass()
        elif kind == DRAW_KIND:
            encounter.apply_draw(self)
        elif kind == TAKE_KIND:
            encounter.apply_take(self, arg)
        elif kind == KEEP_KIND:
            encounter.apply_keep(self, arg)
        elif kind == SQUARE_KIND:
            encounter.apply_square(self, arg)
        elif kind == DEER_KIND:
            encounter.apply_deer(self, arg)
        elif kind == BEETLE_KIND:
            encounter.apply_beetle(self, arg)
        elif kind == VIPER_KIND:
            encounter.apply_viper(self, arg)
        elif kind == RENARD_KIND:
            encounter.apply_renard(self, arg)
        elif kind == EVIL_KIND:
            encounter.apply_evil(self, arg)
        elif kind == COVER_KIND:
            self._apply_cover(arg)
        else:
            raise AssertionError(kind)

    def _step(self, task: Task) -> None:
        """Run one queued step of the turn (steps.py names them)."""
        op = task[0]
        if op == PUT:
            self._op_put(task)
        elif op == ENCOUNTER:
            encounter.op_encounter(self)
        elif op == EFFECT:
            encounter.op_effect(self, task)
        elif op == PLACE_FIREFLIES:
            encounter.op_place_fireflies(self, task)
        elif op == EVIL:
            encounter.op_evil(self, task)
        elif op == REFILL:
            self._op_refill()
        elif op == END_TURN:
            self._op_end_turn()
        elif op == COVER:
            self._op_cover()
        elif op == SQUIRREL:
            self._op_squirrel(task)
        elif op == FINISH:
            self._op_finish()
        else:
            raise AssertionError(task)

    # ----------------------------------------------------------------- turn steps
    def _op_end_turn(self) -> None:
        p = self.to_play
        if not self.pile and not self._anyone_can_capture():
            self._start_game_end()
            return
        if self.marmot:
            self.marmot = False
            if not self._quiet:
                self._note(MarmotTurn(p))
        else:
            self.to_play = 1 - p
        self._begin_turn()

    def _anyone_can_capture(self) -> bool:
        up = self.face_up_mask
        return any(MATCH[t] & up for t in self.hands[0]) or any(
            MATCH[t] & up for t in self.hands[1])

    def _op_refill(self) -> None:
        p = self.to_play
        hand, pile, sizes = self.hands[p], self.pile, self.hand_size
        size = sizes[1] if p else sizes[0]
        while pile and len(hand) < size:
            self._draw_to_hand(p)

    # -- step 1-3: play, capture, second chance
    def _apply_play(self, tile: int) -> None:
        p = self.to_play
        must = self.must_play
        if (must[1] if p else must[0]) >= 0:
            self.must_play = pair_with(must, p, -1)
        self.hands[p].remove(tile)
        if not self._quiet:
            self._note(Played(p, tile))
        if MATCH[tile] & self.face_up_mask:
            self._decide(CAPTURE_DECISION, SINGLE[tile])
            return
        self._display_add(tile)
        if not self.pile:
            return
        drawn = self.pile.pop()
        if not self._quiet:
            self._note(SecondChance(p, drawn))
        if MATCH[drawn] & self.face_up_mask:
            self._decide(CAPTURE_DECISION, SINGLE[drawn])
            return
        self._display_add(drawn)
        self._gain_rainbow(p, BY_TURN)

    def _apply_pass(self) -> None:
        p, must = self.to_play, self.must_play
        if (must[1] if p else must[0]) >= 0:
            self.must_play = pair_with(must, p, -1)
        if not self._quiet:
            self._note(Passed(self.to_play))

    def _apply_capture(self, target: int) -> None:
        p, source = self.to_play, self.context[0]
        if not self._quiet:
            self._note(Captured(p, source, target))
        self._display_take(target)
        # The captured tile goes in first, then the capturing one (rules.md §3 step 2);
        # the stack runs the last pushed first.
        puts = PUT_STEPS[BY_TURN][p]
        self._tasks.append(puts[source])
        self._tasks.append(puts[target])

    def _display_add(self, tile: int) -> None:
        self.face_up.append(tile)
        self.face_down.append(-1)
        self.face_up_mask |= 1 << tile
        if not self._quiet:
            self._note(Discarded(self.to_play, tile))

    # -- putting tiles into a panorama (rules.md §4, §5)
    def _op_put(self, task: Task) -> None:
        _, p, tile, mode = task
        bit = 1 << tile
        # Lists of masks change as ``x[p] = x[p] | bit``, which the compiled engine does
        # in machine words (``x[p] |= bit`` goes through Python's generic operator).
        land, rainbows = self.land, self.rainbow_cells
        if self.evil_player == p and self.evil_cell == tile:
            self._remove(p, tile, "forbidden")
        elif rainbows[p] & bit:
            if self.blocked[p] & bit:
                self._remove(p, tile, "blocked")
            elif self.rainbow_targets(p):
                self.to_play = p
                self._decide(MOVE_RAINBOW_DECISION, (tile, mode))
            else:
                rainbows[p] = rainbows[p] ^ bit
                self.rainbows_out += 1
                land[p] = land[p] | bit
                if not self._quiet:
                    self._note(RainbowOut(p, tile))
                self._placed(p, tile, mode)
        else:
            land[p] = land[p] | bit
            if not self._quiet:
                self._note(Placed(p, tile))
            self._placed(p, tile, mode)

    def _remove(self, p: int, tile: int, why: str) -> None:
        self.removed |= 1 << tile
        if not self._quiet:
            self._note(Removed(p, tile, why))

    def _apply_shift(self, cell: int) -> None:
        p = self.to_play
        tile, mode = self.context
        rainbows, land = self.rainbow_cells, self.land
        rainbows[p] = rainbows[p] ^ ((1 << tile) | (1 << cell))
        land[p] = land[p] | 1 << tile
        if not self._quiet:
            self._note(RainbowShifted(p, tile, cell))
        self._placed(p, cell, mode)
        self._placed(p, tile, mode)

    def _apply_rainbow(self, cell: int) -> None:
        p = self.to_play
        self.rainbow_supply -= 1
        rainbows = self.rainbow_cells
        rainbows[p] = rainbows[p] | 1 << cell
        if not self._quiet:
            self._note(RainbowPlaced(p, cell))
        self._placed(p, cell, self.context[0])

    def _placed(self, p: int, cell: int, mode: int) -> None:
        """Note that ``cell`` was just filled, for the squares it may complete."""
        if mode == BY_TURN:
            self._touched |= 1 << cell
        elif mode == BY_EFFECT and self.options.firefly:
            encounter.effect_formed(self, p, cell)

    # -- the end (rules.md §8, §11, §12)
    def _start_game_end(self) -> None:
        self._tasks = [_FINISH_STEP, _SQUIRREL_STEPS[1], _SQUIRREL_STEPS[0], _COVER_STEP]

    def _op_cover(self) -> None:
        holder = self.evil_player
        if self.options.firefly or holder < 0 or not self.spirits[holder]:
            return
        self.to_play = 1 - holder
        self._decide(COVER_DECISION, (holder,))

    def _apply_cover(self, spirit: int) -> None:
        holder = self.context[0]
        self.covered = pair_with(self.covered, holder, spirit)
        if not self._quiet:
            self._note(Covered(self.to_play, holder, SPIRITS[spirit]))

    def _op_squirrel(self, task: Task) -> None:
        p = task[1]
        owns = any(s == Spirit.SQUIRREL for s, _ in self.spirits[p])
        if not owns or self.covered[p] == Spirit.SQUIRREL or not self.hands[p]:
            return
        tiles, self.hands[p] = self.hands[p], []
        if not self._quiet:
            self._note(SquirrelPlaced(p, tuple(tiles)))
        puts = PUT_STEPS[BY_SQUIRREL][p]
        self._tasks += [puts[t] for t in reversed(tiles)]

    def _op_finish(self) -> None:
        totals = [score(self, 0).total, score(self, 1).total]
        winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
        self._finish(EndReason.NORMAL, winner)

    # ----------------------------------------------------------------- messages
    def _why_illegal(self, mv: object) -> str:
        return why_illegal(observe(self, self.to_play), mv)


__all__ = ["NAMES", "Game"]

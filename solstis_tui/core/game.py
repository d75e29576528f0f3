"""The Solstis rules engine: a full game state that advances one decision at a time.

The game runs as a small machine: ``play(move)`` applies the answer to the pending decision,
then runs the queued steps of the turn (putting tiles into a panorama, encountering a
spirit, refilling, ending the turn...) until the next decision or the end. A decision with a
single legal move is applied at once and recorded in ``history`` as automatic.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable

from . import rng as _rng
from .board import CELLS, MATCH, NAMES
from .encounter import SpiritSteps
from .errors import IllegalMove
from .explain import why_illegal
from .legal import compute_legal
from .moves import Decision, Move, MoveKind
from .observation import Observation, observe
from .options import Options
from .scoring import Score, score
from .serialize import game_from_json, game_to_json
from .spirits import Spirit, spirit_set
from .state import Task
from .steps import (
    BY_EFFECT,
    BY_SQUIRREL,
    BY_TURN,
    COVER,
    EFFECT,
    ENCOUNTER,
    END_NORMAL,
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

_K = MoveKind


class Game(SpiritSteps):
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
        spirits: list[int] = list(spirit_set(options.firefly, options.beginner))
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

    # ----------------------------------------------------------------- public API
    def play(self, mv: Move) -> None:
        """Apply ``mv``; IllegalMove (and no change at all) if the rules do not allow it."""
        if mv not in self._legal:
            raise IllegalMove(self._why_illegal(mv))
        self._record(mv, False)
        self._resolve(mv)

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
            self._legal = []
            _APPLY[mv.kind](self, mv.arg)
            if self.decision is None:
                self._run()
            legal = self._legal
            if self.is_over or len(legal) != 1:
                return
            mv = legal[0]
            self._record(mv, True)

    def _run(self) -> None:
        tasks = self._tasks
        while tasks and self.decision is None and not self.is_over:
            task = tasks.pop()
            _OPS[task[0]](self, task)

    def _decide(self, decision: Decision, ctx: tuple[int, ...] = ()) -> None:
        self.decision = decision
        self.context = ctx
        self._legal = self._compute_legal()

    #: The legal moves of the pending decision, from the state alone.
    _compute_legal = compute_legal

    # ----------------------------------------------------------------- turn steps
    def _begin_turn(self) -> None:
        self.turn += 1
        self.end_phase = not self.pile
        self._tasks[:] = [(END_TURN,), (REFILL,), (ENCOUNTER,)]
        self._note(("turn", self.to_play, self.turn, self.end_phase))
        self._decide(Decision.PLAY)

    def _op_end_turn(self, task: Task) -> None:
        p = self.to_play
        if not self.pile and not self._anyone_can_capture():
            self._start_game_end()
            return
        if self.marmot:
            self.marmot = False
            self._note(("marmot", p))
        else:
            self.to_play = 1 - p
        self._begin_turn()

    def _anyone_can_capture(self) -> bool:
        up = self.face_up_mask
        return any(MATCH[t] & up for t in self.hands[0]) or any(
            MATCH[t] & up for t in self.hands[1])

    def _op_refill(self, task: Task) -> None:
        p = self.to_play
        hand, pile = self.hands[p], self.pile
        while pile and len(hand) < self.hand_size[p]:
            self._draw_to_hand(p)

    def _draw_to_hand(self, p: int) -> None:
        tile = self.pile.pop()
        insort(self.hands[p], tile)
        self._note(("draw", p, tile))

    # -- step 1-3: play, capture, second chance
    def _apply_play(self, tile: int) -> None:
        p = self.to_play
        if self.must_play[p] >= 0:
            self.must_play = pair_with(self.must_play, p, -1)
        self.hands[p].remove(tile)
        self._note(("play", p, tile))
        if MATCH[tile] & self.face_up_mask:
            self._decide(Decision.CAPTURE, (tile,))
            return
        self._display_add(tile)
        if not self.pile:
            return
        drawn = self.pile.pop()
        self._note(("second", p, drawn))
        if MATCH[drawn] & self.face_up_mask:
            self._decide(Decision.CAPTURE, (drawn,))
            return
        self._display_add(drawn)
        self._gain_rainbow(p, BY_TURN)

    def _apply_pass(self, _arg: int) -> None:
        if self.must_play[self.to_play] >= 0:
            self.must_play = pair_with(self.must_play, self.to_play, -1)
        self._note(("pass", self.to_play))

    def _apply_capture(self, target: int) -> None:
        p, source = self.to_play, self.context[0]
        self._note(("capture", p, source, target))
        self._display_take(target)
        # The captured tile goes in first, then the capturing one (rules.md §3 step 2);
        # the stack runs the last pushed first.
        self._tasks += [(PUT, p, source, BY_TURN), (PUT, p, target, BY_TURN)]

    def _display_add(self, tile: int) -> None:
        self.face_up.append(tile)
        self.face_down.append(-1)
        self.face_up_mask |= 1 << tile
        self._note(("discard", self.to_play, tile))

    def _display_take(self, tile: int) -> None:
        i = self.face_up.index(tile)
        self.face_up_mask ^= 1 << tile
        beneath = self.face_down[i]
        if beneath >= 0:
            self.face_up[i], self.face_down[i] = beneath, -1
            self.face_up_mask |= 1 << beneath
            self._note(("flip", beneath))
        else:
            del self.face_up[i], self.face_down[i]

    # -- putting tiles into a panorama (rules.md §4, §5)
    def _op_put(self, task: Task) -> None:
        _, p, tile, mode = task
        bit = 1 << tile
        if self.evil_player == p and self.evil_cell == tile:
            self._remove(p, tile, "forbidden")
        elif self.rainbow_cells[p] & bit:
            if self.blocked[p] & bit:
                self._remove(p, tile, "blocked")
            elif self.rainbow_targets(p):
                self.to_play = p
                self._decide(Decision.MOVE_RAINBOW, (tile, mode))
            else:
                self.rainbow_cells[p] ^= bit
                self.rainbows_out += 1
                self.land[p] |= bit
                self._note(("rainbow_out", p, tile))
                self._placed(p, tile, mode)
        else:
            self.land[p] |= bit
            self._note(("place", p, tile))
            self._placed(p, tile, mode)

    def _remove(self, p: int, tile: int, why: str) -> None:
        self.removed |= 1 << tile
        self._note(("removed", p, tile, why))

    def _apply_shift(self, cell: int) -> None:
        p = self.to_play
        tile, mode = self.context
        self.rainbow_cells[p] ^= (1 << tile) | (1 << cell)
        self.land[p] |= 1 << tile
        self._note(("shift", p, tile, cell))
        self._placed(p, cell, mode)
        self._placed(p, tile, mode)

    def _gain_rainbow(self, p: int, mode: int) -> bool:
        if not self.rainbow_supply or not self.rainbow_targets(p):
            self._note(("no_rainbow", p))
            return False
        self._decide(Decision.PLACE_RAINBOW, (mode,))
        return True

    def _apply_rainbow(self, cell: int) -> None:
        p = self.to_play
        self.rainbow_supply -= 1
        self.rainbow_cells[p] |= 1 << cell
        self._note(("rainbow", p, cell))
        self._placed(p, cell, self.context[0])

    def _placed(self, p: int, cell: int, mode: int) -> None:
        """Note that ``cell`` was just filled, for the squares it may complete."""
        if mode == BY_TURN:
            self._touched |= 1 << cell
        elif mode == BY_EFFECT and self.options.firefly:
            self._effect_formed(p, cell)

    # -- the end (rules.md §8, §11, §12)
    def _start_game_end(self) -> None:
        self._tasks[:] = [(FINISH,), (SQUIRREL, 1), (SQUIRREL, 0), (COVER,)]

    def _op_cover(self, task: Task) -> None:
        holder = self.evil_player
        if self.options.firefly or holder < 0 or not self.spirits[holder]:
            return
        self.to_play = 1 - holder
        self._decide(Decision.COVER, (holder,))

    def _apply_cover(self, spirit: int) -> None:
        holder = self.context[0]
        self.covered = pair_with(self.covered, holder, spirit)
        self._note(("cover", self.to_play, holder, spirit))

    def _op_squirrel(self, task: Task) -> None:
        p = task[1]
        owns = any(s == Spirit.SQUIRREL for s, _ in self.spirits[p])
        if not owns or self.covered[p] == Spirit.SQUIRREL or not self.hands[p]:
            return
        tiles, self.hands[p] = self.hands[p], []
        self._note(("squirrel", p, tuple(tiles)))
        self._tasks += [(PUT, p, t, BY_SQUIRREL) for t in reversed(tiles)]

    def _op_finish(self, task: Task) -> None:
        totals = [score(self, 0).total, score(self, 1).total]
        winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
        self._finish(END_NORMAL, winner)

    def _finish(self, reason: str, winner: int | None) -> None:
        self.is_over, self.winner, self.end_reason = True, winner, reason
        self.decision, self.context, self._tasks, self._legal = None, (), [], []
        self._note(("end", reason, winner))

    # ----------------------------------------------------------------- messages
    def _why_illegal(self, mv: object) -> str:
        return why_illegal(observe(self, self.to_play), mv)


_OP_TABLE: dict[int, Callable[[Game, Task], None]] = {
    PUT: Game._op_put, ENCOUNTER: Game._op_encounter, EFFECT: Game._op_effect,
    EVIL: Game._op_evil, REFILL: Game._op_refill, END_TURN: Game._op_end_turn,
    COVER: Game._op_cover, SQUIRREL: Game._op_squirrel, FINISH: Game._op_finish,
    PLACE_FIREFLIES: Game._op_place_fireflies,
}
_OPS = [_OP_TABLE[i] for i in range(len(_OP_TABLE))]
_APPLY_TABLE: dict[MoveKind, Callable[[Game, int], None]] = {
    _K.PLAY: Game._apply_play, _K.PASS: Game._apply_pass, _K.CAPTURE: Game._apply_capture,
    _K.RAINBOW: Game._apply_rainbow, _K.SHIFT: Game._apply_shift, _K.DRAW: Game._apply_draw,
    _K.TAKE: Game._apply_take, _K.KEEP: Game._apply_keep, _K.SQUARE: Game._apply_square,
    _K.DEER: Game._apply_deer, _K.BEETLE: Game._apply_beetle, _K.VIPER: Game._apply_viper,
    _K.RENARD: Game._apply_renard, _K.EVIL: Game._apply_evil, _K.COVER: Game._apply_cover,
}
_APPLY = [_APPLY_TABLE[k] for k in MoveKind]

__all__ = ["NAMES", "Game"]

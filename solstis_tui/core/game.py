"""The Solstis rules engine: a full game state that advances one decision at a time.

The game runs as a small machine: ``play(move)`` applies the answer to the pending decision,
then runs the queued steps of the turn (putting tiles into a panorama, encountering a
spirit, refilling, ending the turn...) until the next decision or the end. A decision with a
single legal move is applied at once and recorded in ``history`` as automatic.
"""

from __future__ import annotations

from bisect import insort

from . import rng as _rng
from .board import (
    ALL,
    CELL_SQUARES,
    CELLS,
    MATCH,
    NAMES,
    NEIGHBOURS,
    SQUARE_CELLS,
    bits,
    spread,
)
from .encounter import SpiritSteps
from .errors import IllegalMove
from .legal import compute_legal
from .moves import Decision, Move, MoveKind
from .options import Options
from .spirits import Spirit, spirit_set
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
    FIREFLIES,
    HAND_SIZE,
    PUT,
    RAINBOWS,
    REFILL,
    SQUIRREL,
    pair_with,
)

_K = MoveKind


class Game(SpiritSteps):
    """A whole game of Solstis, hidden parts included. See the package docstring."""

    __slots__ = (
        "_draws",
        "_hist",
        "_legal",
        "_log",
        "_nhist",
        "_nlog",
        "blocked",
        "covered",
        "ctx",
        "decision",
        "down",
        "end_phase",
        "end_reason",
        "evil_at",
        "evil_cell",
        "evil_new",
        "fireflies",
        "firefly_supply",
        "formed",
        "hand_size",
        "hands",
        "is_over",
        "land",
        "marmot",
        "must_play",
        "occ",
        "options",
        "pile",
        "rain",
        "rainbows",
        "rainbows_out",
        "removed",
        "rng",
        "seed",
        "seen",
        "sline",
        "spile",
        "spirits",
        "tasks",
        "to_play",
        "touched",
        "turn",
        "up",
        "upmask",
        "winner",
    )

    # ----------------------------------------------------------------- construction
    @classmethod
    def new(cls, seed: int | None = None, options: Options | None = None, *,
            legacy: bool = False) -> Game:
        """A freshly dealt game (RULES.md §2). ``seed`` None draws a secret one (128 bits
        from the OS). The deal comes from a generator keyed with the seed, so what players
        see reveals nothing of it. ``legacy`` deals as game format 1 did (SplitMix64 from
        the seed): only for replaying games saved in that format."""
        options = options or Options()
        if seed is None:
            seed = _rng.new_secret()
        tiles = list(CELLS)
        spirits = list(spirit_set(options.firefly, options.beginner))
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
        game.rng = state
        for _ in range(6):
            game.down.append(tiles.pop())
        for _ in range(6):
            tile = tiles.pop()
            game.up.append(tile)
            game.upmask |= 1 << tile
        for p in (0, 1):
            game.hands[p] = sorted(tiles.pop() for _ in range(HAND_SIZE))
        game.pile = tiles
        game.spile = spirits
        game._begin_turn()
        return game

    @classmethod
    def _empty(cls, options: Options, seed: int, draws: _rng.Draws) -> Game:
        """A game with nothing dealt. ``draws`` is the generator of its later random draws
        (the Fly); ``rng`` starts at 0 for a keyed one, at the seed's state for SplitMix."""
        game = cls.__new__(cls)
        game.options, game.seed, game._draws = options, seed, draws
        game.rng = 0 if draws.keyed else _rng.seed_state(seed)
        game.pile, game.up, game.down, game.upmask = [], [], [], 0
        game.hands, game.hand_size = [[], []], (HAND_SIZE, HAND_SIZE)
        game.land, game.rain, game.occ, game.blocked = [0, 0], [0, 0], [0, 0], [0, 0]
        game.spirits, game.covered, game.fireflies = ((), ()), (-1, -1), (0, 0)
        game.spile, game.sline = [], []
        game.rainbows, game.rainbows_out, game.firefly_supply = RAINBOWS, 0, FIREFLIES
        game.removed, game.evil_at, game.evil_cell = 0, -1, -1
        game.must_play, game.seen = (-1, -1), (0, 0)
        game.to_play, game.decision, game.ctx, game.tasks = 0, None, (), []
        game.touched = game.formed = 0
        game.evil_new = game.marmot = game.end_phase = False
        game.turn, game._hist, game._nhist, game._log, game._nlog = 0, [], 0, [], 0
        game.is_over, game.winner, game.end_reason = False, None, None
        game._legal = []
        return game

    def copy(self) -> Game:
        """An independent copy (cheap: bots make thousands)."""
        g = Game.__new__(Game)
        g.options, g.seed, g.rng, g._draws = self.options, self.seed, self.rng, self._draws
        g.pile, g.up, g.down, g.upmask = self.pile[:], self.up[:], self.down[:], self.upmask
        g.hands = [self.hands[0][:], self.hands[1][:]]
        g.hand_size = self.hand_size
        g.land, g.rain, g.occ, g.blocked = self.land[:], self.rain[:], self.occ[:], self.blocked[:]
        g.spirits, g.covered, g.fireflies = self.spirits, self.covered, self.fireflies
        g.spile, g.sline = self.spile[:], self.sline[:]
        g.rainbows, g.rainbows_out, g.firefly_supply = (
            self.rainbows, self.rainbows_out, self.firefly_supply)
        g.removed, g.evil_at, g.evil_cell = self.removed, self.evil_at, self.evil_cell
        g.must_play, g.seen = self.must_play, self.seen
        g.to_play, g.decision, g.ctx, g.tasks = (
            self.to_play, self.decision, self.ctx, self.tasks[:])
        g.touched, g.formed = self.touched, self.formed
        g.evil_new, g.marmot, g.end_phase = self.evil_new, self.marmot, self.end_phase
        g.turn, g._hist, g._nhist, g._log, g._nlog = (
            self.turn, self._hist, self._nhist, self._log, self._nlog)
        g.is_over, g.winner, g.end_reason = self.is_over, self.winner, self.end_reason
        g._legal = self._legal
        return g

    # ----------------------------------------------------------------- public API
    def legal_moves(self) -> list[Move]:
        """Every legal move for the pending decision; empty only when the game is over."""
        return list(self._legal)

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

    def observation(self, player: int):
        """What ``player`` may know (see ``Observation``)."""
        from .observation import observe

        return observe(self, player)

    def score(self, player: int):
        """The star breakdown ``player``'s panorama would score now (final once over)."""
        from .scoring import score

        return score(self, player)

    def to_json(self) -> str:
        """The whole game as versioned, human-readable JSON."""
        from .serialize import game_to_json

        return game_to_json(self)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """A game from ``to_json`` output or a hand-made position; InvalidPosition if bad."""
        from .serialize import game_from_json

        return game_from_json(text)

    @property
    def history(self) -> list[tuple[int, Move, bool]]:
        """Every move so far as (player, move, automatic), automatic ones included."""
        return self._hist[: self._nhist]

    @history.setter
    def history(self, moves: list[tuple[int, Move, bool]]) -> None:
        self._hist, self._nhist = list(moves), len(moves)

    @property
    def log(self) -> list[tuple]:
        """What happened, as event tuples (see ``events``)."""
        return self._log[: self._nlog]

    @log.setter
    def log(self, events: list[tuple]) -> None:
        self._log, self._nlog = list(events), len(events)

    # Copies share the history and log lists; each list only grows, and a game that is
    # not at a shared list's tip forks its own before appending.
    def _record(self, mv: Move, auto: bool) -> None:
        hist = self._hist
        if len(hist) != self._nhist:
            hist = self._hist = hist[: self._nhist]
        hist.append((self.to_play, mv, auto))
        self._nhist += 1

    def _note(self, event: tuple) -> None:
        log = self._log
        if len(log) != self._nlog:
            log = self._log = log[: self._nlog]
        log.append(event)
        self._nlog += 1

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
        tasks = self.tasks
        while tasks and self.decision is None and not self.is_over:
            task = tasks.pop()
            _OPS[task[0]](self, task)

    def _decide(self, decision: Decision, ctx: tuple = ()) -> None:
        self.decision = decision
        self.ctx = ctx
        self._legal = self._compute_legal()

    #: The legal moves of the pending decision, from the state alone.
    _compute_legal = compute_legal

    # ----------------------------------------------------------------- turn steps
    def _begin_turn(self) -> None:
        self.turn += 1
        self.end_phase = not self.pile
        self.tasks[:] = [(END_TURN,), (REFILL,), (ENCOUNTER,)]
        self._note(("turn", self.to_play, self.turn, self.end_phase))
        self._decide(Decision.PLAY)

    def _op_end_turn(self, task: tuple) -> None:
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
        up = self.upmask
        return any(MATCH[t] & up for t in self.hands[0]) or any(
            MATCH[t] & up for t in self.hands[1])

    def _op_refill(self, task: tuple) -> None:
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
        if MATCH[tile] & self.upmask:
            self._decide(Decision.CAPTURE, (tile,))
            return
        self._display_add(tile)
        if not self.pile:
            return
        drawn = self.pile.pop()
        self._note(("second", p, drawn))
        if MATCH[drawn] & self.upmask:
            self._decide(Decision.CAPTURE, (drawn,))
            return
        self._display_add(drawn)
        self._gain_rainbow(p, BY_TURN)

    def _apply_pass(self, _arg: int) -> None:
        if self.must_play[self.to_play] >= 0:
            self.must_play = pair_with(self.must_play, self.to_play, -1)
        self._note(("pass", self.to_play))

    def _apply_capture(self, target: int) -> None:
        p, source = self.to_play, self.ctx[0]
        self._note(("capture", p, source, target))
        self._display_take(target)
        self.tasks += [(PUT, p, target, BY_TURN), (PUT, p, source, BY_TURN)]

    def _display_add(self, tile: int) -> None:
        self.up.append(tile)
        self.down.append(-1)
        self.upmask |= 1 << tile
        self._note(("discard", self.to_play, tile))

    def _display_take(self, tile: int) -> None:
        i = self.up.index(tile)
        self.upmask ^= 1 << tile
        beneath = self.down[i]
        if beneath >= 0:
            self.up[i], self.down[i] = beneath, -1
            self.upmask |= 1 << beneath
            self._note(("flip", beneath))
        else:
            del self.up[i], self.down[i]

    # -- putting tiles into a panorama (RULES.md §4, §5)
    def _op_put(self, task: tuple) -> None:
        _, p, tile, mode = task
        bit = 1 << tile
        if self.evil_at == p and self.evil_cell == tile:
            self._remove(p, tile, "forbidden")
        elif self.rain[p] & bit:
            if self.blocked[p] & bit:
                self._remove(p, tile, "blocked")
            elif self._rainbow_cells(p):
                self.to_play = p
                self._decide(Decision.MOVE_RAINBOW, (tile, mode))
            else:
                self.rain[p] ^= bit
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
        tile, mode = self.ctx
        self.rain[p] ^= (1 << tile) | (1 << cell)
        self.land[p] |= 1 << tile
        self._note(("shift", p, tile, cell))
        self._placed(p, cell, mode)
        self._placed(p, tile, mode)

    def _gain_rainbow(self, p: int, mode: int) -> bool:
        if not self.rainbows or not self._rainbow_cells(p):
            self._note(("no_rainbow", p))
            return False
        self._decide(Decision.PLACE_RAINBOW, (mode,))
        return True

    def _apply_rainbow(self, cell: int) -> None:
        p = self.to_play
        self.rainbows -= 1
        self.rain[p] |= 1 << cell
        self._note(("rainbow", p, cell))
        self._placed(p, cell, self.ctx[0])

    def _rainbow_cells(self, p: int) -> int:
        filled = self.land[p] | self.rain[p]
        empty = ALL & ~filled
        if self.evil_at == p and self.evil_cell >= 0:
            empty &= ~(1 << self.evil_cell)
        return empty & spread(filled) if filled else empty

    def _placed(self, p: int, cell: int, mode: int) -> None:
        """Note that ``cell`` was just filled, for the squares it may complete."""
        if mode == BY_TURN:
            self.touched |= 1 << cell
        elif mode == BY_EFFECT and self.options.firefly:
            filled = self.land[p] | self.rain[p]
            for sq in bits(CELL_SQUARES[cell] & ~self.occ[p]):
                if filled & SQUARE_CELLS[sq] == SQUARE_CELLS[sq]:
                    self._add_firefly(p, sq)

    def _isolated(self, p: int) -> int:
        filled = self.land[p] | self.rain[p]
        return sum(1 << t for t in bits(self.land[p]) if not NEIGHBOURS[t] & filled)

    # -- the end (RULES.md §8, §11, §12)
    def _start_game_end(self) -> None:
        self.tasks[:] = [(FINISH,), (SQUIRREL, 1), (SQUIRREL, 0), (COVER,)]

    def _op_cover(self, task: tuple) -> None:
        holder = self.evil_at
        if self.options.firefly or holder < 0 or not self.spirits[holder]:
            return
        self.to_play = 1 - holder
        self._decide(Decision.COVER, (holder,))

    def _apply_cover(self, spirit: int) -> None:
        holder = self.ctx[0]
        self.covered = pair_with(self.covered, holder, spirit)
        self._note(("cover", self.to_play, holder, spirit))

    def _op_squirrel(self, task: tuple) -> None:
        p = task[1]
        owns = any(s == Spirit.SQUIRREL for s, _ in self.spirits[p])
        if not owns or self.covered[p] == Spirit.SQUIRREL or not self.hands[p]:
            return
        tiles, self.hands[p] = self.hands[p], []
        self._note(("squirrel", p, tuple(tiles)))
        self.tasks += [(PUT, p, t, BY_SQUIRREL) for t in reversed(tiles)]

    def _op_finish(self, task: tuple) -> None:
        from .scoring import score

        totals = [score(self, 0).total, score(self, 1).total]
        winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
        self._finish(END_NORMAL, winner)

    def _finish(self, reason: str, winner: int | None) -> None:
        self.is_over, self.winner, self.end_reason = True, winner, reason
        self.decision, self.ctx, self.tasks, self._legal = None, (), [], []
        self._note(("end", reason, winner))

    # ----------------------------------------------------------------- messages
    def _why_illegal(self, mv: object) -> str:
        from .explain import why_illegal

        return why_illegal(self, mv)


_OPS = {
    PUT: Game._op_put, ENCOUNTER: Game._op_encounter, EFFECT: Game._op_effect,
    EVIL: Game._op_evil, REFILL: Game._op_refill, END_TURN: Game._op_end_turn,
    COVER: Game._op_cover, SQUIRREL: Game._op_squirrel, FINISH: Game._op_finish,
}
_OPS = [_OPS[i] for i in range(len(_OPS))]
_APPLY = {
    _K.PLAY: Game._apply_play, _K.PASS: Game._apply_pass, _K.CAPTURE: Game._apply_capture,
    _K.RAINBOW: Game._apply_rainbow, _K.SHIFT: Game._apply_shift, _K.DRAW: Game._apply_draw,
    _K.TAKE: Game._apply_take, _K.KEEP: Game._apply_keep, _K.SQUARE: Game._apply_square,
    _K.DEER: Game._apply_deer, _K.BEETLE: Game._apply_beetle, _K.VIPER: Game._apply_viper,
    _K.RENARD: Game._apply_renard, _K.EVIL: Game._apply_evil, _K.COVER: Game._apply_cover,
}
_APPLY = [_APPLY[k] for k in MoveKind]

__all__ = ["NAMES", "Game"]

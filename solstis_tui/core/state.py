"""The state of a game of Solstis: every attribute, what it holds and in which encoding.

This is the contract between the engine and the code that reads it (bots, widgets, tests).
Bots read these attributes directly (no wrapper on the hot path); anything starting with
``_`` belongs to ``solstis_tui.core`` alone. Besides the data and its read-only queries,
``State`` holds the few primitives that every step of the turn machine shares (deciding,
drawing, finishing); ``Game`` (game.py) and the spirits' steps (encounter.py) run the
machine with them.

Encodings used throughout (see board.py):

- A **cell** (or the land tile that fits it: one tile per cell) is an ``int`` index on a
  padded 6x10 grid, ``(row - 1) * 10 + (column - 1)``: the 48 valid ones lie between 0
  (row 1, column 1) and 57 (row 6, column 8). ``cell_name`` / ``parse_cell`` convert to and
  from names like ``"3-5"`` (row-column).
- A **square** (2x2 block of cells) is named by its lower-left cell.
- A **mask** is an ``int`` whose bit ``i`` stands for cell (or square) ``i``; ``board.bits``
  lists the set bits.
- A **spirit** is held as its ``Spirit`` id, a plain ``int`` (``Spirit(i)`` names it),
  except in ``spirits[p]``, whose pairs hold ``Spirit`` members.
- A **player** is 0 or 1; per-player values are indexed by player. Pairs that change
  rarely are tuples (copies share them); lists are copied by ``copy``. (The engine's hot
  path reads a pair as ``pair[1] if p else pair[0]``: the compiled engine holds a pair's
  two ints unboxed, and indexing it by a variable would build a Python tuple first.)
- ``-1`` stands for "none" in the int-valued fields that say so.

The rules are in ``solstis_tui/rules.md`` (shipped with the package); section numbers
(§) refer to it.
"""
from __future__ import annotations

from typing import Final

from . import rng as _rng
from .board import ALL, GRID, MATCH, NEIGHBOURS, bits, spread
from .events import Drew, EndReason, Event, Flipped, GameEnded, RainbowLost, TurnBegan
from .moves import (
    BEETLE_DECISION,
    BEETLE_KIND,
    CAPTURE_DECISION,
    CAPTURE_KIND,
    COVER_DECISION,
    COVER_KIND,
    DEER_DECISION,
    DEER_KIND,
    DRAW_KIND,
    ENCOUNTER_DECISION,
    EVIL_DECISION,
    EVIL_KIND,
    KEEP_DECISION,
    KEEP_KIND,
    MOVE_RAINBOW_DECISION,
    MOVES,
    PASS_KIND,
    PLACE_RAINBOW_DECISION,
    PLAY_DECISION,
    PLAY_KIND,
    RAINBOW_KIND,
    RENARD_DECISION,
    RENARD_KIND,
    SHIFT_KIND,
    SQUARE_DECISION,
    SQUARE_KIND,
    TAKE_KIND,
    VIPER_DECISION,
    VIPER_KIND,
    Decision,
    Move,
    cell_moves,
    listed_moves,
)
from .options import Options
from .spirits import EVIL_ID, Spirit
from .steps import (
    BY_EFFECT,
    BY_SQUIRREL,
    BY_TURN,
    ENCOUNTER,
    END_TURN,
    FIREFLIES,
    HAND_SIZE,
    PUT,
    RAINBOWS,
    REFILL,
)

#: The legal moves while nothing is pending: one shared list, never changed (the engine
#: only ever replaces a game's list of legal moves).
NO_MOVES: Final[list[Move]] = []
_PASS: Final = MOVES[PASS_KIND][0]
_DRAW: Final = MOVES[DRAW_KIND][0]

#: A queued step of the turn machine: ``(op, ...)`` with op from steps.py.
Task = tuple[int, ...]
#: The spirits in one panorama: (spirit, square) pairs, in the order they arrived.
HeldSpirits = tuple[tuple[Spirit, int], ...]
#: One history entry: (player, move, automatic).
HistoryEntry = tuple[int, Move, bool]


# The steps every turn queues (shared: a queued step is never changed).
_END_TURN_STEP: Final[Task] = (END_TURN,)
_REFILL_STEP: Final[Task] = (REFILL,)
_ENCOUNTER_STEP: Final[Task] = (ENCOUNTER,)
#: Contexts of one number, made once (a context is never changed): ``SINGLE[i]`` is ``(i,)``.
SINGLE: Final[tuple[tuple[int, ...], ...]] = tuple((i,) for i in range(GRID))
#: Every step putting a tile into a panorama, made once (shared like the steps above):
#: ``PUT_STEPS[mode][player][tile]`` is ``(PUT, player, tile, mode)``.
PUT_STEPS: Final[tuple[tuple[tuple[Task, ...], ...], ...]] = tuple(
    tuple(tuple((PUT, p, tile, mode) for tile in range(GRID)) for p in (0, 1))
    for mode in (BY_TURN, BY_EFFECT, BY_SQUIRREL))


class State:
    """Everything about one game, hidden parts included. Attributes, by topic:

    **The game**
    ``options`` variant (beginner, Firefly); ``seed`` the deal's seed (secret unless chosen);
    ``turn`` turn number from 1; ``to_play`` the player deciding now (for the end-of-game
    cover choice, the one who covers); ``decision`` the pending ``Decision`` (None when
    over); ``context`` public details of that decision: CAPTURE ``(tile,)`` the capturing
    tile; PLACE_RAINBOW ``(mode,)``; MOVE_RAINBOW ``(tile, mode)`` the tile displacing the
    rainbow; KEEP the drawn spirits; SQUARE ``(spirit,)`` the spirit to place; COVER
    ``(holder,)`` the Evil Spirit's holder (mode: how the tile came, steps.BY_*).
    ``is_over``, ``winner`` (player or None for a tie), ``end_reason`` (an ``EndReason``).

    **Tiles** (cell indices, see above)
    ``hands[p]`` sorted list of p's tiles; ``hand_size[p]`` the size p refills to (3; 4
    with the Bear); ``pile`` the land pile, top last; ``face_up[i]`` / ``face_down[i]`` the
    display's i-th pile: its face-up tile and the face-down tile beneath (-1: none);
    ``face_up_mask`` mask of ``face_up``; ``removed`` mask of tiles out of the game.
    ``must_play[p]`` the tile a Renard forces p to play next (-1: none);
    ``revealed[p]`` mask of the opponent's tiles p saw with a Renard reveal (§9).

    **Panoramas** (per player, masks of cells unless said)
    ``land[p]`` cells holding a land tile; ``rainbow_cells[p]`` cells holding a rainbow;
    ``occupied_squares[p]`` mask of squares holding a spirit or a firefly;
    ``blocked[p]`` the cells of those squares (a tile arriving for a rainbow there cannot
    displace it and is removed, §4);
    ``spirits[p]`` (spirit, square) pairs; ``fireflies[p]`` mask of firefly squares;
    ``covered[p]`` the spirit covered at the end (§12, -1: none).

    **Supplies and spirits**
    ``spirit_pile`` face-down spirits, top last; ``spirit_line`` face-up spirits on offer;
    ``rainbow_supply`` rainbows left; ``rainbows_out`` rainbows put back in the box when
    their cell was filled with no free cell to move to; ``firefly_supply`` fireflies left;
    ``evil_player`` base: who holds the Evil Spirit, Firefly: in whose panorama it sits
    (-1: nobody); ``evil_cell`` Firefly: the cell it forbids (-1: none);
    ``marmot`` the player to play takes another turn after this one (§9 Marmot);
    ``end_phase`` the land pile was empty at the start of this turn (§8).

    **Hidden randomness** ``draw_state``: the state of the generator of later random
    draws (the Fly's), hidden like the pile.
    """

    __slots__ = (
        "_before_end",
        "_draws",
        "_evil_new",
        "_formed",
        "_hist",
        "_legal",
        "_log",
        "_nhist",
        "_nlog",
        "_quiet",
        "_tasks",
        "_touched",
        "blocked",
        "context",
        "covered",
        "decision",
        "draw_state",
        "end_phase",
        "end_reason",
        "evil_cell",
        "evil_player",
        "face_down",
        "face_up",
        "face_up_mask",
        "fireflies",
        "firefly_supply",
        "hand_size",
        "hands",
        "is_over",
        "land",
        "marmot",
        "must_play",
        "occupied_squares",
        "options",
        "pile",
        "rainbow_cells",
        "rainbow_supply",
        "rainbows_out",
        "removed",
        "revealed",
        "seed",
        "spirit_line",
        "spirit_pile",
        "spirits",
        "to_play",
        "turn",
        "winner",
    )

    options: Options
    seed: int
    turn: int
    to_play: int
    decision: Decision | None
    context: tuple[int, ...]
    is_over: bool
    winner: int | None
    end_reason: EndReason | None
    hands: list[list[int]]
    hand_size: tuple[int, int]
    pile: list[int]
    face_up: list[int]
    face_down: list[int]
    face_up_mask: int
    removed: int
    must_play: tuple[int, int]
    revealed: tuple[int, int]
    land: list[int]
    rainbow_cells: list[int]
    occupied_squares: list[int]
    blocked: list[int]
    spirits: tuple[HeldSpirits, HeldSpirits]
    fireflies: tuple[int, int]
    covered: tuple[int, int]
    spirit_pile: list[int]
    spirit_line: list[int]
    rainbow_supply: int
    rainbows_out: int
    firefly_supply: int
    evil_player: int
    evil_cell: int
    marmot: bool
    end_phase: bool
    draw_state: int
    # Core only: the generator of later draws; the turn machine's queued steps (a stack,
    # last runs first), the cells filled this turn, the squares formed and waiting for a
    # spirit (Firefly: then for fireflies, until the spirit's effect is over), whether the
    # Evil Spirit was just drawn; history and log storage (shared by
    # copies, see ``_record``); the legal moves of the pending decision.
    _draws: _rng.Draws
    _tasks: list[Task]
    _touched: int
    _formed: int
    _evil_new: bool
    _hist: list[HistoryEntry]
    _nhist: int
    _log: list[Event]
    _nlog: int
    _legal: list[Move]
    _quiet: bool
    _before_end: State | None

    # ----------------------------------------------------------------- construction
    def _reset(self, options: Options, seed: int, draws: _rng.Draws) -> None:
        """Make this a game with nothing dealt (``Game._empty`` makes one). ``draws`` is the
        generator of its later random draws (the Fly); ``draw_state`` starts at 0 for a
        keyed one, at the seed's state for SplitMix."""
        game = self
        game.options, game.seed, game._draws = options, seed, draws
        game.draw_state = 0 if draws.keyed else _rng.seed_state(seed)
        game.pile, game.face_up, game.face_down, game.face_up_mask = [], [], [], 0
        game.hands, game.hand_size = [[], []], (HAND_SIZE, HAND_SIZE)
        game.land, game.rainbow_cells = [0, 0], [0, 0]
        game.occupied_squares, game.blocked = [0, 0], [0, 0]
        game.spirits, game.covered, game.fireflies = ((), ()), (-1, -1), (0, 0)
        game.spirit_pile, game.spirit_line = [], []
        game.rainbow_supply, game.rainbows_out, game.firefly_supply = RAINBOWS, 0, FIREFLIES
        game.removed, game.evil_player, game.evil_cell = 0, -1, -1
        game.must_play, game.revealed = (-1, -1), (0, 0)
        game.to_play, game.decision, game.context, game._tasks = 0, None, (), []
        game._touched = game._formed = 0
        game._evil_new = game.marmot = game.end_phase = False
        game.turn, game._hist, game._nhist, game._log, game._nlog = 0, [], 0, [], 0
        game.is_over, game.winner, game.end_reason = False, None, None
        game._legal = []
        game._quiet = False
        game._before_end = None

    def _copy_into(self, g: State) -> None:
        """Make ``g``, a new game, an independent copy of this one (``Game.copy``)."""
        g.options, g.seed, g.draw_state, g._draws = (
            self.options, self.seed, self.draw_state, self._draws)
        g.pile, g.face_up, g.face_down, g.face_up_mask = (
            self.pile[:], self.face_up[:], self.face_down[:], self.face_up_mask)
        g.hands = [self.hands[0][:], self.hands[1][:]]
        g.hand_size = self.hand_size
        g.land, g.rainbow_cells = self.land[:], self.rainbow_cells[:]
        g.occupied_squares, g.blocked = self.occupied_squares[:], self.blocked[:]
        g.spirits, g.covered, g.fireflies = self.spirits, self.covered, self.fireflies
        g.spirit_pile, g.spirit_line = self.spirit_pile[:], self.spirit_line[:]
        g.rainbow_supply, g.rainbows_out, g.firefly_supply = (
            self.rainbow_supply, self.rainbows_out, self.firefly_supply)
        g.removed, g.evil_player, g.evil_cell = self.removed, self.evil_player, self.evil_cell
        g.must_play, g.revealed = self.must_play, self.revealed
        g.to_play, g.decision, g.context, g._tasks = (
            self.to_play, self.decision, self.context, self._tasks[:])
        g._touched, g._formed = self._touched, self._formed
        g._evil_new, g.marmot, g.end_phase = self._evil_new, self.marmot, self.end_phase
        g.turn, g._hist, g._nhist, g._log, g._nlog = (
            self.turn, self._hist, self._nhist, self._log, self._nlog)
        g.is_over, g.winner, g.end_reason = self.is_over, self.winner, self.end_reason
        g._legal = self._legal
        g._quiet = self._quiet
        g._before_end = self._before_end  # never changed once set: shared

    # ----------------------------------------------------------------- queries
    @property
    def legal(self) -> list[Move]:
        """The legal moves of the pending decision, without a copy (do not change it; the
        hot path of a search reads this). Empty only when the game is over."""
        return self._legal

    def legal_moves(self) -> list[Move]:
        """Every legal move for the pending decision, as a new list; empty only when the
        game is over."""
        return list(self._legal)

    def rainbow_targets(self, player: int) -> int:
        """Mask of the cells of ``player``'s panorama where a rainbow may go now: empty,
        next to a filled cell (any empty cell in an empty panorama), not forbidden by the
        Evil Spirit (§4)."""
        filled = self.land[player] | self.rainbow_cells[player]
        empty = ALL & ~filled
        if self.evil_player == player and self.evil_cell >= 0:
            empty &= ~(1 << self.evil_cell)
        return empty & spread(filled) if filled else empty

    def isolated_land(self, player: int) -> int:
        """Mask of ``player``'s land tiles with no filled neighbour (the Viper's targets)."""
        filled = self.land[player] | self.rainbow_cells[player]
        return sum(1 << t for t in bits(self.land[player]) if not NEIGHBOURS[t] & filled)

    @property
    def legacy(self) -> bool:
        """Dealt as games of format 1 were (SplitMix64), not by the keyed generator:
        ``Game.new(seed, options, legacy=game.legacy)`` deals this game again."""
        return not self._draws.keyed

    @property
    def history(self) -> list[HistoryEntry]:
        """Every move so far as (player, move, automatic), automatic ones included."""
        return self._hist[: self._nhist]

    @history.setter
    def history(self, moves: list[HistoryEntry]) -> None:
        self._hist, self._nhist = list(moves), len(moves)

    @property
    def log(self) -> list[Event]:
        """What happened, as typed events (see events.py), hidden details included."""
        return self._log[: self._nlog]

    @log.setter
    def log(self, events: list[Event]) -> None:
        self._log, self._nlog = list(events), len(events)

    # Copies share the history and log lists; each list only grows, and a game that is
    # not at a shared list's tip forks its own before appending. A quiet game (a bot's
    # imaginary world, ``Dealer(quiet=True)``) records neither.
    def _record(self, mv: Move, auto: bool) -> None:
        if self._quiet:
            return
        hist = self._hist
        if len(hist) != self._nhist:
            hist = self._hist = hist[: self._nhist]
        hist.append((self.to_play, mv, auto))
        self._nhist += 1

    def _note(self, event: Event) -> None:
        """Append ``event`` to the log. Callers check ``_quiet`` first: a search's quiet
        copies keep no log, and building an event there would cost the search its speed."""
        if self._quiet:
            return
        log = self._log
        if len(log) != self._nlog:
            log = self._log = log[: self._nlog]
        log.append(event)
        self._nlog += 1


    # ----------------------------------------------------------------- the machine's primitives
    # Shared by the turn's steps (game.py) and the spirits' steps (encounter.py).
    def _compute_legal(self) -> list[Move]:
        """The legal moves of the pending decision, from the state alone (empty when
        nothing is pending)."""
        d = self.decision
        p = self.to_play
        if d is None:
            return []
        if d is PLAY_DECISION:
            hand = self.hands[p]
            must = self.must_play
            forced = must[1] if p else must[0]
            tiles = [forced] if forced >= 0 and forced in hand else hand
            if self.end_phase:
                up = self.face_up_mask
                tiles = [t for t in tiles if MATCH[t] & up]
            return listed_moves(PLAY_KIND, tiles) or [_PASS]
        if d is CAPTURE_DECISION:
            return cell_moves(CAPTURE_KIND, MATCH[self.context[0]] & self.face_up_mask)
        if d is PLACE_RAINBOW_DECISION:
            return cell_moves(RAINBOW_KIND, self.rainbow_targets(p))
        if d is MOVE_RAINBOW_DECISION:
            return cell_moves(SHIFT_KIND, self.rainbow_targets(p))
        if d is ENCOUNTER_DECISION:
            takes = listed_moves(TAKE_KIND, sorted(self.spirit_line))
            return [_DRAW, *takes] if self.spirit_pile and not self._evil_new else takes
        if d is KEEP_DECISION:
            return listed_moves(KEEP_KIND, [s for s in sorted(self.context) if s != EVIL_ID])
        if d is SQUARE_DECISION:
            return cell_moves(SQUARE_KIND, self._formed)
        if d is DEER_DECISION:
            return listed_moves(DEER_KIND, self.hands[p])
        if d is BEETLE_DECISION:
            return cell_moves(BEETLE_KIND, self.face_up_mask)
        if d is VIPER_DECISION:
            return cell_moves(VIPER_KIND, self.isolated_land(1 - p))
        if d is RENARD_DECISION:
            return listed_moves(RENARD_KIND, self.hands[1 - p])
        if d is EVIL_DECISION:
            return cell_moves(EVIL_KIND, self.rainbow_targets(1 - p))
        if d is COVER_DECISION:
            holder = self.context[0]
            return listed_moves(COVER_KIND, sorted([s for s, _ in self.spirits[holder]]))
        raise AssertionError(d)

    def _decide(self, decision: Decision, ctx: tuple[int, ...] = ()) -> None:
        self.decision = decision
        self.context = ctx
        self._legal = self._compute_legal()

    def _begin_turn(self) -> None:
        self.turn += 1
        self.end_phase = not self.pile
        self._tasks = [_END_TURN_STEP, _REFILL_STEP, _ENCOUNTER_STEP]
        if not self._quiet:
            self._note(TurnBegan(self.to_play, self.turn, self.end_phase))
        self._decide(PLAY_DECISION)

    def _draw_to_hand(self, p: int) -> None:
        tile = self.pile.pop()
        hand = self.hands[p]
        i = 0
        while i < len(hand) and hand[i] < tile:  # hands stay sorted
            i += 1
        hand.insert(i, tile)
        if not self._quiet:
            self._note(Drew(p, tile))

    def _display_take(self, tile: int) -> None:
        i = self.face_up.index(tile)
        self.face_up_mask ^= 1 << tile
        beneath = self.face_down[i]
        if beneath >= 0:
            self.face_up[i], self.face_down[i] = beneath, -1
            self.face_up_mask |= 1 << beneath
            if not self._quiet:
                self._note(Flipped(beneath))
        else:
            self.face_up.pop(i)
            self.face_down.pop(i)

    def _gain_rainbow(self, p: int, mode: int) -> bool:
        if not self.rainbow_supply or not self.rainbow_targets(p):
            if not self._quiet:
                self._note(RainbowLost(p))
            return False
        self._decide(PLACE_RAINBOW_DECISION, SINGLE[mode])
        return True

    def _end_now(self, reason: EndReason, loser: int | None) -> None:
        """End the game at once, as people do (resign, time, abandoned: ``Game.end``),
        keeping the position it ended in: its JSON is that position and the ending."""
        before = State()
        self._copy_into(before)
        self._before_end = before
        self._finish(reason, None if loser is None else 1 - loser)

    def _finish(self, reason: EndReason, winner: int | None) -> None:
        self.is_over, self.winner, self.end_reason = True, winner, reason
        self.decision, self.context, self._tasks, self._legal = None, (), [], NO_MOVES
        if not self._quiet:
            self._note(GameEnded(reason, winner))

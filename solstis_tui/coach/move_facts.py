"""What a move does, as typed facts, from the deciding seat's observation only.

``facts(obs, move)`` lists what ``move`` does at the decision pending in ``obs``: a biggest
section growing, a square completed or brought to 3 of 4 cells, a fire lit, a spirit and
its stars, a display tile left to the opponent (or captured from them) and its worth to
them, a rainbow placed or blocked, a tile lost, the Evil Spirit passed or placed, the score.
Each ``Fact`` is a small frozen dataclass that a test checks in the engine
(tests/test_reasons.py). ``differences`` says what two moves do that the other does not.
``reasons`` puts them into words.

Where a move's effect needs a whole game, the move is applied in several deals of the
unseen parts (``core.Dealer``, as the bots deal them) and only the facts every deal agrees
on are kept; whatever follows a draw is no fact of the move, and a fact naming a tile the
seat cannot see is never kept. No Textual here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Final, NamedTuple

from ..core import Dealer, Decision, Game, Move, MoveKind, Observation, Spirit
from ..core.board import MATCH, SQUARE_CELLS, bits, full_squares, squares_at
from ..core.events import (
    Captured,
    Covered,
    Discarded,
    EagleDrew,
    Event,
    EvilGiven,
    EvilPlaced,
    FireflyPlaced,
    FlyTook,
    Placed,
    RainbowOut,
    RainbowPlaced,
    RainbowShifted,
    Removed,
    SecondChance,
    SpiritsDrawn,
    TurnBegan,
    ViperTook,
)
from ..core.scoring import Score, score_panorama

#: Deals a move is applied in: a fact must hold in every one of them.
DEALS: Final = 8
#: Events whose outcome the draw decides: what comes after one is no fact of the move,
#: but what the move did before it is (its panorama is read as it stood at the draw).
CHANCE: Final = (SecondChance, EagleDrew, FlyTook, SpiritsDrawn)
#: At most this many facts are said for each move.
PER_MOVE: Final = 2


@dataclass(frozen=True)
class Captures:
    """The played ``tile`` captures the display tile ``target``."""

    tile: int
    target: int


@dataclass(frozen=True)
class CaptureChoice:
    """The played ``tile`` can capture any of ``targets``: a choice comes next."""

    tile: int
    targets: tuple[int, ...]


@dataclass(frozen=True)
class BestCapture:
    """Of the captures the played tile may choose, ``target`` alone adds the most to the
    seat's score this turn: ``gain`` stars."""

    target: int
    gain: int


@dataclass(frozen=True)
class NoCapture:
    """The played ``tile`` captures nothing: it joins the display (a second chance), where
    it is worth ``stars`` to ``seat``, the other seat, if it came into their panorama
    (``square``: it would complete their square there, else -1)."""

    tile: int
    seat: int
    stars: int
    square: int


@dataclass(frozen=True)
class Denied:
    """The capture takes ``tile`` from the display, where it was worth ``stars`` to
    ``seat``, the other seat (``square``: it would have completed their square there, else
    -1)."""

    seat: int
    tile: int
    stars: int
    square: int


@dataclass(frozen=True)
class SquareNear:
    """``seat``'s square at ``square`` now has 3 of its 4 cells filled (it had fewer)."""

    seat: int
    square: int


@dataclass(frozen=True)
class Section:
    """``seat``'s biggest section goes from ``before`` to ``after`` land tiles."""

    seat: int
    before: int
    after: int


@dataclass(frozen=True)
class SquareDone:
    """``seat`` completes the squares at ``squares`` (their lower-left cells). One spirit
    comes for the turn's squares if one is left to meet (``spirit``): on one of them; with
    ``fireflies`` (Firefly), each other square gets one of the seat's fireflies."""

    seat: int
    squares: tuple[int, ...]
    spirit: bool
    fireflies: bool


@dataclass(frozen=True)
class FiresLit:
    """``seat``'s lit fires go from ``before`` to ``after``."""

    seat: int
    before: int
    after: int


@dataclass(frozen=True)
class SpiritGain:
    """``seat`` gets ``spirit``, worth ``stars`` on its panorama as it stands."""

    seat: int
    spirit: Spirit
    stars: int


@dataclass(frozen=True)
class ToLine:
    """``spirit`` goes to the spirit line, worth ``stars`` to ``seat`` (who may take it)."""

    seat: int
    spirit: Spirit
    stars: int


@dataclass(frozen=True)
class DrawUnseen:
    """Two spirits are drawn from the face-down pile of ``pile``: what they are is luck."""

    pile: int


@dataclass(frozen=True)
class LeftInDisplay:
    """The face-up display ``tile`` stays there, worth ``stars`` to ``seat`` if it came
    into their panorama (``square``: it would complete their square there, else -1)."""

    seat: int
    tile: int
    stars: int
    square: int


@dataclass(frozen=True)
class RainbowOn:
    """A rainbow of ``seat`` is placed on ``cell``."""

    seat: int
    cell: int


@dataclass(frozen=True)
class RainbowBlocked:
    """``seat``'s rainbow on ``cell`` becomes blocked: a tile for that cell would be lost."""

    seat: int
    cell: int


@dataclass(frozen=True)
class TileLost:
    """The land ``tile`` bound for ``seat``'s panorama leaves the game."""

    seat: int
    tile: int


@dataclass(frozen=True)
class EvilPassed:
    """The Evil Spirit goes to ``seat``."""

    seat: int


@dataclass(frozen=True)
class EvilForbids:
    """The Evil Spirit forbids ``cell`` of ``seat``'s panorama."""

    seat: int
    cell: int


@dataclass(frozen=True)
class Firefly:
    """A firefly of ``seat`` lands on the square at ``square``: their ``count``-th."""

    seat: int
    square: int
    count: int


@dataclass(frozen=True)
class Stars:
    """``seat``'s score goes from ``before`` to ``after`` stars (said when little else is)."""

    seat: int
    before: int
    after: int


Fact = (Stars | Captures | CaptureChoice | BestCapture | NoCapture | Denied | Section
        | SquareDone | SquareNear | FiresLit | SpiritGain | ToLine | DrawUnseen | LeftInDisplay
        | RainbowOn | RainbowBlocked | TileLost | EvilPassed | EvilForbids | Firefly)
"""One claim about a move, checkable in the engine (tests/test_reasons.py)."""


# ---------------------------------------------------------------------- the facts
def facts(obs: Observation, move: Move, deals: int = DEALS) -> list[Fact]:
    """What ``move`` does at the decision pending in ``obs`` (the deciding seat's own
    observation), most telling first. ValueError if ``move`` is not legal there."""
    return _facts(obs, move, deals).facts


class Told(NamedTuple):
    """What a move does (``facts``), whether the position it leaves is known
    (``_world_facts``), and whether anything follows it: another turn, in every deal."""

    facts: list[Fact]
    settled: bool
    follows: bool


def _facts(obs: Observation, move: Move, deals: int) -> Told:
    """``facts``, whether the position the move leaves is known, and whether anything
    follows it."""
    if move not in obs.legal_moves:
        raise ValueError(f"{move} is not a legal move here")
    me = obs.player
    found = _seen_facts(obs, move)
    dealer = Dealer(obs)
    agreed: list[Fact] | None = None
    settled, follows = True, True
    for k in range(max(1, deals)):
        world = dealer.deal(random.Random(k))
        mine, known = _world_facts(world, me, move)
        settled = settled and known
        follows = follows and not world.is_over and bool(
            world.pile or world.hands[0] or world.hands[1])
        agreed = mine if agreed is None else [f for f in agreed if f in mine]
    seen = _seen_tiles(obs)
    found += [f for f in agreed or [] if all(t in seen for t in _tiles_of(f))]
    return Told(sorted(found, key=_weight, reverse=True), settled, follows)


def _seen_facts(obs: Observation, move: Move) -> list[Fact]:
    """Facts read from the observation alone (spirits on offer, a draw)."""
    me, opp = obs.player, 1 - obs.player
    if move.kind in (MoveKind.KEEP, MoveKind.TAKE):
        spirit = Spirit(move.arg)
        out: list[Fact] = [SpiritGain(me, spirit, spirit_worth(obs, me, spirit))]
        if move.kind is MoveKind.KEEP:
            for other in obs.context:
                if other != move.arg and other != Spirit.EVIL:
                    out.append(ToLine(opp, Spirit(other), spirit_worth(obs, opp, Spirit(other))))
        return out
    if move.kind is MoveKind.DRAW:
        return [DrawUnseen(obs.spirit_pile)]
    if move.kind is MoveKind.PLAY:
        targets = tuple(t for t, _ in obs.display if MATCH[move.arg] >> t & 1)
        if len(targets) > 1:
            return [CaptureChoice(move.arg, targets)]
    return []


def spirit_worth(obs: Observation, seat: int, spirit: Spirit) -> int:
    """The stars ``spirit`` would add to ``seat``'s panorama as it stands (its own star,
    its bonus, and what it adds to a Bee or a Bird there)."""
    view = obs.panoramas[seat]
    land = sum(1 << t for t in view.land)
    rain = sum(1 << t for t in view.rainbows)
    flies = sum(1 << sq for sq in view.fireflies)
    covered = int(view.covered) if view.covered is not None else -1
    before = score_panorama(land, rain, view.spirits, flies, covered).total
    after = score_panorama(land, rain, (*view.spirits, (spirit, -1)), flies, covered).total
    return after - before


def tile_worth(world: Game, seat: int, tile: int) -> tuple[int, int]:
    """(stars, square) ``tile`` would give ``seat`` if it came into their panorama now:
    the score's change, and a square it would complete (-1: none). A cell the Evil Spirit
    forbids, or where a blocked rainbow sits, is worth nothing (the tile would be lost)."""
    bit = 1 << tile
    land, rain = world.land[seat], world.rainbow_cells[seat]
    if (world.evil_player == seat and world.evil_cell == tile) or (
            rain & bit and world.blocked[seat] & bit):
        return 0, -1
    spirits, flies, covered = world.spirits[seat], world.fireflies[seat], world.covered[seat]
    before = score_panorama(land, rain, spirits, flies, covered).total
    after = score_panorama(land | bit, rain & ~bit, spirits, flies, covered).total
    filled = land | rain
    new = full_squares(filled | bit) & ~full_squares(filled) & ~world.occupied_squares[seat]
    square = (new & -new).bit_length() - 1 if new else -1
    return after - before, square


class Panoramas:
    """Both seats' land and rainbow cells, and the tiles out of the game, followed event by
    event from a position: what they were when a draw came."""

    def __init__(self, world: Game) -> None:
        self.land = list(world.land)
        self.rainbows = list(world.rainbow_cells)
        self.removed = world.removed

    def filled(self, seat: int) -> int:
        return self.land[seat] | self.rainbows[seat]

    def follow(self, ev: Event) -> None:
        """Apply ``ev``'s change to the panoramas (events that change none pass by)."""
        match ev:
            case Placed(player=p, tile=tile):
                self.land[p] |= 1 << tile
            case RainbowOut(player=p, tile=tile):
                self.rainbows[p] &= ~(1 << tile)
                self.land[p] |= 1 << tile
            case RainbowShifted(player=p, tile=tile, cell=cell):
                self.rainbows[p] ^= (1 << tile) | (1 << cell)
                self.land[p] |= 1 << tile
            case RainbowPlaced(player=p, cell=cell):
                self.rainbows[p] |= 1 << cell
            case ViperTook(player=p, tile=tile):
                self.land[1 - p] &= ~(1 << tile)
            case Removed(tile=tile):
                self.removed |= 1 << tile

    def score(self, world: Game, seat: int) -> Score:
        """``seat``'s score with these panoramas and ``world``'s spirits and fireflies."""
        return score_panorama(self.land[seat], self.rainbows[seat], world.spirits[seat],
                              world.fireflies[seat], world.covered[seat])


def _world_facts(world: Game, me: int, move: Move) -> tuple[list[Fact], bool]:
    """The facts of ``move`` in one deal: its events and what it changes; and whether the
    position it leaves is known: no draw came into it, the other seat did not move, and no
    capture (or Beetle) of the seat is still to choose. A draw (or the other seat's
    cover) ends what the move did: its sections, squares and fires are read as they stood
    then."""
    opp = 1 - me
    score_before = (world.score(0), world.score(1))
    filled_before = world.land[me] | world.rainbow_cells[me]
    blocked_before = world.blocked[me]
    flies = world.fireflies[me].bit_count()
    spirit_left = bool(world.spirit_pile or world.spirit_line)
    # A tile that captures nothing meets the other seat's panorama as it is now; so does a
    # display tile captured, which they no longer can.
    dropped = tile_worth(world, opp, move.arg) if move.kind is MoveKind.PLAY else (0, -1)
    if dropped[0] <= 0 and dropped[1] < 0:
        dropped = (0, -1)  # worth nothing to them, or less: they would not want it
    offered = {tile: tile_worth(world, opp, tile) for tile in world.face_up}
    start, moves = len(world.log), len(world.history)
    at_draw = Panoramas(world)
    world.play(move)
    out: list[Fact] = []
    cut = False
    for ev in world.log[start:]:
        if isinstance(ev, TurnBegan):
            break  # the next turn is someone else's story
        if isinstance(ev, (*CHANCE, Covered)):
            cut = True  # what follows is the draw's (or the other seat's) doing
            break
        at_draw.follow(ev)
        match ev:
            case Captured(player=p, tile=tile, target=target) if p == me:
                if not (move.kind is MoveKind.CAPTURE and target == move.arg):
                    out.append(Captures(tile, target))
                stars, square = offered.get(target, (0, -1))
                if stars > 0 or square >= 0:
                    out.append(Denied(opp, target, stars, square))
            case Discarded(player=p, tile=tile) if p == me and tile == move.arg:
                out.append(NoCapture(tile, opp, *dropped))
            case Removed(player=p, tile=tile):
                out.append(TileLost(p, tile))
            case EvilGiven(player=p) if p == me:
                out.append(EvilPassed(opp))
            case EvilPlaced(player=p, cell=cell) if p == me:
                out.append(EvilForbids(opp, cell))
            case FireflyPlaced(player=p, square=square) if p == me:
                flies += 1
                out.append(Firefly(p, square, flies))
            case RainbowPlaced(player=p, cell=cell) if p == me and cell != move.arg:
                out.append(RainbowOn(p, cell))
    other_moved = any(p != me for p, _, _ in world.history[moves:])
    if other_moved and not cut:
        return out, False  # the position after it is the other seat's doing
    for seat in (me, opp):
        before, after = score_before[seat].biggest_section, \
            at_draw.score(world, seat).biggest_section
        if after != before:
            out.append(Section(seat, before, after))
    lit_before, lit_after = score_before[me].lit_fires, at_draw.score(world, me).lit_fires
    if lit_after > lit_before:
        out.append(FiresLit(me, lit_before, lit_after))
    filled = at_draw.filled(me)
    new = full_squares(filled) & ~full_squares(filled_before)
    if new:
        out.append(SquareDone(me, tuple(bits(new)), spirit_left,
                              world.options.firefly and new.bit_count() > 1))
    # The last cell can still fill: its tile is not lost nor the other's, nor is the cell
    # forbidden by the Evil Spirit (a rainbow could still fill it: too far to say).
    gone = at_draw.removed | at_draw.land[opp] | (
        1 << world.evil_cell if world.evil_player == me and world.evil_cell >= 0 else 0)
    for square in bits(squares_at(filled & ~filled_before)):
        cells = SQUARE_CELLS[square]
        if (filled & cells).bit_count() == 3 > (filled_before & cells).bit_count() \
                and not gone & cells & ~filled:
            out.append(SquareNear(me, square))
    if cut:
        return out, False  # the position after it is the draw's doing
    newly = world.rainbow_cells[me] & world.blocked[me] & ~blocked_before
    while newly:
        low = newly & -newly
        out.append(RainbowBlocked(me, low.bit_length() - 1))
        newly ^= low
    if not world.is_over and world.to_play == me and world.decision in (
            Decision.CAPTURE, Decision.BEETLE):
        if world.decision is Decision.CAPTURE:
            out += _best_capture(world, me)
        return out, False  # what the display keeps is still to choose
    out.append(Stars(me, score_before[me].total, world.score(me).total))
    if not world.is_over:
        for tile in world.face_up:
            stars, square = tile_worth(world, opp, tile)
            if stars > 0 or square >= 0:
                out.append(LeftInDisplay(opp, tile, stars, square))
    return out, True


def _best_capture(world: Game, me: int) -> list[Fact]:
    """The capture of ``world``'s pending choice that adds the most to ``me``'s score
    before anything else is chosen, if one alone does and it adds something."""
    now = world.score(me).total
    gains = []
    for mv in world.legal:
        trial = world.copy()
        trial.play(mv)
        gains.append((trial.score(me).total - now, mv.arg))
    gains.sort(reverse=True)
    if gains and gains[0][0] > 0 and (len(gains) == 1 or gains[1][0] < gains[0][0]):
        return [BestCapture(gains[0][1], gains[0][0])]
    return []


def _seen_tiles(obs: Observation) -> set[int]:
    """The land tiles ``obs.player`` can locate: only these may be named."""
    seen = set(obs.hand) | set(obs.opponent_known) | set(obs.removed) | set(obs.in_transit)
    seen.update(tile for tile, _ in obs.display)
    for view in obs.panoramas:
        seen.update(view.land)
    return seen


def _tiles_of(fact: Fact) -> tuple[int, ...]:
    """The land tiles ``fact`` names (cells and squares are not tiles)."""
    match fact:
        case Captures(tile=tile, target=target):
            return (tile, target)
        case CaptureChoice(tile=tile, targets=targets):
            return (tile, *targets)
        case BestCapture(target=target):
            return (target,)
        case NoCapture(tile=tile) | LeftInDisplay(tile=tile) | TileLost(tile=tile) \
                | Denied(tile=tile):
            return (tile,)
    return ()


def _weight(fact: Fact) -> float:
    """How much ``fact`` tells, roughly in stars: the sentence says the heaviest first."""
    match fact:
        case Stars():
            return 0.1
        case SquareDone(squares=squares):
            return 4.0 * len(squares)
        case SpiritGain(stars=stars) | ToLine(stars=stars):
            return stars + 0.5
        case LeftInDisplay(stars=stars, square=square):
            return stars + (3.0 if square >= 0 else 0.0)
        case NoCapture(stars=stars, square=square):
            return 2.5 + stars + (3.0 if square >= 0 else 0.0)
        case Denied(stars=stars, square=square):  # never before the capture it comes with
            return min(2.45, 0.5 + stars + (3.0 if square >= 0 else 0.0))
        case SquareNear():
            return 1.5
        case Section(before=before, after=after) | FiresLit(before=before, after=after):
            return abs(after - before) + 0.2
        case Captures() | CaptureChoice():
            return 2.5
        case BestCapture(gain=gain):
            return 2.4 + gain / 100
        case TileLost() | EvilPassed() | EvilForbids() | RainbowBlocked():
            return 2.0
        case Firefly(count=count):
            return 1.0 + count
    return 0.5


class Differences(NamedTuple):
    """What ``best`` does that ``played`` does not (``only_best``) and the other way round,
    at most ``PER_MOVE`` each, heaviest first; and whether anything may follow either."""

    only_best: list[Fact]
    only_played: list[Fact]
    follows: bool


def differences(obs: Observation, played: Move, best: Move,
                deals: int = DEALS) -> Differences:
    """The facts ``explain`` says of ``best`` and of ``played``: what each does that the
    other does not (the same move twice: what it does, and nothing for ``played``)."""
    best_told = _facts(obs, best, deals)
    if played == best:
        return Differences(best_told.facts[:PER_MOVE], [], best_told.follows)
    played_told = _facts(obs, played, deals)
    return Differences(
        _unlike(best_told.facts, played_told.facts, played_told.settled),
        _unlike(played_told.facts, best_told.facts, best_told.settled),
        best_told.follows or played_told.follows)


def value(fact: Fact, me: int) -> float:
    """What ``fact`` is worth to ``me``, the deciding seat, roughly in stars: above 0 a
    gain, below 0 a cost, 0 neither (a choice to come, a draw, a rainbow placed)."""
    sign = 1.0 if getattr(fact, "seat", me) == me else -1.0
    match fact:
        case Stars(before=before, after=after) | Section(before=before, after=after) \
                | FiresLit(before=before, after=after):
            return sign * (after - before)
        case SquareDone(squares=squares, spirit=spirit):
            return sign * (len(squares) + (3.0 if spirit else 0.0))
        case SquareNear():
            return sign * 1.0
        case SpiritGain(stars=stars):
            return sign * (stars + 0.5)
        case ToLine(stars=stars):  # the other seat may take it
            return sign * stars / 2
        case NoCapture(stars=stars, square=square) | LeftInDisplay(stars=stars, square=square):
            return sign * (stars + (3.0 if square >= 0 else 0.0)) if (
                stars > 0 or square >= 0) else -0.5
        case Denied(stars=stars, square=square):
            return stars + (3.0 if square >= 0 else 0.0)
        case Captures():
            return 1.0
        case BestCapture(gain=gain):
            return float(gain)
        case TileLost() | RainbowBlocked():
            return -sign * 1.0
        case EvilPassed() | EvilForbids():
            return -sign * 1.5
        case Firefly(count=count):
            return sign * (1.0 + count / 2)
    return 0.0


#: What a position shows rather than what a move did: not a difference from a move whose
#: position is not known (the draw's), which may well show it too.
_POSITION: Final = (Stars, LeftInDisplay, RainbowBlocked, EvilPassed, Firefly, RainbowOn)


def _unlike(mine: list[Fact], theirs: list[Fact], known: bool) -> list[Fact]:
    """The facts of ``mine`` that ``theirs`` lacks, at most ``PER_MOVE`` (``known``: the
    other move's position is known)."""
    gists = [_gist(f) for f in theirs]
    return [f for f in mine if _gist(f) not in gists
            and (known or not isinstance(f, _POSITION))][:PER_MOVE]


def _gist(fact: Fact) -> Fact:
    """What ``fact`` says besides the tile: two tiles that capture nothing, or two captured
    tiles, worth the same to the other seat do the same thing there, and two tiles that
    capture the same target make the same capture (the moves' words name the tiles)."""
    if isinstance(fact, Captures):
        return replace(fact, tile=-1)  # two tiles capturing the same target: the same gain
    return replace(fact, tile=-1) if isinstance(fact, NoCapture | Denied) else fact

"""The legal moves of a game's pending decision, computed from its state alone."""

from __future__ import annotations

from .board import MATCH, bits
from .moves import MOVES, Decision, Move, MoveKind, move
from .spirits import Spirit
from .state import State

_K = MoveKind
_MOVES = MOVES
_PASS = move(_K.PASS)
_DRAW = move(_K.DRAW)


def cell_moves(kind: MoveKind, mask: int) -> list[Move]:
    """One move of ``kind`` per cell or tile in ``mask``."""
    ms = _MOVES[kind]
    return [ms[c] for c in bits(mask)]


def compute_legal(game: State) -> list[Move]:
    """Every legal move for ``game.decision`` (empty when nothing is pending)."""
    d = game.decision
    p = game.to_play
    if d is None:
        return []
    if d is Decision.PLAY:
        hand = game.hands[p]
        forced = game.must_play[p]
        tiles = [forced] if forced in hand else hand
        if game.end_phase:
            up = game.face_up_mask
            tiles = [t for t in tiles if MATCH[t] & up]
        ms = _MOVES[_K.PLAY]
        return [ms[t] for t in tiles] or [_PASS]
    if d is Decision.CAPTURE:
        return cell_moves(_K.CAPTURE, MATCH[game.context[0]] & game.face_up_mask)
    if d is Decision.PLACE_RAINBOW:
        return cell_moves(_K.RAINBOW, game.rainbow_targets(p))
    if d is Decision.MOVE_RAINBOW:
        return cell_moves(_K.SHIFT, game.rainbow_targets(p))
    if d is Decision.ENCOUNTER:
        ms = _MOVES[_K.TAKE]
        takes = [ms[s] for s in sorted(game.spirit_line)]
        return [_DRAW, *takes] if game.spirit_pile and not game._evil_new else takes
    if d is Decision.KEEP:
        ms = _MOVES[_K.KEEP]
        return [ms[s] for s in sorted(game.context) if s != Spirit.EVIL]
    if d is Decision.SQUARE:
        return cell_moves(_K.SQUARE, game._formed)
    if d is Decision.DEER:
        ms = _MOVES[_K.DEER]
        return [ms[t] for t in game.hands[p]]
    if d is Decision.BEETLE:
        return cell_moves(_K.BEETLE, game.face_up_mask)
    if d is Decision.VIPER:
        return cell_moves(_K.VIPER, game.isolated_land(1 - p))
    if d is Decision.RENARD:
        ms = _MOVES[_K.RENARD]
        return [ms[t] for t in game.hands[1 - p]]
    if d is Decision.EVIL:
        return cell_moves(_K.EVIL, game.rainbow_targets(1 - p))
    if d is Decision.COVER:
        holder = game.context[0]
        ms = _MOVES[_K.COVER]
        return [ms[s] for s in sorted(s for s, _ in game.spirits[holder])]
    raise AssertionError(d)

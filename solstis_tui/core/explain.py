"""Why a move is illegal, in words a player understands."""

from __future__ import annotations

from .board import COL_OF, MATCH, NAMES, ROW_OF
from .moves import Decision, Move, MoveKind
from .observation import Observation
from .spirits import Spirit
from .state import State

_EXPECTED = {
    Decision.PLAY: "play a tile from your hand",
    Decision.CAPTURE: "capture a display tile",
    Decision.PLACE_RAINBOW: "place your rainbow",
    Decision.MOVE_RAINBOW: "move your displaced rainbow",
    Decision.ENCOUNTER: "draw two spirits or take one from the line",
    Decision.KEEP: "keep one of the drawn spirits",
    Decision.SQUARE: "choose the square for your spirit",
    Decision.DEER: "choose a hand tile for the Deer",
    Decision.BEETLE: "choose a display tile for the Beetle",
    Decision.VIPER: "choose an isolated tile for the Viper",
    Decision.RENARD: "choose the tile your opponent must play",
    Decision.EVIL: "place the Evil Spirit",
    Decision.COVER: "choose the spirit the Evil Spirit covers",
}


def _name(arg: int) -> str:
    return NAMES.get(arg, str(arg))


def why_illegal(obs: Observation, mv: object) -> str:
    """A sentence saying why ``mv`` cannot be played now, from the observation of the
    player deciding (so a client that holds only its seat's view explains alike)."""
    d = obs.decision
    if obs.is_over or d is None:
        return "the game is over"
    if not isinstance(mv, Move):
        return f"{mv!r} is not a move"
    kinds = {m.kind for m in obs.legal_moves}
    if mv.kind not in kinds:
        return f"you cannot {mv.kind.name.lower()} now: {_EXPECTED[d]}"
    arg = mv.arg
    face_up = {tile for tile, _down in obs.display}
    if mv.kind == MoveKind.PLAY:
        if arg not in obs.hand:
            return f"{_name(arg)} is not in your hand"
        forced = obs.must_play[obs.player]
        if forced is not None and forced in obs.hand and arg != forced:
            return f"the Renard forces you to play {_name(forced)} this turn"
        return (f"{_name(arg)} cannot capture anything, and in the end phase you may only "
                "play a tile that captures")
    if mv.kind == MoveKind.CAPTURE:
        source = obs.context[0]
        if arg not in face_up:
            return f"{_name(arg)} is not a face-up display tile"
        if not MATCH[source] >> arg & 1:
            return (f"{_name(source)} cannot capture {_name(arg)}: neither row "
                    f"({ROW_OF[source]} vs {ROW_OF[arg]}) nor column "
                    f"({COL_OF[source]} vs {COL_OF[arg]}) matches")
    if mv.kind in (MoveKind.RAINBOW, MoveKind.SHIFT, MoveKind.EVIL):
        return (f"{_name(arg)} is not a legal cell: it must be empty, next to a tile of "
                "the panorama, and not forbidden")
    if mv.kind in (MoveKind.TAKE, MoveKind.KEEP, MoveKind.COVER):
        title = Spirit(arg).title if 0 <= arg < len(Spirit) else str(arg)
        where = {MoveKind.TAKE: "in the spirit line", MoveKind.KEEP: "among the drawn spirits",
                 MoveKind.COVER: "among the holder's spirits"}[mv.kind]
        return f"the {title} is not {where}"
    if mv.kind == MoveKind.SQUARE:
        return f"no square with lower-left cell {_name(arg)} was formed this turn"
    if mv.kind == MoveKind.DEER:
        return f"{_name(arg)} is not in your hand"
    if mv.kind == MoveKind.BEETLE:
        return f"{_name(arg)} is not a face-up display tile"
    if mv.kind == MoveKind.VIPER:
        return f"{_name(arg)} is not an isolated land tile of your opponent's"
    if mv.kind == MoveKind.RENARD:
        return f"{_name(arg)} is not in your opponent's hand"
    return f"{mv} is not legal now: {_EXPECTED[d]}"


def drawn_for_second_chance(position: State | Observation) -> bool:
    """The pending capture is for a tile drawn from the deck because the played one
    captured nothing: that tile is face up, so there is no going back."""
    if position.decision is not Decision.CAPTURE or not position.history \
            or not position.context:
        return False
    _player, move, _auto = position.history[-1]
    return move.kind is MoveKind.PLAY and move.arg != position.context[0]

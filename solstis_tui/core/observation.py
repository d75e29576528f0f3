"""What one player may know of a game: everything public plus their own hand."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .board import bits
from .events import Drew, EndReason, Event, Revealed
from .moves import Decision, Move
from .options import Options
from .pending import Pending, pending_of
from .spirits import Spirit
from .state import HistoryEntry, State
from .steps import PUT


def seen_by(event: Event, player: int, spectator: bool) -> Event:
    """``event`` as ``player`` (a watcher, with ``spectator``) may read it: a tile drawn
    is seen by its drawer only, the hand a Renard revealed by the two players only."""
    if isinstance(event, Drew) and (spectator or event.player != player):
        return event.hidden()
    if isinstance(event, Revealed) and spectator:
        return event.hidden()
    return event


@dataclass(frozen=True)
class PanoramaView:
    """One player's panorama, as both players see it."""

    land: tuple[int, ...]
    rainbows: tuple[int, ...]
    spirits: tuple[tuple[Spirit, int], ...]
    """(spirit, square) pairs; a square is named by its lower-left cell."""
    covered: Spirit | None
    fireflies: tuple[int, ...]
    forbidden: int | None
    """Firefly: the cell the Evil Spirit forbids in this panorama."""
    hand_size: int

    def __reduce__(self) -> tuple[type[PanoramaView], tuple[Any, ...]]:
        return PanoramaView, field_values(self)


def field_values(obj: PanoramaView | Observation) -> tuple[Any, ...]:
    """A frozen dataclass's fields in order: what ``__reduce__`` rebuilds it from. (The
    compiled build's frozen dataclasses do not pickle by themselves, and worker processes
    are sent observations.)"""
    return tuple(getattr(obj, f.name) for f in fields(obj))


@dataclass(frozen=True)
class Observation:
    """Everything ``player`` may know. Equal for two games that differ only in what
    ``player`` cannot see (pile order, face-down tiles, the opponent's hand, spirit pile)."""

    player: int
    options: Options
    turn: int
    to_play: int
    decision: Decision | None
    legal_moves: tuple[Move, ...]
    """The legal moves if ``player`` is to decide, else empty."""
    context: tuple[int, ...]
    """Public details of the pending decision (e.g. the tile that captures)."""
    hand: tuple[int, ...]
    opponent_hand_count: int
    opponent_known: tuple[int, ...]
    """Tiles of the opponent's hand that a Renard reveal showed and that are still there."""
    known_by_opponent: tuple[int, ...]
    """Tiles of my hand the opponent saw with a Renard reveal."""
    panoramas: tuple[PanoramaView, PanoramaView]
    display: tuple[tuple[int, bool], ...]
    """Each pile: (face-up tile, whether a face-down tile lies beneath)."""
    land_pile: int
    spirit_line: tuple[Spirit, ...]
    spirit_pile: int
    rainbow_supply: int
    firefly_supply: int
    removed: tuple[int, ...]
    in_transit: tuple[int, ...]
    """Land tiles on their way into a panorama this turn (played, captured, drawn)."""
    rainbows_out: int
    evil_player: int | None
    """Base: who holds the Evil Spirit; Firefly: in whose panorama it sits."""
    must_play: tuple[int | None, int | None]
    """Per player, the tile a Renard forces them to play next turn."""
    marmot: bool
    end_phase: bool
    is_over: bool
    winner: int | None
    end_reason: EndReason | None
    history: tuple[HistoryEntry, ...]
    log: tuple[Event, ...]
    pending: Pending
    """What is still to happen this turn after the pending decision, in the rules' terms
    (all public): a search rebuilds a full game from it (``determinize``)."""
    hand_counts: tuple[int, int] = (0, 0)
    """How many tiles each player holds."""
    spectator: bool = False
    """A watcher's view: seat 0's perspective with both hands hidden."""

    def __reduce__(self) -> tuple[type[Observation], tuple[Any, ...]]:
        return Observation, field_values(self)


def in_transit(game: State) -> tuple[int, ...]:
    """Tiles held by the pending decision or queued to enter a panorama."""
    tiles = [task[2] for task in game._tasks if task[0] == PUT]
    if game.decision in (Decision.CAPTURE, Decision.MOVE_RAINBOW):
        tiles.append(game.context[0])
    return tuple(sorted(tiles))


def _view(game: State, p: int) -> PanoramaView:
    return PanoramaView(
        land=tuple(bits(game.land[p])),
        rainbows=tuple(bits(game.rainbow_cells[p])),
        spirits=tuple(game.spirits[p]),
        covered=Spirit(game.covered[p]) if game.covered[p] >= 0 else None,
        fireflies=tuple(bits(game.fireflies[p])),
        forbidden=game.evil_cell if game.evil_player == p and game.evil_cell >= 0 else None,
        hand_size=game.hand_size[p],
    )


def _tile_or_none(tile: int) -> int | None:
    return tile if tile >= 0 else None


def observe(game: State, player: int, spectator: bool = False) -> Observation:
    """Build ``player``'s observation of ``game`` (a watcher's, seen from seat ``player``,
    with ``spectator``)."""
    opp = 1 - player
    opp_hand = sum(1 << t for t in game.hands[opp])
    my_hand = 0 if spectator else sum(1 << t for t in game.hands[player])
    if spectator:
        opp_hand = 0
    views = (_view(game, 0), _view(game, 1))
    log = tuple(seen_by(event, player, spectator) for event in game.log)
    return Observation(
        player=player,
        options=game.options,
        turn=game.turn,
        to_play=game.to_play,
        decision=game.decision,
        legal_moves=tuple(game.legal) if game.to_play == player and not spectator else (),
        context=game.context,
        hand=() if spectator else tuple(game.hands[player]),
        opponent_hand_count=len(game.hands[opp]),
        opponent_known=tuple(bits(game.revealed[player] & opp_hand)),
        known_by_opponent=tuple(bits(game.revealed[opp] & my_hand)),
        panoramas=views,
        display=tuple((u, d >= 0) for u, d in zip(game.face_up, game.face_down, strict=True)),
        land_pile=len(game.pile),
        spirit_line=tuple(Spirit(s) for s in game.spirit_line),
        spirit_pile=len(game.spirit_pile),
        rainbow_supply=game.rainbow_supply,
        firefly_supply=game.firefly_supply,
        removed=tuple(bits(game.removed)),
        in_transit=in_transit(game),
        rainbows_out=game.rainbows_out,
        evil_player=game.evil_player if game.evil_player >= 0 else None,
        must_play=(_tile_or_none(game.must_play[0]), _tile_or_none(game.must_play[1])),
        marmot=game.marmot,
        end_phase=game.end_phase,
        is_over=game.is_over,
        winner=game.winner,
        end_reason=game.end_reason,
        history=tuple(game.history),
        log=log,
        pending=pending_of(game._tasks, game._touched, game._formed, game._evil_new),
        hand_counts=(len(game.hands[0]), len(game.hands[1])),
        spectator=spectator,
    )

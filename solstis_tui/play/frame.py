"""What one state of the game shows on a game screen: the ``Frame`` of an observation and
the ``BoardView`` drawn from it, each made once for each state of the game.

``make_frame`` reads an observation for one screen (the zone of the pending decision, its
items and targets, the other hand as shown); ``board_view`` adds the person's half-made
choice. ``FrameCache`` keeps the observation and its frame for the state last drawn
(``SessionView.version``) and the seat shown, so that drawing many times builds them once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core import Decision, Observation
from ..core.board import MATCH
from .session_view import SessionView, scores_of
from .view import BoardView
from .zones import LIST_ZONES, Item, Zone, cell_targets, items_for, zone_of


@dataclass(frozen=True)
class Frame:
    """What follows from one observation for this screen: the zone of the pending decision
    (None when nobody here decides), its items and target cells, the other hand as shown,
    and whether a person at this screen decides."""

    me: int
    """The seat the frame is drawn for."""
    zone: Zone | None
    items: list[Item]
    targets: frozenset[int]
    their_hand: tuple[int, ...] | None
    deciding_is_human: bool


def make_frame(session: SessionView, obs: Observation, me: int,
               shown_player: int | None) -> Frame:
    """The frame of ``obs``, seat ``me``'s observation, on a screen showing ``shown_player``
    (hot-seat: None while the keyboard passes, and then nobody decides here)."""
    s = session
    decider_human = s.human_to_play and (not s.is_hotseat or shown_player == obs.to_play)
    zone = zone_of(obs.decision) if decider_human and obs.legal_moves else None
    if s.is_watch:  # bots on both seats: both hands are shown, by design
        their_hand: tuple[int, ...] | None = s.observation(1 - me).hand
    elif zone is Zone.OPP_HAND:
        their_hand = tuple(mv.arg for mv in obs.legal_moves)
    else:
        their_hand = obs.opponent_known or None
    items = items_for(obs) if zone in LIST_ZONES else []
    targets = cell_targets(obs) if zone in (Zone.MINE, Zone.THEIRS, Zone.DISPLAY) else \
        frozenset()
    return Frame(me, zone, items, targets, their_hand, decider_human)


def board_view(obs: Observation, made: Frame, names: tuple[str, str], selected: int,
               cursor: int | None, ascii_mode: bool) -> BoardView:
    """What the board widgets draw: the frame ``made`` of ``obs``, with the item
    ``selected`` and the ``cursor`` (a hand tile selected to play marks the piles it
    captures)."""
    capturable: frozenset[int] = frozenset()
    if made.zone is Zone.HAND and obs.decision is Decision.PLAY and \
            0 <= selected < len(made.items):
        tile = made.items[selected].value
        capturable = frozenset(t for t, _ in obs.display if MATCH[tile] >> t & 1)
    return BoardView(
        obs=obs, me=made.me, names=names,
        scores=scores_of(obs), my_hand=obs.hand,
        their_hand=made.their_hand, their_count=obs.opponent_hand_count, zone=made.zone,
        items=made.items, selected=selected, cursor=cursor,
        targets=made.targets, capturable=capturable,
        square_mode=obs.decision is Decision.SQUARE,
        ascii=ascii_mode,
        to_play=obs.to_play, deciding_is_human=made.deciding_is_human,
    )


class FrameCache:
    """The observation and frame drawn for the state of the game last drawn, made afresh
    only when the game (``SessionView.version``), the seat shown or, in hot-seat, whether
    a hand is shown has changed. A cache: forgetting it changes nothing but the time the
    next drawing takes."""

    def __init__(self, session: SessionView, viewer: Callable[[], int],
                 shown_player: Callable[[], int | None]) -> None:
        self.session = session
        self.viewer = viewer
        """The seat whose view the screen draws now."""
        self.shown_player = shown_player
        """Hot-seat: whose hand is shown now (None while the keyboard passes)."""
        self._frame: tuple[tuple[int, int, int | None], Observation, Frame] | None = None

    def frame(self) -> tuple[Observation, Frame]:
        """The observation the screen draws from (its ``viewer``'s, now) and what follows
        from it: the zone of the pending decision, its items and targets. Drawing reads it
        and changes nothing."""
        viewer, shown_player = self.viewer(), self.shown_player()
        key = (self.session.version, viewer, shown_player)
        if self._frame is None or self._frame[0] != key:
            obs = self.session.observation(viewer)
            self._frame = (key, obs, make_frame(self.session, obs, viewer, shown_player))
        return self._frame[1], self._frame[2]

    def forget(self) -> None:
        """Make the frame afresh at the next drawing."""
        self._frame = None

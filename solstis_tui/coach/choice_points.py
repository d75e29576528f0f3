"""The decisions with a real choice in a finished game, walked again from its deal.

The analysis judges these decisions, the analysis board steps through them, and a practice
game starts from one of them: all three number them alike because they walk them here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..core import Game, IllegalMove, Move


@dataclass(frozen=True)
class ChoicePoint:
    """One decision of more than one legal move, as the game reached it."""

    index: int
    """Its place among the game's decisions with a real choice, from 0."""
    history_at: int
    """Its place in ``Game.history``."""
    move_at: int
    """Its place among the decisions that were not automatic (``GameRecord.moves``)."""
    seat: int
    played: Move
    before: Game
    """The game just before the move. The walk plays on in it once the next point is
    asked for: read it (or copy it) at once, and never change it."""


def choice_points(game: Game) -> Iterator[ChoicePoint]:
    """Each decision with a real choice of ``game``, in order, from a replay of its deal
    (a legacy deal too). ValueError if it does not replay (a hand-made position)."""
    replay = Game.new(seed=game.seed, options=game.options, legacy=game.legacy)
    index = made = 0
    for i, (seat, move, auto) in enumerate(game.history):
        if auto:
            continue  # the engine plays it by itself after the move before
        if len(replay.legal) > 1:
            yield ChoicePoint(index, i, made, seat, move, replay)
            index += 1
        made += 1
        try:
            replay.play(move)
        except IllegalMove:
            raise ValueError("this game does not replay from its seed (a hand-made "
                             "position?): only games dealt from a seed can be analysed "
                             "or reviewed") from None

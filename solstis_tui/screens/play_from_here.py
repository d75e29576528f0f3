"""``PlayFromHere``: the message a review board posts to start a practice game from one
of a finished game's decisions (``SolstisApp.play_from_here`` answers it)."""

from __future__ import annotations

from textual.message import Message

from ..records import GameRecord


class PlayFromHere(Message):
    """Play on from decision ``decision_index`` (from 0, as ``analysis.analyse`` numbers
    the decisions with a real choice) of ``record``, as ``seat`` (0 or 1)."""

    def __init__(self, record: GameRecord, decision_index: int, seat: int) -> None:
        super().__init__()
        self.record = record
        self.decision_index = decision_index
        self.seat = seat

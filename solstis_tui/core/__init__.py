"""The Solstis rules engine: pure Python, no terminal, no threads.

>>> from solstis_tui.core import Game, Options, Move
>>> game = Game.new(seed=7, options=Options())
>>> game.play(game.legal_moves()[0])

``State`` (state.py) documents every attribute of a game that bots and widgets may read.
"""

from .board import cell_name, parse_cell
from .determinize import Dealer, determinize
from .errors import IllegalMove, InvalidPosition
from .events import EndReason, Event
from .game import Game
from .moves import Decision, Move, MoveKind
from .observation import Observation, PanoramaView
from .options import Options
from .pending import Pending, Step
from .scoring import Score
from .spirits import Spirit
from .state import State

__all__ = [
    "Dealer",
    "Decision",
    "EndReason",
    "Event",
    "Game",
    "IllegalMove",
    "InvalidPosition",
    "Move",
    "MoveKind",
    "Observation",
    "Options",
    "PanoramaView",
    "Pending",
    "Score",
    "Spirit",
    "State",
    "Step",
    "cell_name",
    "determinize",
    "parse_cell",
]

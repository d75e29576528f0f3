"""The board's parts as a screen stacks them: both panoramas side by side, the display,
the hand and the spirits. The game screen and the analysis board draw the same board."""

from __future__ import annotations

from collections.abc import Iterator

from textual.containers import Horizontal
from textual.widget import Widget

from .display import DisplayPiles
from .hand import HandBar
from .panorama import PanoramaGrid
from .pool import SpiritPool


def board_parts() -> Iterator[Widget]:
    """The parts, top to bottom, with the ids the screens' styles and queries use:
    ``board`` (holding ``mine`` and ``theirs``), ``display``, ``hand`` and ``pool``."""
    yield Horizontal(PanoramaGrid("mine", id="mine"), PanoramaGrid("theirs", id="theirs"),
                     id="board")
    yield DisplayPiles(id="display")
    yield HandBar(id="hand")
    yield SpiritPool(id="pool")

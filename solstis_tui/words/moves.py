"""The words the game screens use: each decision asked of a player, moves in plain English,
the board's legend. (A hint's reason is in ``hints``, in game terms.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..core import Decision, Move, MoveKind, Observation, Spirit
from ..core.board import NAMES


class Ask(NamedTuple):
    """A decision in words: asked of the person deciding, and told of someone else."""

    you: str
    """'play a tile from your hand'"""
    them: str
    """'play a tile from their hand' (after 'X is to ...' or 'X is thinking: ...')"""


DECISIONS: dict[Decision, Ask] = {
    Decision.PLAY: Ask("play a tile from your hand", "play a tile from their hand"),
    Decision.CAPTURE: Ask("choose the display tile to capture",
                          "choose the display tile to capture"),
    Decision.PLACE_RAINBOW: Ask("choose the cell for your new rainbow",
                                "choose the cell for their new rainbow"),
    Decision.MOVE_RAINBOW: Ask("your free rainbow is displaced: choose where it moves",
                               "their free rainbow is displaced: choose where it moves"),
    Decision.ENCOUNTER: Ask("a square formed: draw two spirits or take one from the line",
                            "a square formed: draw two spirits or take one from the line"),
    Decision.KEEP: Ask("keep one of the two drawn spirits (the other goes to the line)",
                       "keep one of the two drawn spirits (the other goes to the line)"),
    Decision.SQUARE: Ask("choose the square the spirit sits on",
                         "choose the square the spirit sits on"),
    Decision.DEER: Ask("Deer: choose a hand tile to put into your panorama",
                       "Deer: choose a hand tile to put into their panorama"),
    Decision.BEETLE: Ask("Beetle: choose a display tile to put into your panorama",
                         "Beetle: choose a display tile to put into their panorama"),
    Decision.VIPER: Ask("Viper: choose the opponent's isolated tile to take",
                        "Viper: choose the opponent's isolated tile to take"),
    Decision.RENARD: Ask("Renard: choose the tile your opponent must play next turn",
                         "Renard: choose the tile the opponent must play next turn"),
    Decision.EVIL: Ask("choose the opponent's cell for the Evil Spirit",
                       "choose the opponent's cell for the Evil Spirit"),
    Decision.COVER: Ask("choose which of the holder's spirits the Evil Spirit covers",
                        "choose which of the holder's spirits the Evil Spirit covers"),
}


def asked(decision: Decision | None, of_you: bool = True) -> str:
    """The pending decision in words ('' when none is pending)."""
    if decision is None:
        return ""
    ask = DECISIONS[decision]
    return ask.you if of_you else ask.them


def describe_move(move: Move) -> str:
    """``move`` in a player's words: 'play 3-5', 'take the Bee', 'rainbow on 2-4'."""
    k, a = move.kind, move.arg
    name = NAMES.get(a, "")
    if k in (MoveKind.TAKE, MoveKind.KEEP, MoveKind.COVER):
        title = Spirit(a).title
        return {MoveKind.TAKE: f"take the {title} from the line",
                MoveKind.KEEP: f"keep the {title}",
                MoveKind.COVER: f"cover the {title}"}[k]
    words = {
        MoveKind.PLAY: f"play {name}",
        MoveKind.PASS: "pass",
        MoveKind.CAPTURE: f"capture {name}",
        MoveKind.RAINBOW: f"rainbow on {name}",
        MoveKind.SHIFT: f"move the rainbow to {name}",
        MoveKind.DRAW: "draw two spirits",
        MoveKind.SQUARE: f"the square at {name}",
        MoveKind.DEER: f"Deer: put {name} into the panorama",
        MoveKind.BEETLE: f"Beetle: take {name}",
        MoveKind.VIPER: f"Viper: take {name}",
        MoveKind.RENARD: f"Renard: force {name}",
        MoveKind.EVIL: f"Evil Spirit on {name}",
    }
    return words.get(k, str(move))


def as_played(move: Move) -> str:
    """``move`` as something done, after a name: 'played 3-5', 'captured 3-8', 'kept the
    Bee', 'put a rainbow on 2-4'."""
    k, a = move.kind, move.arg
    name = NAMES.get(a, "")
    if k in (MoveKind.TAKE, MoveKind.KEEP, MoveKind.COVER):
        title = Spirit(a).title
        return {MoveKind.TAKE: f"took the {title} from the line",
                MoveKind.KEEP: f"kept the {title}",
                MoveKind.COVER: f"covered the {title}"}[k]
    words = {
        MoveKind.PLAY: f"played {name}",
        MoveKind.PASS: "passed",
        MoveKind.CAPTURE: f"captured {name}",
        MoveKind.RAINBOW: f"put a rainbow on {name}",
        MoveKind.SHIFT: f"moved the rainbow to {name}",
        MoveKind.DRAW: "drew two spirits",
        MoveKind.SQUARE: f"chose the square at {name}",
        MoveKind.EVIL: f"put the Evil Spirit on {name}",
    }
    return words.get(k) or f"chose {describe_move(move)}"


def short_move(move: Move) -> str:
    """``move`` in at most 15 characters, for the analysis board's lists: 'square 2-3',
    'take Butterfly' (``describe_move`` says it in full)."""
    k, a = move.kind, move.arg
    name = NAMES.get(a, "")
    if k in (MoveKind.TAKE, MoveKind.KEEP, MoveKind.COVER):
        return f"{k.name.lower()} {Spirit(a).title}"
    words = {
        MoveKind.SHIFT: f"rainbow to {name}",
        MoveKind.DRAW: "draw two",
        MoveKind.SQUARE: f"square {name}",
        MoveKind.DEER: f"Deer {name}",
        MoveKind.BEETLE: f"Beetle {name}",
        MoveKind.VIPER: f"Viper {name}",
        MoveKind.RENARD: f"Renard {name}",
        MoveKind.EVIL: f"Evil on {name}",
    }
    return words.get(k) or describe_move(move)


#: Star differences the strongest bot's short searches cannot tell apart: a hint calls two
#: moves this close about equally good.
CLOSE_CALL = 0.5


def close_call(difference: float) -> bool:
    """Two moves ``difference`` stars apart (by the bot's estimate) are about as good."""
    return abs(difference) < CLOSE_CALL


def passes_note(obs: Observation, name: Callable[[int], str]) -> str:
    """'Minimax bot passed: no tile in hand could capture · ' for every end-phase pass
    made by itself since the viewer's own last decision; '' when there was none."""
    passed: list[int] = []
    for player, mv, auto in reversed(obs.history):
        if not auto and player == obs.player:
            break
        if auto and mv.kind is MoveKind.PASS and player not in passed:
            passed.append(player)
    return "".join(f"{name(p)} passed: no tile in hand could capture · "
                   for p in reversed(passed))

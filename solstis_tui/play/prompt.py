"""The prompt line's words: what is asked, the keys that answer it, and who is waited on.

Pure functions of a game's public state and the board being shown; the controller picks
which applies (a person deciding, a bot thinking, the game over) and adds its own
error, notice and hint.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Decision, EndReason, MoveKind, Observation
from ..core.board import NAMES
from ..core.events import SquirrelPlaced
from ..words.moves import asked, passes_note
from ..words.narrate import outcome, possessive
from .session_view import SessionView
from .view import BoardView
from .zones import Zone, item_effect


@dataclass(frozen=True)
class Prompt:
    """The prompt line: what is asked (``headline``), the keys or a notice (``detail``),
    a refusal (``error``), a hint, and whether a bot is thinking (a spinner shows)."""

    headline: str
    detail: str = ""
    error: str = ""
    hint: str = ""
    thinking: bool = False


#: What the digits / letters / cursor do in each zone (the prompt's second line).
ZONE_KEYS: dict[Zone, str] = {
    Zone.HAND: "1 to {n} or ←→ pick a tile · Enter plays it",
    Zone.DISPLAY: "A to {L} or ←→ pick a pile · Enter takes it",
    Zone.SPIRITS: "1 to {n} or ←→ choose · Enter confirms",
    Zone.OPP_HAND: "1 to {n} or ←→ pick their tile · Enter confirms",
    Zone.MINE: "arrows/hjkl move · Tab next target · Enter confirms",
    Zone.THEIRS: "arrows/hjkl move · Tab next target · Enter confirms",
}
#: The prompt's width at 80 columns (what a line may take before it wraps or is cut).
LINE = 78
#: Added to the display zone's keys when Esc can take back the tile just played.
ESC_BACK = " · Esc back"


def zone_keys(view: BoardView | None, esc_takes_back: bool) -> str:
    """The keys that answer the pending decision ('' when none is asked here)."""
    if view is None or view.zone is None:
        return ""
    n = len(view.items)
    keys = ZONE_KEYS[view.zone].format(n=max(n, 1), L=chr(ord("A") + max(n - 1, 0)))
    if view.zone is Zone.DISPLAY:  # only the piles that can be picked
        letters = [chr(ord("A") + i) for i, item in enumerate(view.items) if item.legal]
        if 0 < len(letters) < n:
            keys = keys.replace(f"A to {chr(ord('A') + n - 1)}", ", ".join(letters))
    return keys + ESC_BACK if esc_takes_back and view.zone is Zone.DISPLAY else keys


def picked_effect(view: BoardView) -> str:
    """What the picked item or the cursor would do ('' when nothing is picked)."""
    if 0 <= view.selected < len(view.items):
        item = view.items[view.selected]
        if view.obs.decision is Decision.PLAY:
            caps = sorted(NAMES[t] for t in view.capturable)
            return (f"{item.label} captures {', '.join(caps)}" if caps
                    else f"{item.label} captures nothing: second chance")
        if view.obs.decision is Decision.ENCOUNTER and item.move is not None and \
                item.move.kind is MoveKind.DRAW:
            return "d or Enter draws two spirits"
        return item_effect(view.obs, item)
    if view.cursor is not None:
        where = NAMES.get(view.cursor, "")
        return f"square at {where}" if view.square_mode else f"cursor {where}"
    return ""


def deciding_lines(session: SessionView, game: Observation, view: BoardView, keys: str,
                   turn_in_prompt: bool = True) -> tuple[str, str]:
    """(headline, detail) while a person at this screen decides."""
    who = session.name(game.to_play)
    subject = "Your" if who == "You" else f"{who}'s"
    turn = f" (turn {game.turn})" if turn_in_prompt else ""
    headline = f"{subject} decision{turn}: {asked(game.decision)}"
    if len(headline) > LINE:  # the turn is in the top bar too: one line, not two
        headline = f"{subject} decision: {asked(game.decision)}"
    extra = picked_effect(view)  # u, t and ? are in the footer (and in ? itself)
    detail = f"{extra} · {keys}" if extra else keys
    if len(detail) > LINE:  # the keys are never the part cut off (a spirit's effect is)
        detail = f"{keys} · {extra}"
    return headline, passes_note(game, session.name) + detail


def game_over_lines(session: SessionView, game: Observation) -> tuple[str, str]:
    """(headline, detail) once the game is over: who won, why tiles were left, what next."""
    result = outcome(game.end_reason, game.winner, session.name)
    undo = " · u undo" if (takeback := session.takeback) is not None and \
        takeback.can_undo() else ""
    why = " " + left_in_hand(session, game) if game.end_reason is EndReason.NORMAL else ""
    return (f"Game over: {result}.{why}".rstrip(),
            f"Enter: score sheet · r review · n new game{undo} · q quit")


def left_in_hand(session: SessionView, game: Observation) -> str:
    """Why tiles were left in hand at a normal end, and what became of them: a Squirrel put
    its owner's hand into the panorama (§9); any other tile left in hand scores nothing."""
    held = game.hand_counts if game.spectator else \
        ((len(game.hand), game.opponent_hand_count) if game.player == 0
         else (game.opponent_hand_count, len(game.hand)))
    squirrelled = [e.player for e in game.log if isinstance(e, SquirrelPlaced)]
    said = [f"the Squirrel scored {possessive(session.name(p))} hand" for p in squirrelled]
    holders = [p for p in (0, 1) if held[p]]
    if holders and not said:
        said.append("tiles left in hand score nothing")
    elif holders:  # next to a Squirrel's hand, say whose tiles scored nothing
        said += [f"tiles left in {possessive(session.name(p))} hand score nothing"
                 for p in holders]
    return f"Neither player could capture: {'; '.join(said)}." if said else ""


def waiting_lines(session: SessionView, game: Observation, paused: bool) -> tuple[str, str]:
    """(headline, detail) while a bot decides here."""
    who = session.name(game.to_play)
    third = asked(game.decision, of_you=False)
    passed = passes_note(game, session.name)
    if paused:
        return (f"Paused: {who} is to {third}.",
                passed + "p resumes · . makes one bot decision · q quits")
    return f"{who} is thinking: {third}", passed + "Space skips ahead · p pauses · q quits"

"""Hand-made positions for rule tests, built through the public JSON format."""

from __future__ import annotations

import json
from typing import Any

from solstis_tui.core import Game, Spirit
from solstis_tui.core.board import CELLS, NAMES
from solstis_tui.core.json_codec import event_to_json


def _named(players: list[dict], display: list, removed: list, extra: dict) -> set[str]:
    used = set(removed)
    for p in players:
        used.update(p.get("hand", []))
        used.update(p.get("land", []))
    for up, down in display:
        used.add(up)
        if down:
            used.add(down)
    state = extra.get("state") or {}
    if state.get("decision") in ("capture", "move_rainbow"):
        used.add(state["context"][0])
    for task in state.get("tasks", []):
        if task[0] == "put":
            used.add(task[2])
    return used


def position(
    p0: dict | None = None,
    p1: dict | None = None,
    display: list | None = None,
    pile_top: list[str] | None = None,
    empty_pile: bool = False,
    spirit_top: list[str] | None = None,
    pile: list[str] | None = None,
    **extra: Any,
) -> Game:
    """A game from a few facts: each player's dict (hand, land, rainbows, spirits...), the
    display as [face-up, face-down or None] pairs, the land pile's top tiles (the rest of
    the 48 follow in board order, or the pile is empty with ``empty_pile``) and the spirit
    pile's top spirits (the rest follow). Any other top-level field of the JSON format may
    be given as a keyword. ``pile`` gives the exact land pile (top first): the tiles
    placed nowhere else are then put out of the game."""
    players = [dict(p0 or {}), dict(p1 or {})]
    display = display or []
    removed = extra.pop("removed", [])
    used = _named(players, display, removed, extra)
    top = list(pile_top or [])
    rest = [NAMES[c] for c in CELLS if NAMES[c] not in used and NAMES[c] not in top]
    if pile is not None:
        removed = removed + [t for t in rest + top if t not in pile]
        top, rest = list(pile), []
    elif empty_pile:
        # Tiles not placed anywhere are put out of the game so the pile can be empty.
        removed = removed + rest + top
        top, rest = [], []
    data: dict[str, Any] = {
        "format": "solstis-game",
        "version": 1,
        "players": players,
        "display": [[u, d] for u, d in display],
        "land_pile": top + rest,
        "removed": removed,
        **extra,
    }
    if spirit_top is not None:
        data["spirit_top"] = spirit_top
    return Game.from_json(json.dumps(_with_spirit_pile(data)))


def _with_spirit_pile(data: dict) -> dict:
    top = data.pop("spirit_top", None)
    if top is None:
        return data
    from solstis_tui.core.spirits import spirit_set

    opts = data.get("options", {})
    allowed = [s.name.lower() for s in spirit_set(opts.get("firefly", False),
                                                  opts.get("beginner", False))]
    placed = set(data.get("spirit_line", []))
    for p in data["players"]:
        placed.update(s for s, _ in p.get("spirits", []))
    if data.get("evil", {}).get("player") is not None:
        placed.add("evil")
    data["spirit_pile"] = top + [s for s in allowed if s not in placed and s not in top]
    return data


def moves(game: Game) -> list[str]:
    """The legal moves in notation."""
    return [str(m) for m in game.legal_moves()]


def play(game: Game, *texts: str) -> Game:
    """Play each move written in notation; returns the game."""
    for text in texts:
        game.play_str(text)
    return game


# ---------------------------------------------------------------------- reading a game
def names(cells) -> set[str]:
    """Cell names of a bit mask or an iterable of cell indices."""
    from solstis_tui.core.board import bits

    items = bits(cells) if isinstance(cells, int) else cells
    return {NAMES[c] for c in items}


def land(game: Game, p: int) -> set[str]:
    """The land tiles in player p's panorama, by name."""
    return names(game.land[p])


def rainbows(game: Game, p: int) -> set[str]:
    """The cells of player p's rainbows, by name."""
    return names(game.rainbow_cells[p])


def hand(game: Game, p: int) -> list[str]:
    """Player p's hand, by name, in board order."""
    return [NAMES[t] for t in game.hands[p]]


def spirits(game: Game, p: int) -> dict[str, str]:
    """Player p's spirits: {spirit name: lower-left cell of its square}."""
    return {s.name.lower(): NAMES[sq] for s, sq in game.spirits[p]}


def fireflies(game: Game, p: int) -> set[str]:
    """The squares (lower-left cells) holding player p's fireflies."""
    return names(game.fireflies[p])


def display(game: Game) -> list[tuple[str, str | None]]:
    """The display piles as (face-up, face-down or None) names."""
    return [(NAMES[u], NAMES[d] if d >= 0 else None)
            for u, d in zip(game.face_up, game.face_down, strict=True)]


def removed(game: Game) -> set[str]:
    """Land tiles out of the game."""
    return names(game.removed)


def events(game: Game, kind: str) -> list[tuple]:
    """The log events of one kind, in their JSON form as tuples: ``(kind, field, ...)``."""
    return [tuple(event_to_json(e)) for e in game.log if e.kind == kind]


def line(game: Game) -> list[str]:
    """The spirit line, by name."""
    return [Spirit(s).name.lower() for s in game.spirit_line]


def spirit_pile(game: Game) -> list[str]:
    """The spirit pile, top first, by name."""
    return [Spirit(s).name.lower() for s in reversed(game.spirit_pile)]


def other_spirits(*taken: str, firefly: bool = False, beginner: bool = False) -> list[str]:
    """Every spirit of the variant except ``taken`` and the Evil Spirit, by name (e.g. to
    fill the spirit line when a test needs a nearly empty spirit pile)."""
    from solstis_tui.core.spirits import Spirit, spirit_set

    return [s.name.lower() for s in spirit_set(firefly, beginner)
            if s.name.lower() not in taken and s is not Spirit.EVIL]


def auto_moves(game: Game) -> list[str]:
    """The moves the engine applied by itself, in notation."""
    return [str(m) for _, m, auto in game.history if auto]

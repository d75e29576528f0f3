"""Games to and from JSON: versioned, human-readable, and strict about what it accepts.

The format names tiles and cells ``"row-column"``, squares by their lower-left cell and
spirits by their lower-case names. Piles list their top first. A hand-made position may leave
out ``land_pile`` / ``spirit_pile`` (the rest, shuffled from ``seed``), the supplies (derived
from what is on the table) and ``state`` (the start of ``to_play``'s turn).

Version 2 games draw at random (the Fly) from a generator keyed with ``seed``; ``rng`` counts
its draws. Version 1 (games saved before secret deals, and bots' imaginary worlds) used
SplitMix64, whose state is ``rng``: such games are still read and written as version 1.

A game not marked ``over`` must be one the rules have not ended (the engine's own saves
always are). Four fireflies for a player (rules.md §10) is refused with an
``InvalidPosition`` saying so. A turn start with an empty land pile where neither player
holds a tile that can capture (rules.md §8) is, by that rule, the end: ``Game.from_json``
plays it on to the end (Evil Spirit cover, Squirrel, scoring), so a hand-made position can
ask for the end of a game without working out its result.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any, TypeVar

from . import rng as _rng
from .board import CELLS, NAMES, SQUARE_CELLS, SQUARES, parse_cell, squares_cells
from .errors import InvalidPosition
from .events import EndReason
from .json_codec import (
    SPIRIT_NAMES,
    cell_name_or_none,
    cell_names,
    context_item_from_json,
    context_item_to_json,
    event_from_json,
    event_to_json,
    spirit_name,
    task_from_json,
    task_to_json,
)
from .moves import Decision, Move
from .options import Options
from .spirits import Spirit, parse_spirit, spirit_set
from .state import State
from .steps import FIREFLIES, RAINBOWS, pair

S = TypeVar("S", bound=State)

FORMAT = "solstis-game"
VERSION = 2
#: The format of games whose draws come from SplitMix64 (saved before secret deals).
SPLITMIX_VERSION = 1

# ---------------------------------------------------------------------- writing
def game_to_dict(game: State) -> dict[str, Any]:
    """The game as plain data (see the module docstring). A game people ended (``Game.end``)
    is the position it ended in, with ``"ended": {"reason", "loser"}``."""
    before = game._before_end
    if before is not None and game.end_reason is not None:
        data = game_to_dict(before)
        loser = None if game.winner is None else 1 - game.winner
        data["ended"] = {"reason": game.end_reason.value, "loser": loser}
        return data
    players = []
    for p in (0, 1):
        players.append({
            "hand": cell_names(game.hands[p]),
            "hand_size": game.hand_size[p],
            "land": cell_names(game.land[p]),
            "rainbows": cell_names(game.rainbow_cells[p]),
            "spirits": [[spirit_name(s), NAMES[sq]] for s, sq in game.spirits[p]],
            "covered": spirit_name(game.covered[p]) if game.covered[p] >= 0 else None,
            "fireflies": cell_names(game.fireflies[p]),
            "must_play": cell_name_or_none(game.must_play[p]),
            "seen_in_opponent_hand": cell_names(game.revealed[p]),
        })
    return {
        "format": FORMAT,
        "version": VERSION if game._draws.keyed else SPLITMIX_VERSION,
        "options": {"beginner": game.options.beginner, "firefly": game.options.firefly},
        "seed": game.seed,
        "rng": game.draw_state,
        "turn": game.turn,
        "to_play": game.to_play,
        "land_pile": cell_names(reversed(game.pile)),
        "display": [[NAMES[u], cell_name_or_none(d)]
                    for u, d in zip(game.face_up, game.face_down, strict=True)],
        "removed": cell_names(game.removed),
        "rainbow_supply": game.rainbow_supply,
        "rainbows_out": game.rainbows_out,
        "firefly_supply": game.firefly_supply,
        "spirit_pile": [spirit_name(s) for s in reversed(game.spirit_pile)],
        "spirit_line": [spirit_name(s) for s in game.spirit_line],
        "evil": {"player": game.evil_player if game.evil_player >= 0 else None,
                 "cell": cell_name_or_none(game.evil_cell)},
        "players": players,
        "marmot": game.marmot,
        "state": _state_to_dict(game),
        "over": ({"winner": game.winner, "reason": game.end_reason.value}
                 if game.is_over and game.end_reason is not None else None),
        "history": [[p, str(m), auto] for p, m, auto in game.history],
        "log": [event_to_json(e) for e in game.log],
    }


def _state_to_dict(game: State) -> dict[str, Any]:
    return {
        "decision": game.decision.name.lower() if game.decision else None,
        "context": [context_item_to_json(game.decision, x) for x in game.context],
        "tasks": [task_to_json(t) for t in game._tasks],
        "touched": cell_names(game._touched),
        "formed": cell_names(game._formed),
        "evil_drawn": game._evil_new,
        "end_phase": game.end_phase,
    }


def game_to_json(game: State) -> str:
    return json.dumps(game_to_dict(game), indent=1)


# ---------------------------------------------------------------------- reading
class _Reader:
    """Reads one JSON document into a Game, raising InvalidPosition with a clear reason."""

    def __init__(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise InvalidPosition("a saved game must be a JSON object")
        self.data = data
        self.where: dict[int, str] = {}
        self.spirit_where: dict[int, str] = {}
        # Per-player pairs are tuples in a game: they are read into these lists first. A
        # pile stays None when the document leaves it out.
        self.hand_size, self.covered, self.fireflies = [3, 3], [-1, -1], [0, 0]
        self.must_play, self.revealed = [-1, -1], [0, 0]
        self.spirits: list[list[tuple[Spirit, int]]] = [[], []]
        self.pile: list[int] | None = None
        self.spirit_pile: list[int] | None = None

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...,
            src: dict[str, Any] | None = None) -> Any:
        src = self.data if src is None else src
        if key not in src:
            if default is ...:
                raise InvalidPosition(f"missing field {key!r}")
            return default
        value = src[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            raise InvalidPosition(f"field {key!r} has the wrong type ({type(value).__name__})")
        return value

    def tile(self, text: Any, place: str) -> int:
        if not isinstance(text, str):
            raise InvalidPosition(f"{place}: {text!r} is not a tile name like '3-7'")
        try:
            tile = parse_cell(text)
        except ValueError:
            raise InvalidPosition(f"{place}: {text!r} is not a land tile") from None
        if tile in self.where:
            raise InvalidPosition(
                f"tile {text} is in two places: {self.where[tile]} and {place}")
        self.where[tile] = place
        return tile

    def cell(self, text: Any, place: str) -> int:
        try:
            return parse_cell(text) if isinstance(text, str) else int("x")
        except ValueError:
            raise InvalidPosition(f"{place}: {text!r} is not a cell like '3-7'") from None

    def spirit(self, text: Any, place: str, allowed: Collection[int]) -> Spirit:
        try:
            spirit = parse_spirit(text) if isinstance(text, str) else parse_spirit("?")
        except ValueError:
            raise InvalidPosition(f"{place}: {text!r} is not a spirit") from None
        if spirit not in allowed:
            raise InvalidPosition(f"{place}: the {spirit.title} is not in this variant")
        if spirit in self.spirit_where:
            raise InvalidPosition(f"spirit {spirit.title} is in two places: "
                                  f"{self.spirit_where[spirit]} and {place}")
        self.spirit_where[spirit] = place
        return spirit

    def tiles(self, key: str, place: str, src: dict[str, Any] | None = None,
              default: Any = ...) -> list[int]:
        return [self.tile(t, place) for t in self.get(key, list, default, src)]

    # ------------------------------------------------------------------ the game
    def read(self, blank: Callable[[Options, int, _rng.Draws], S]) -> S:
        d = self.data
        if d.get("format") != FORMAT:
            raise InvalidPosition(f"not a Solstis game (format should be {FORMAT!r})")
        version = d.get("version")
        if version not in (SPLITMIX_VERSION, VERSION):
            raise InvalidPosition(f"version {version!r} is not supported (this program reads "
                                  f"versions {SPLITMIX_VERSION} and {VERSION})")
        opts = self.get("options", dict, {})
        options = Options(beginner=self.get("beginner", bool, False, opts),
                          firefly=self.get("firefly", bool, False, opts))
        seed = self.get("seed", int, 0)
        g = blank(options, seed, _rng.Keyed(seed) if version == VERSION else _rng.SPLITMIX)
        g.draw_state = self.get("rng", int, g.draw_state)
        if version == VERSION and not 0 <= g.draw_state < 1 << 64:
            raise InvalidPosition(f"'rng' must be between 0 and 2**64 - 1, not {g.draw_state}")
        g.turn = self.get("turn", int, 1)
        g.to_play = self._player(self.get("to_play", int, 0), "to_play")
        g.marmot = self.get("marmot", bool, False)
        self._read_table(g)
        self._read_players(g)
        self._read_spirits(g)
        self._register_transit(g)
        self._fill_piles(g)
        self._check_supplies(g)
        g.hand_size, g.covered, g.fireflies = (
            pair(self.hand_size), pair(self.covered), pair(self.fireflies))
        g.must_play, g.revealed = pair(self.must_play), pair(self.revealed)
        g.spirits = (tuple(self.spirits[0]), tuple(self.spirits[1]))
        self._read_state(g)
        if not g.is_over:
            self._check_in_play(g)
        self._read_history(g)
        self._read_ended(g)
        return g

    def _read_ended(self, g: State) -> None:
        ended = self.get("ended", (dict, type(None)), None)
        if ended is None:
            return
        reason = self._reason(self.get("reason", str, "", ended))
        loser = self.get("loser", (int, type(None)), None, ended)
        if g.is_over or reason.by_rules or (loser is None) != (reason is EndReason.ABANDONED):
            raise InvalidPosition(f"a game cannot have ended so: {ended!r}")
        if loser is not None:
            self._player(loser, "ended: loser")
        g._end_now(reason, loser)

    def _reason(self, name: str) -> EndReason:
        try:
            return EndReason(name)
        except ValueError:
            raise InvalidPosition(f"{name!r} is not a way a game ends (one of "
                                  f"{', '.join(r.value for r in EndReason)})") from None

    def _player(self, value: int, place: str) -> int:
        if value not in (0, 1):
            raise InvalidPosition(f"{place}: player must be 0 or 1, not {value}")
        return value

    def _read_table(self, g: State) -> None:
        display = self.get("display", list, [])
        for i, pile in enumerate(display):
            if not isinstance(pile, list) or len(pile) != 2 or pile[0] is None:
                raise InvalidPosition(
                    f"display pile {i + 1} must be [face-up tile, face-down tile or null]")
            up = self.tile(pile[0], f"display pile {i + 1}")
            down = -1 if pile[1] is None else self.tile(pile[1], f"display pile {i + 1} "
                                                                 "(face down)")
            g.face_up.append(up)
            g.face_down.append(down)
            g.face_up_mask |= 1 << up
        for t in self.tiles("removed", "the box (removed)", default=[]):
            g.removed |= 1 << t
        pile = self.get("land_pile", list, None)
        if pile is not None:
            self.pile = [self.tile(t, "the land pile") for t in pile][::-1]

    def _read_players(self, g: State) -> None:
        players = self.get("players", list)
        if len(players) != 2 or not all(isinstance(p, dict) for p in players):
            raise InvalidPosition("'players' must hold two player objects")
        for p, src in enumerate(players):
            who = f"player {p}"
            self.hand_size[p] = self.get("hand_size", int, 3, src)
            if self.hand_size[p] not in (3, 4):
                raise InvalidPosition(f"{who}: hand size must be 3 or 4")
            g.hands[p] = sorted(self.tiles("hand", f"{who}'s hand", src, []))
            if len(g.hands[p]) > self.hand_size[p]:
                raise InvalidPosition(f"{who} holds {len(g.hands[p])} tiles but the hand "
                                      f"size is {self.hand_size[p]}")
            for t in self.tiles("land", f"{who}'s panorama", src, []):
                g.land[p] |= 1 << t
            for text in self.get("rainbows", list, [], src):
                cell = self.cell(text, f"{who}'s rainbows")
                if (g.land[p] | g.rainbow_cells[p]) >> cell & 1:
                    raise InvalidPosition(f"{who}: cell {text} holds a rainbow and a tile")
                g.rainbow_cells[p] |= 1 << cell
            filled = g.land[p] | g.rainbow_cells[p]
            for text in self.get("fireflies", list, [], src):
                sq = self._square(text, f"{who}'s fireflies", filled)
                self.fireflies[p] |= 1 << sq
            must = self.get("must_play", (str, type(None)), None, src)
            self.must_play[p] = self.cell(must, f"{who}'s must_play") if must else -1
            for text in self.get("seen_in_opponent_hand", list, [], src):
                self.revealed[p] |= 1 << self.cell(text, f"{who}'s seen tiles")

    def _square(self, text: Any, place: str, filled: int) -> int:
        sq = self.cell(text, place)
        if sq not in SQUARES:
            raise InvalidPosition(f"{place}: no 2x2 square has lower-left cell {text}")
        if filled & SQUARE_CELLS[sq] != SQUARE_CELLS[sq]:
            raise InvalidPosition(f"{place}: square {text} is not complete in that panorama")
        return sq

    def _read_spirits(self, g: State) -> None:
        allowed = set(spirit_set(g.options.firefly, g.options.beginner))
        players = self.data["players"]
        for p, src in enumerate(players):
            who = f"player {p}"
            filled = g.land[p] | g.rainbow_cells[p]
            for item in self.get("spirits", list, [], src):
                if not isinstance(item, list) or len(item) != 2:
                    raise InvalidPosition(f"{who}'s spirits: each is [spirit, square]")
                spirit = self.spirit(item[0], f"{who}'s panorama", allowed)
                if spirit == Spirit.EVIL:
                    raise InvalidPosition(f"{who}: the Evil Spirit never sits on a square")
                sq = self._square(item[1], f"{who}'s {spirit.title}", filled)
                if (g.occupied_squares[p] | self.fireflies[p]) >> sq & 1:
                    raise InvalidPosition(f"{who}: square {item[1]} holds two things")
                self.spirits[p].append((spirit, sq))
                g.occupied_squares[p] |= 1 << sq
            g.occupied_squares[p] |= self.fireflies[p]
            g.blocked[p] = squares_cells(g.occupied_squares[p])
            covered = self.get("covered", (str, type(None)), None, src)
            if covered is not None:
                cover = parse_spirit(covered) if covered in SPIRIT_NAMES else None
                if cover is None or cover not in [s for s, _ in self.spirits[p]]:
                    raise InvalidPosition(f"{who}: covered spirit {covered!r} is not theirs")
                self.covered[p] = int(cover)
        g.spirit_line = [int(self.spirit(s, "the spirit line", allowed))
                         for s in self.get("spirit_line", list, [])]
        if Spirit.EVIL in g.spirit_line:
            raise InvalidPosition("the Evil Spirit never goes to the spirit line")
        evil = self.get("evil", dict, {})
        player = self.get("player", (int, type(None)), None, evil)
        if player is not None:
            g.evil_player = self._player(player, "evil.player")
            self.spirit("evil", "the Evil Spirit's place", allowed)
            cell = self.get("cell", (str, type(None)), None, evil)
            if g.options.firefly:
                if cell is None:
                    raise InvalidPosition("Firefly: the Evil Spirit needs a cell")
                g.evil_cell = self.cell(cell, "evil.cell")
                if (g.land[player] | g.rainbow_cells[player]) >> g.evil_cell & 1:
                    raise InvalidPosition(f"the Evil Spirit's cell {cell} is not empty")
            elif cell is not None:
                raise InvalidPosition("the base game's Evil Spirit has no cell")
        pile = self.get("spirit_pile", list, None)
        self.spirit_pile = (None if pile is None else
                   [int(self.spirit(s, "the spirit pile", allowed)) for s in reversed(pile)])

    def _register_transit(self, g: State) -> None:
        """Tiles and spirits held by the pending decision or the queued steps."""
        state = self.data.get("state")
        if not isinstance(state, dict) or self.data.get("over"):
            return
        allowed = set(spirit_set(g.options.firefly, g.options.beginner))
        decision = state.get("decision")
        context = state.get("context") or []
        tasks = state.get("tasks") or []
        if not isinstance(context, list) or not isinstance(tasks, list):
            raise InvalidPosition("the 'state' section is malformed")
        if decision in ("capture", "move_rainbow") and context:
            self.tile(context[0], "the tile in play")
        if decision in ("keep", "square"):
            for name in context:
                if name != "evil":
                    self.spirit(name, "the spirits in play", allowed)
        for task in tasks:
            if isinstance(task, list) and len(task) == 4 and task[0] == "put":
                self.tile(task[2], "the tiles in play")
        evil_moving = decision == "evil" or state.get("evil_drawn") or any(
            isinstance(t, list) and t[:1] == ["evil"] for t in tasks)
        if evil_moving and Spirit.EVIL not in self.spirit_where:
            self.spirit("evil", "the Evil Spirit in play", allowed)

    def _fill_piles(self, g: State) -> None:
        """Shuffle the tiles and spirits a hand-made position left out into the piles."""
        draws = g._draws
        state = _rng.seed_state(g.seed ^ 0x5EED)
        rest = [t for t in CELLS if t not in self.where]
        if self.pile is None:
            if isinstance(draws, _rng.Keyed):
                draws.shuffle(b"fill-tiles", rest)
            else:
                state = _rng.shuffle(state, rest)
            g.pile = rest
        elif rest:
            raise InvalidPosition(f"tile {NAMES[rest[0]]} is nowhere ({len(rest)} missing)")
        else:
            g.pile = self.pile
        allowed = spirit_set(g.options.firefly, g.options.beginner)
        spare = [s for s in allowed if s not in self.spirit_where]
        if self.spirit_pile is None:
            if isinstance(draws, _rng.Keyed):
                draws.shuffle(b"fill-spirits", spare)
            else:
                _rng.shuffle(state, spare)
            g.spirit_pile = [int(s) for s in spare]
        elif spare and not self.data.get("over"):
            raise InvalidPosition(f"spirit {spare[0].title} is nowhere")
        else:
            g.spirit_pile = self.spirit_pile

    def _check_supplies(self, g: State) -> None:
        used = g.rainbow_cells[0].bit_count() + g.rainbow_cells[1].bit_count()
        g.rainbows_out = self.get("rainbows_out", int, 0)
        g.rainbow_supply = self.get("rainbow_supply", int, RAINBOWS - used - g.rainbows_out)
        if (min(g.rainbow_supply, g.rainbows_out) < 0
                or g.rainbow_supply + used + g.rainbows_out != RAINBOWS):
            raise InvalidPosition(
                f"rainbows do not add up to {RAINBOWS}: {g.rainbow_supply} in supply, {used} in "
                f"panoramas, {g.rainbows_out} out of the game")
        flies = self.fireflies[0].bit_count() + self.fireflies[1].bit_count()
        if flies and not g.options.firefly:
            raise InvalidPosition("fireflies are only in the Firefly expansion")
        g.firefly_supply = self.get("firefly_supply", int, FIREFLIES - flies)
        if g.firefly_supply < 0 or g.firefly_supply + flies != FIREFLIES:
            raise InvalidPosition(f"fireflies do not add up to {FIREFLIES}")

    def _read_state(self, g: State) -> None:
        over = self.get("over", (dict, type(None)), None)
        state = self.get("state", (dict, type(None)), None)
        if over is not None:
            winner = self.get("winner", (int, type(None)), None, over)
            reason = self._reason(self.get("reason", str, "normal", over))
            g.is_over, g.winner, g.end_reason = True, winner, reason
            if isinstance(state, dict):
                g._evil_new = bool(state.get("evil_drawn", False))
                g.end_phase = bool(state.get("end_phase", not g.pile))
            return
        if state is None or state.get("decision") is None:
            g.turn -= 1
            g._begin_turn()
            return
        try:
            g.decision = Decision[str(state["decision"]).upper()]
            g.context = tuple(context_item_from_json(g.decision, x)
                              for x in state.get("context", []))
            g._tasks = [task_from_json(t) for t in state.get("tasks", [])]
            g._touched = sum(1 << parse_cell(c) for c in state.get("touched", []))
            g._formed = sum(1 << parse_cell(c) for c in state.get("formed", []))
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise InvalidPosition(f"the 'state' section is malformed: {exc}") from None
        g._evil_new = bool(state.get("evil_drawn", False))
        g.end_phase = bool(state.get("end_phase", not g.pile))
        g._legal = g._compute_legal()
        if not g._legal:
            raise InvalidPosition(f"the pending decision ({g.decision.name.lower()}) has no "
                                  "legal move in this position")

    @staticmethod
    def _check_in_play(g: State) -> None:
        """Refuse a game in play with four fireflies for a player (see the module
        docstring): the engine's own saves never hold one, so it is a mistake."""
        for p in (0, 1):
            count = g.fireflies[p].bit_count()
            if count >= 4:
                raise InvalidPosition(
                    f"player {p} has {count} fireflies but the game is not over: the 4th "
                    "firefly ends the game at once (rules.md §10); write it as over "
                    f'("over": {{"winner": {p}, "reason": "fireflies"}}) or take fireflies '
                    "away")

    def _read_history(self, g: State) -> None:
        history = self.get("history", list, [])
        try:
            g.history = [(int(p), Move.parse(m), bool(auto)) for p, m, auto in history]
        except (ValueError, TypeError) as exc:
            raise InvalidPosition(f"the history is malformed: {exc}") from None
        log = self.get("log", list, None)
        if log is not None:
            g.log = [event_from_json(e) for e in log if isinstance(e, list) and e]


def game_from_json(text: str | bytes, blank: Callable[[Options, int, _rng.Draws], S]) -> S:
    """Parse and check a saved or hand-made game; InvalidPosition names any problem."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidPosition(f"not valid JSON: {exc}") from None
    return _Reader(data).read(blank)

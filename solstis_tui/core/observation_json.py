"""Observations to and from plain JSON data, for sending one seat's view over a wire."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from .board import NAMES, parse_cell
from .errors import InvalidPosition
from .events import EndReason
from .json_codec import (
    context_item_from_json,
    context_item_to_json,
    event_from_json,
    event_to_json,
)
from .moves import Decision, Move
from .observation import Observation, PanoramaView
from .options import Options
from .pending import Pending, Step, task_of
from .spirits import Spirit, parse_spirit

T = TypeVar("T")


def _names(tiles: Iterable[int]) -> list[str]:
    return [NAMES[t] for t in tiles]


def _opt_name(tile: int | None) -> str | None:
    return None if tile is None else NAMES[tile]


def observation_to_dict(obs: Observation) -> dict[str, Any]:
    """``obs`` as JSON-ready data; ``observation_from_dict`` reverses it exactly."""
    return {
        "player": obs.player,
        "spectator": obs.spectator,
        "options": {"beginner": obs.options.beginner, "firefly": obs.options.firefly},
        "turn": obs.turn,
        "to_play": obs.to_play,
        "decision": obs.decision.name.lower() if obs.decision else None,
        "legal_moves": [str(m) for m in obs.legal_moves],
        "context": [context_item_to_json(obs.decision, x) for x in obs.context],
        "hand": _names(obs.hand),
        "hand_counts": list(obs.hand_counts),
        "opponent_hand_count": obs.opponent_hand_count,
        "opponent_known": _names(obs.opponent_known),
        "known_by_opponent": _names(obs.known_by_opponent),
        "panoramas": [
            {
                "land": _names(v.land),
                "rainbows": _names(v.rainbows),
                "spirits": [[s.name.lower(), NAMES[sq]] for s, sq in v.spirits],
                "covered": v.covered.name.lower() if v.covered is not None else None,
                "fireflies": _names(v.fireflies),
                "forbidden": _opt_name(v.forbidden),
                "hand_size": v.hand_size,
            }
            for v in obs.panoramas
        ],
        "display": [[NAMES[t], down] for t, down in obs.display],
        "land_pile": obs.land_pile,
        "spirit_line": [s.name.lower() for s in obs.spirit_line],
        "spirit_pile": obs.spirit_pile,
        "rainbow_supply": obs.rainbow_supply,
        "firefly_supply": obs.firefly_supply,
        "removed": _names(obs.removed),
        "in_transit": _names(obs.in_transit),
        "rainbows_out": obs.rainbows_out,
        "evil_player": obs.evil_player,
        "must_play": [_opt_name(t) for t in obs.must_play],
        "marmot": obs.marmot,
        "end_phase": obs.end_phase,
        "is_over": obs.is_over,
        "winner": obs.winner,
        "end_reason": obs.end_reason.value if obs.end_reason is not None else None,
        "history": [[p, str(m), auto] for p, m, auto in obs.history],
        "log": [event_to_json(e) for e in obs.log],
        "pending": {
            "steps": [step_to_dict(step) for step in obs.pending.steps],
            "filled": _names(obs.pending.filled),
            "waiting": _names(obs.pending.waiting),
            "evil_drawn": obs.pending.evil_drawn,
        },
    }


def step_to_dict(step: Step) -> dict[str, Any]:
    """A pending step as JSON data: its name and the fields it uses."""
    out: dict[str, Any] = {"step": step.what}
    if step.player is not None:
        out["player"] = step.player
    if step.tile is not None:
        out["tile"] = NAMES[step.tile]
    if step.spirit is not None:
        out["spirit"] = step.spirit.name.lower()
    if step.by is not None:
        out["by"] = step.by
    if step.drawn:
        out["drawn"] = True
    return out


def step_from_dict(d: Any) -> Step:
    """``step_to_dict``'s data back; InvalidPosition if it names no step the rules have."""
    player = d.get("player")
    step = Step(
        what=str(d["step"]),
        player=int(player) if player is not None else None,
        tile=parse_cell(d["tile"]) if "tile" in d else None,
        spirit=parse_spirit(d["spirit"]) if "spirit" in d else None,
        by=str(d["by"]) if "by" in d else None,
        drawn=d.get("drawn") is True,
    )
    task_of(step)  # checks it
    return step


def observation_from_dict(data: object) -> Observation:
    """Rebuild an Observation from ``observation_to_dict``'s data (as JSON gives it back);
    InvalidPosition if it is malformed, whatever it is."""
    try:
        return _from_dict(data)
    except InvalidPosition:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise InvalidPosition(f"malformed observation: {exc!r}") from None


def _tiles(names: Sequence[str]) -> tuple[int, ...]:
    return tuple(parse_cell(n) for n in names)


def _pair(items: tuple[T, ...], what: str) -> tuple[T, T]:
    if len(items) != 2:
        raise InvalidPosition(f"an observation has two {what}")
    return items


def _from_dict(d: Any) -> Observation:
    decision = Decision[d["decision"].upper()] if d["decision"] else None
    pending = d["pending"]
    views = tuple(
        PanoramaView(
            land=_tiles(v["land"]),
            rainbows=_tiles(v["rainbows"]),
            spirits=tuple((parse_spirit(s), parse_cell(sq)) for s, sq in v["spirits"]),
            covered=parse_spirit(v["covered"]) if v["covered"] else None,
            fireflies=_tiles(v["fireflies"]),
            forbidden=parse_cell(v["forbidden"]) if v["forbidden"] else None,
            hand_size=int(v["hand_size"]),
        )
        for v in d["panoramas"]
    )
    if len(views) != 2:
        raise InvalidPosition("an observation has two panoramas")
    return Observation(
        player=int(d["player"]),
        options=Options(**{k: bool(v) for k, v in d["options"].items()}),
        turn=int(d["turn"]),
        to_play=int(d["to_play"]),
        decision=decision,
        legal_moves=tuple(Move.parse(m) for m in d["legal_moves"]),
        context=tuple(context_item_from_json(decision, x) for x in d["context"]),
        hand=_tiles(d["hand"]),
        opponent_hand_count=int(d["opponent_hand_count"]),
        opponent_known=_tiles(d["opponent_known"]),
        known_by_opponent=_tiles(d["known_by_opponent"]),
        panoramas=views,
        display=tuple((parse_cell(t), bool(down)) for t, down in d["display"]),
        land_pile=int(d["land_pile"]),
        spirit_line=tuple(parse_spirit(s) for s in d["spirit_line"]),
        spirit_pile=int(d["spirit_pile"]),
        rainbow_supply=int(d["rainbow_supply"]),
        firefly_supply=int(d["firefly_supply"]),
        removed=_tiles(d["removed"]),
        in_transit=_tiles(d["in_transit"]),
        rainbows_out=int(d["rainbows_out"]),
        evil_player=d["evil_player"],
        must_play=_pair(tuple(parse_cell(t) if t else None for t in d["must_play"]),
                        "must_play entries"),
        marmot=bool(d["marmot"]),
        end_phase=bool(d["end_phase"]),
        is_over=bool(d["is_over"]),
        winner=d["winner"],
        end_reason=None if d["end_reason"] is None else EndReason(d["end_reason"]),
        history=tuple((int(p), Move.parse(m), bool(a)) for p, m, a in d["history"]),
        log=tuple(event_from_json(e) for e in d["log"]),
        pending=Pending(
            steps=tuple(step_from_dict(step) for step in pending["steps"]),
            filled=_tiles(pending["filled"]),
            waiting=_tiles(pending["waiting"]),
            evil_drawn=bool(pending["evil_drawn"]),
        ),
        hand_counts=_pair(tuple(int(n) for n in d["hand_counts"]), "hand counts"),
        spectator=bool(d["spectator"]),
    )


__all__ = ["Spirit", "observation_from_dict", "observation_to_dict"]

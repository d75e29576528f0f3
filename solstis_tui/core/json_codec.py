"""The JSON encodings that saved games and observations share: cells and tiles as
``"row-column"``, spirits by lower-case name, a decision's context, queued steps and log
events. Readers raise ValueError, KeyError or IndexError on bad input; the format readers
turn those into ``InvalidPosition``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .board import NAMES, bits, parse_cell
from .events import EVENT_TYPES, EndReason, Event
from .moves import Decision
from .spirits import Spirit, parse_spirit
from .state import Task
from .steps import MODE_NAMES, OP_NAMES, PUT

#: Every spirit name a file may use ("fox" is the Renard's other name).
SPIRIT_NAMES = {s.name.lower() for s in Spirit} | {"fox"}
#: Queued steps whose third field is a spirit.
_SPIRIT_OPS = {"effect"}


def cell_name_or_none(i: int | None) -> str | None:
    """A cell's name, or None for None or -1."""
    return None if i is None or i < 0 else NAMES[i]


def cell_names(mask_or_list: int | Iterable[int]) -> list[str]:
    """The names of the cells of a mask (in cell order) or of a list (in its order)."""
    items = bits(mask_or_list) if isinstance(mask_or_list, int) else mask_or_list
    return [NAMES[i] for i in items]


def spirit_name(s: int) -> str:
    return Spirit(s).name.lower()


def context_item_to_json(decision: Decision | None, x: int) -> str | int:
    """One item of a pending decision's context: a spirit, a player, a mode or a cell."""
    if decision in (Decision.KEEP, Decision.SQUARE):
        return spirit_name(x)
    if decision is Decision.COVER:
        return x
    if decision is Decision.PLACE_RAINBOW:
        return MODE_NAMES[x]
    if decision is Decision.MOVE_RAINBOW and x < 3 and x not in NAMES:
        return MODE_NAMES[x]
    return NAMES[x]


def context_item_from_json(decision: Decision | None, x: Any) -> int:
    if decision in (Decision.KEEP, Decision.SQUARE):
        return int(parse_spirit(x))
    if isinstance(x, str) and x in MODE_NAMES:
        return MODE_NAMES.index(x)
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    return parse_cell(x)


def task_to_json(task: Task) -> list[Any]:
    op = OP_NAMES[task[0]]
    if op == "put":
        return [op, task[1], NAMES[task[2]], MODE_NAMES[task[3]]]
    if op in _SPIRIT_OPS:
        return [op, task[1], spirit_name(task[2])]
    return [op, *task[1:]]


def task_from_json(item: Sequence[Any]) -> Task:
    op = OP_NAMES.index(item[0])
    if op == PUT:
        return (op, int(item[1]), parse_cell(item[2]), MODE_NAMES.index(item[3]))
    if item[0] in _SPIRIT_OPS:
        return (op, int(item[1]), int(parse_spirit(item[2])))
    return (op, *item[1:])


def event_to_json(event: Event) -> list[Any]:
    """A log event as JSON: ``[kind, field, ...]`` in its fields' order (spirits as numbers,
    tiles and cells as indices, an end's reason by name)."""
    out: list[Any] = [event.kind]
    for name in event.__match_args__:
        value = getattr(event, name)
        if isinstance(value, EndReason):
            value = value.value
        elif isinstance(value, Spirit):
            value = int(value)
        elif isinstance(value, tuple):
            value = [int(x) for x in value]
        out.append(value)
    return out


def event_from_json(item: Sequence[Any]) -> Event:
    """A log event read back from ``event_to_json``'s form; ValueError (or KeyError) when
    it is not one."""
    cls = EVENT_TYPES[str(item[0])]
    names = cls.__match_args__
    if len(item) != len(names) + 1:
        raise ValueError(f"a {item[0]!r} event has {len(names)} fields, not {len(item) - 1}")
    args: list[Any] = []
    for name, x in zip(names, item[1:], strict=True):
        if name == "spirit":
            x = Spirit(int(x))
        elif name == "spirits":
            x = tuple(Spirit(int(y)) for y in x)
        elif name == "tiles":
            x = None if x is None else tuple(int(y) for y in x)
        elif name == "reason":
            x = EndReason(x)
        args.append(x)
    return cls(*args)

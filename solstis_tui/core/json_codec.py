"""The JSON encodings that saved games and observations share: cells and tiles as
``"row-column"``, spirits by lower-case name, a decision's context, queued steps and log
events. Readers raise ValueError, KeyError or IndexError on bad input; the format readers
turn those into ``InvalidPosition``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .board import NAMES, bits, parse_cell
from .moves import Decision
from .spirits import Spirit, parse_spirit
from .state import Event, Task
from .steps import MODE_NAMES, OP_NAMES, PUT

#: Every spirit name a file may use ("fox" is the Renard's other name).
SPIRIT_NAMES = {s.name.lower() for s in Spirit} | {"fox"}
#: Queued steps whose third field is a spirit.
_SPIRIT_OPS = {"effect"}
#: Log event fields (by index) that hold a spirit.
_SPIRIT_FIELDS = {"spirit": (2,), "keep": (2,), "take": (2,), "to_line": (1,), "lost": (2,),
                  "cover": (3,)}


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


def event_from_json(item: Sequence[Any]) -> Event:
    """A log event as the engine holds it (tuples, spirits as ``Spirit``)."""
    kind = item[0]
    out = []
    for i, x in enumerate(item):
        if isinstance(x, list):
            x = tuple(Spirit(y) for y in x) if kind == "spirits_drawn" else tuple(x)
        elif i in _SPIRIT_FIELDS.get(kind, ()) and isinstance(x, int):
            x = Spirit(x)
        out.append(x)
    return tuple(out)

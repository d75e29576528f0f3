"""The person's half-made choice for the decision on screen: the item selected in a list
zone, the cursor on a panorama, the last click, and whether a hint may still select.

A ``Selection`` is a value: each key or click gives a new one (or the reason it does
nothing), computed from the ``BoardView`` on screen, so the controller holds exactly one
and drawing cannot change it. A new decision starts at its first legal choice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core import Move, Observation
from ..core.explain import why_illegal
from .clicks import Choice
from .frame import Frame
from .view import BoardView
from .zones import CELL_ZONES, LIST_ZONES, Zone, cell_move, step_cursor

PILE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Selection:
    """What the person has half-chosen for one decision (``decision`` names it)."""

    selected: int = -1
    """The item chosen in a list zone (-1: none)."""
    cursor: int | None = None
    """The cell (or square) the cursor is on in a panorama zone."""
    decision: tuple[object, ...] | None = None
    """Which decision the choice is for: its turn in the history, kind, player, the seat
    shown and the zone (None: to be chosen afresh)."""
    last_click: tuple[object, ...] | None = None
    """The decision and the choice the last click picked (a second click confirms it)."""
    hint_may_select: bool = False
    """A hint asked for may select its move: true from asking until the person picks."""

    def for_decision(self, obs: Observation, made: Frame) -> Selection:
        """The choice for the decision of ``obs`` as ``made`` shows it: the same decision
        keeps the person's choice; a new one picks its first legal item (the cursor its
        first target)."""
        decision = (len(obs.history), obs.decision, obs.to_play, made.me, made.zone)
        if decision == self.decision:
            return self
        selected = next((i for i, it in enumerate(made.items) if it.legal), -1)
        cursor = min(made.targets) if made.zone in CELL_ZONES and made.targets else None
        return replace(self, decision=decision, selected=selected, cursor=cursor)

    def forgotten(self) -> Selection:
        """The same choice, to be made afresh for whatever decision comes next."""
        return replace(self, decision=None)

    def with_selected(self, index: int) -> Selection:
        """Item ``index`` selected (as the screen or a test sets it)."""
        return replace(self, selected=index)

    def hint_asked(self) -> Selection:
        """A hint was asked for: its move may be selected once found."""
        return replace(self, hint_may_select=True)

    def hint_dropped(self) -> Selection:
        """The hint is gone (said and used, dismissed, or failed)."""
        return replace(self, hint_may_select=False)

    def stepped(self, view: BoardView, dx: int, dy: int) -> Selection | None:
        """An arrow key: the next item of a list (either way), or the cursor moved on a
        panorama; None where no arrow acts."""
        if view.zone in LIST_ZONES and view.items:
            selected = (self.selected + (dx or -dy)) % len(view.items)
            return replace(self, selected=selected, hint_may_select=False)
        if view.zone in CELL_ZONES:
            cursor = step_cursor(self.cursor, dx, dy, view.square_mode)
            return replace(self, cursor=cursor, hint_may_select=False)
        return None

    def next_target(self, view: BoardView, step: int) -> Selection | None:
        """Tab (``step`` 1) or Shift+Tab (-1): the next target cell, or the next legal item
        (the same one when none is legal); None where nothing is to be chosen."""
        if view.zone is None:
            return None
        if view.zone in CELL_ZONES:
            ordered = sorted(view.targets)
            if not ordered:
                return None
            if self.cursor in ordered:
                i = (ordered.index(self.cursor) + step) % len(ordered)
            else:
                i = 0 if step > 0 else len(ordered) - 1
            return replace(self, cursor=ordered[i], hint_may_select=False)
        n = len(view.items)
        for k in range(1, n + 1):
            i = (self.selected + step * k) % n
            if view.items[i].legal:
                return replace(self, selected=i, hint_may_select=False)
        return replace(self, hint_may_select=False)

    def pick(self, n: int, view: BoardView) -> Selection | str:
        """Digit ``n`` (from 1) in a list zone: its n-th item, or why there is none."""
        if n > len(view.items):
            return f"there is no choice {n} here"
        return replace(self, selected=n - 1, hint_may_select=False)

    def pile(self, index: int, view: BoardView) -> Selection | str:
        """A capital letter while piles are asked: that pile, or why it cannot be taken."""
        if index >= len(view.items):
            return f"there is no pile {PILE_LETTERS[index]}"
        item = view.items[index]
        if not item.legal and item.move is not None:
            return f"pile {PILE_LETTERS[index]}: {why_illegal(view.obs, item.move)}"
        return replace(self, selected=index, hint_may_select=False)

    def picked(self, zone: Zone | None) -> Choice | None:
        """What is picked now, as a click names it."""
        if zone in CELL_ZONES:
            return ("cell", self.cursor) if self.cursor is not None else None
        return ("item", self.selected)

    def clicked(self, what: Choice, zone: Zone | None) -> tuple[Selection, bool]:
        """A click that picks ``what``: the choice after it, and whether it confirms (the
        previous click picked the same, still picked, for the same decision)."""
        click = (self.decision, what)
        if self.last_click == click and self.picked(zone) == what:
            return replace(self, last_click=None), True
        kind, value = what
        chosen = replace(self, last_click=click, hint_may_select=False)
        if kind == "item":
            return replace(chosen, selected=value), False
        return replace(chosen, cursor=value), False

    def hinted(self, move: Move, view: BoardView) -> Selection:
        """The hint's ``move`` selected (its item, or its cell), unless the person picked
        something since the hint was asked."""
        if not self.hint_may_select:
            return self
        chosen = self
        for i, item in enumerate(view.items):
            if item.move == move:
                chosen = replace(chosen, selected=i)
        if move.arg in view.targets and view.zone in CELL_ZONES:
            chosen = replace(chosen, cursor=move.arg)
        return chosen

    def move(self, view: BoardView) -> Move | None:
        """The move the choice makes (Enter), if it makes one."""
        if view.zone in CELL_ZONES:
            if self.cursor is None or view.obs.decision is None:
                return None
            return cell_move(view.obs.decision, self.cursor)
        if 0 <= self.selected < len(view.items):
            return view.items[self.selected].move
        return None

"""Squares, spirits and their effects: the encounter half of the turn machine.

rules.md §6, §7, §9, §10 and §11. ``Game`` inherits these steps; they only touch its state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import CELL_SQUARES, SQUARE_CELLS, bits
from .moves import Decision
from .spirits import Spirit
from .state import State, Task
from .steps import (
    BEAR_HAND_SIZE,
    BY_EFFECT,
    EFFECT,
    END_FIREFLIES,
    EVIL,
    PLACE_FIREFLIES,
    PUT,
    pair_with,
)


class SpiritSteps(State):
    """Encountering spirits, fireflies, the Evil Spirit and plain spirits' effects."""

    __slots__ = ()

    if TYPE_CHECKING:  # steps of the turn machine that game.py defines
        def _decide(self, decision: Decision, context: tuple[int, ...] = ()) -> None: ...
        def _finish(self, reason: str, winner: int | None) -> None: ...
        def _gain_rainbow(self, p: int, mode: int) -> bool: ...
        def _draw_to_hand(self, p: int) -> None: ...
        def _display_take(self, tile: int) -> None: ...

    def _op_encounter(self, task: Task) -> None:
        touched, self._touched = self._touched, 0
        if not touched:
            return
        p = self.to_play
        filled = self.land[p] | self.rainbow_cells[p]
        candidates = 0
        for cell in bits(touched):
            candidates |= CELL_SQUARES[cell]
        formed = 0
        for sq in bits(candidates & ~self.occupied_squares[p]):
            if filled & SQUARE_CELLS[sq] == SQUARE_CELLS[sq]:
                formed |= 1 << sq
        if not formed:
            return
        if not self.spirit_pile and not self.spirit_line:
            self._note(("no_spirit", p))
            return
        self._formed = formed
        self._decide(Decision.ENCOUNTER)

    def _apply_draw(self, _arg: int) -> None:
        p = self.to_play
        spile = self.spirit_pile
        drawn = tuple(spile.pop() for _ in range(min(2, len(spile))))
        self._note(("spirits_drawn", p, drawn))
        if Spirit.EVIL in drawn:
            self._evil_new = True
            if len(drawn) == 1:
                if self.spirit_line:
                    self._decide(Decision.ENCOUNTER)
                else:
                    self._evil_new, self._formed = False, 0
                    self._tasks.append((EVIL, p, True))
                return
        self._decide(Decision.KEEP, drawn)

    def _apply_keep(self, spirit: int) -> None:
        for other in self.context:
            if other != spirit and other != Spirit.EVIL:
                self.spirit_line.append(other)
                self._note(("to_line", other))
        self._note(("keep", self.to_play, spirit))
        self._decide(Decision.SQUARE, (spirit,))

    def _apply_take(self, spirit: int) -> None:
        self.spirit_line.remove(spirit)
        self._note(("take", self.to_play, spirit))
        self._decide(Decision.SQUARE, (spirit,))

    def _apply_square(self, sq: int) -> None:
        p, spirit = self.to_play, Spirit(self.context[0])
        self.spirits = pair_with(self.spirits, p, (*self.spirits[p], (spirit, sq)))
        self.occupied_squares[p] |= 1 << sq
        self.blocked[p] |= SQUARE_CELLS[sq]
        self._note(("spirit", p, spirit, sq))
        # Runs in this order (a stack: pushed last first): the plain spirit's effect, then
        # (Firefly) the fireflies on the other squares formed this turn, those its
        # placements form included, then the Evil Spirit (rules.md §10). Until then
        # ``_formed`` holds the squares waiting for a firefly.
        firefly = self.options.firefly
        self._formed = self._formed & ~(1 << sq) if firefly else 0
        if self._evil_new:
            self._evil_new = False
            self._tasks.append((EVIL, p, True))
        elif self.evil_player == p:
            self._tasks.append((EVIL, p, False))
        if firefly:
            self._tasks.append((PLACE_FIREFLIES, p))
        if spirit.is_plain:
            self._tasks.append((EFFECT, p, spirit))

    def _op_place_fireflies(self, task: Task) -> None:
        p = task[1]
        formed, self._formed = self._formed, 0
        for sq in bits(formed & ~self.occupied_squares[p]):
            self._add_firefly(p, sq)
            if self.is_over:
                return

    def _effect_formed(self, p: int, cell: int) -> None:
        """Firefly: a spirit's effect filled ``cell``; the squares it completes wait for
        a firefly until the effect is over (rules.md §10). A save made before fireflies
        waited has no PLACE_FIREFLIES step queued: those squares get theirs at once."""
        filled = self.land[p] | self.rainbow_cells[p]
        waiting = any(task[0] == PLACE_FIREFLIES for task in self._tasks)
        for sq in bits(CELL_SQUARES[cell] & ~self.occupied_squares[p]):
            if filled & SQUARE_CELLS[sq] == SQUARE_CELLS[sq]:
                if waiting:
                    self._formed |= 1 << sq
                else:
                    self._add_firefly(p, sq)

    def _add_firefly(self, p: int, sq: int) -> None:
        if self.is_over or not self.firefly_supply:
            return
        self.firefly_supply -= 1
        self.fireflies = pair_with(self.fireflies, p, self.fireflies[p] | 1 << sq)
        self.occupied_squares[p] |= 1 << sq
        self.blocked[p] |= SQUARE_CELLS[sq]
        self._note(("firefly", p, sq))
        if self.fireflies[p].bit_count() >= 4:
            self._finish(END_FIREFLIES, p)

    def _op_evil(self, task: Task) -> None:
        _, p, drawn_now = task
        if not self.options.firefly:
            self.evil_player = p if drawn_now else 1 - p
            self._note(("evil_kept" if drawn_now else "evil_given", p))
            return
        self.evil_player, self.evil_cell = -1, -1
        if self.rainbow_targets(1 - p):
            self.to_play = p
            self._decide(Decision.EVIL)
        else:
            self._note(("evil_out", p))

    def _apply_evil(self, cell: int) -> None:
        p = self.to_play
        self.evil_player, self.evil_cell = 1 - p, cell
        self._note(("evil_placed", p, cell))

    # -- plain spirit effects (rules.md §9)
    def _op_effect(self, task: Task) -> None:
        _, p, spirit = task
        self.to_play = p
        opp = 1 - p
        if spirit == Spirit.FISH:
            if self._gain_rainbow(p, BY_EFFECT):
                return
        elif spirit == Spirit.DEER and self.hands[p]:
            self._decide(Decision.DEER)
            return
        elif spirit == Spirit.EAGLE and self.pile:
            tile = self.pile.pop()
            self._note(("eagle", p, tile))
            self._tasks.append((PUT, p, tile, BY_EFFECT))
            return
        elif spirit == Spirit.BEAR:
            self.hand_size = pair_with(self.hand_size, p, BEAR_HAND_SIZE)
            if self.pile:
                self._draw_to_hand(p)
            return
        elif spirit == Spirit.FLY and self.hands[opp]:
            self.draw_state, i = self._draws.below(self.draw_state, len(self.hands[opp]))
            tile = self.hands[opp].pop(i)
            self._note(("fly", p, tile))
            if self.pile:
                self._draw_to_hand(opp)
            self._tasks.append((PUT, p, tile, BY_EFFECT))
            return
        elif spirit == Spirit.BEETLE and self.face_up:
            self._decide(Decision.BEETLE)
            return
        elif spirit == Spirit.MARMOT:
            self.marmot = True
            return
        elif spirit == Spirit.VIPER and self.isolated_land(opp):
            self._decide(Decision.VIPER)
            return
        elif spirit == Spirit.RENARD and self.hands[opp]:
            self.revealed = pair_with(self.revealed, p, sum(1 << t for t in self.hands[opp]))
            self._note(("reveal", p, tuple(self.hands[opp])))
            self._decide(Decision.RENARD)
            return
        if spirit != Spirit.FISH:
            self._note(("lost", p, spirit))

    def _apply_deer(self, tile: int) -> None:
        p = self.to_play
        self.hands[p].remove(tile)
        self._note(("deer", p, tile))
        self._tasks.append((PUT, p, tile, BY_EFFECT))

    def _apply_beetle(self, tile: int) -> None:
        p = self.to_play
        self._note(("beetle", p, tile))
        self._display_take(tile)
        self._tasks.append((PUT, p, tile, BY_EFFECT))

    def _apply_viper(self, tile: int) -> None:
        p = self.to_play
        self.land[1 - p] ^= 1 << tile
        self._note(("viper", p, tile))
        self._tasks.append((PUT, p, tile, BY_EFFECT))

    def _apply_renard(self, tile: int) -> None:
        p = self.to_play
        self.must_play = pair_with(self.must_play, 1 - p, tile)
        self._note(("renard", p, tile))

"""Squares, spirits and their effects: the encounter half of the turn machine.

RULES.md §6, §7, §9, §10 and §11. ``Game`` inherits these steps; they only touch its state.
"""

from __future__ import annotations

from .board import CELL_SQUARES, SQUARE_CELLS, bits
from .moves import Decision
from .spirits import Spirit
from .steps import BEAR_HAND_SIZE, BY_EFFECT, EFFECT, END_FIREFLIES, EVIL, PUT, pair_with


class SpiritSteps:
    """Encountering spirits, fireflies, the Evil Spirit and plain spirits' effects."""

    __slots__ = ()

    def _op_encounter(self, task: tuple) -> None:
        touched, self.touched = self.touched, 0
        if not touched:
            return
        p = self.to_play
        filled = self.land[p] | self.rain[p]
        candidates = 0
        for cell in bits(touched):
            candidates |= CELL_SQUARES[cell]
        formed = 0
        for sq in bits(candidates & ~self.occ[p]):
            if filled & SQUARE_CELLS[sq] == SQUARE_CELLS[sq]:
                formed |= 1 << sq
        if not formed:
            return
        if not self.spile and not self.sline:
            self._note(("no_spirit", p))
            return
        self.formed = formed
        self._decide(Decision.ENCOUNTER)

    def _apply_draw(self, _arg: int) -> None:
        p = self.to_play
        spile = self.spile
        drawn = tuple(spile.pop() for _ in range(min(2, len(spile))))
        self._note(("spirits_drawn", p, drawn))
        if Spirit.EVIL in drawn:
            self.evil_new = True
            if len(drawn) == 1:
                if self.sline:
                    self._decide(Decision.ENCOUNTER)
                else:
                    self.evil_new, self.formed = False, 0
                    self.tasks.append((EVIL, p, True))
                return
        self._decide(Decision.KEEP, drawn)

    def _apply_keep(self, spirit: int) -> None:
        for other in self.ctx:
            if other != spirit and other != Spirit.EVIL:
                self.sline.append(other)
                self._note(("to_line", other))
        self._note(("keep", self.to_play, spirit))
        self._decide(Decision.SQUARE, (spirit,))

    def _apply_take(self, spirit: int) -> None:
        self.sline.remove(spirit)
        self._note(("take", self.to_play, spirit))
        self._decide(Decision.SQUARE, (spirit,))

    def _apply_square(self, sq: int) -> None:
        p, spirit = self.to_play, Spirit(self.ctx[0])
        self.spirits = pair_with(self.spirits, p, (*self.spirits[p], (spirit, sq)))
        self.occ[p] |= 1 << sq
        self.blocked[p] |= SQUARE_CELLS[sq]
        self._note(("spirit", p, spirit, sq))
        others, self.formed = self.formed & ~(1 << sq), 0
        if self.options.firefly:
            for other in bits(others):
                self._add_firefly(p, other)
                if self.is_over:
                    return
        if self.evil_new:
            self.evil_new = False
            self.tasks.append((EVIL, p, True))
        elif self.evil_at == p:
            self.tasks.append((EVIL, p, False))
        if spirit.is_plain:
            self.tasks.append((EFFECT, p, spirit))

    def _add_firefly(self, p: int, sq: int) -> None:
        if self.is_over or not self.firefly_supply:
            return
        self.firefly_supply -= 1
        self.fireflies = pair_with(self.fireflies, p, self.fireflies[p] | 1 << sq)
        self.occ[p] |= 1 << sq
        self.blocked[p] |= SQUARE_CELLS[sq]
        self._note(("firefly", p, sq))
        if self.fireflies[p].bit_count() >= 4:
            self._finish(END_FIREFLIES, p)

    def _op_evil(self, task: tuple) -> None:
        _, p, drawn_now = task
        if not self.options.firefly:
            self.evil_at = p if drawn_now else 1 - p
            self._note(("evil_kept" if drawn_now else "evil_given", p))
            return
        self.evil_at, self.evil_cell = -1, -1
        if self._rainbow_cells(1 - p):
            self.to_play = p
            self._decide(Decision.EVIL)
        else:
            self._note(("evil_out", p))

    def _apply_evil(self, cell: int) -> None:
        p = self.to_play
        self.evil_at, self.evil_cell = 1 - p, cell
        self._note(("evil_placed", p, cell))

    # -- plain spirit effects (RULES.md §9)
    def _op_effect(self, task: tuple) -> None:
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
            self.tasks.append((PUT, p, tile, BY_EFFECT))
            return
        elif spirit == Spirit.BEAR:
            self.hand_size = pair_with(self.hand_size, p, BEAR_HAND_SIZE)
            if self.pile:
                self._draw_to_hand(p)
            return
        elif spirit == Spirit.FLY and self.hands[opp]:
            self.rng, i = self._draws.below(self.rng, len(self.hands[opp]))
            tile = self.hands[opp].pop(i)
            self._note(("fly", p, tile))
            if self.pile:
                self._draw_to_hand(opp)
            self.tasks.append((PUT, p, tile, BY_EFFECT))
            return
        elif spirit == Spirit.BEETLE and self.up:
            self._decide(Decision.BEETLE)
            return
        elif spirit == Spirit.MARMOT:
            self.marmot = True
            return
        elif spirit == Spirit.VIPER and self._isolated(opp):
            self._decide(Decision.VIPER)
            return
        elif spirit == Spirit.RENARD and self.hands[opp]:
            self.seen = pair_with(self.seen, p, sum(1 << t for t in self.hands[opp]))
            self._note(("reveal", p, tuple(self.hands[opp])))
            self._decide(Decision.RENARD)
            return
        if spirit != Spirit.FISH:
            self._note(("lost", p, spirit))

    def _apply_deer(self, tile: int) -> None:
        p = self.to_play
        self.hands[p].remove(tile)
        self._note(("deer", p, tile))
        self.tasks.append((PUT, p, tile, BY_EFFECT))

    def _apply_beetle(self, tile: int) -> None:
        p = self.to_play
        self._note(("beetle", p, tile))
        self._display_take(tile)
        self.tasks.append((PUT, p, tile, BY_EFFECT))

    def _apply_viper(self, tile: int) -> None:
        p = self.to_play
        self.land[1 - p] ^= 1 << tile
        self._note(("viper", p, tile))
        self.tasks.append((PUT, p, tile, BY_EFFECT))

    def _apply_renard(self, tile: int) -> None:
        p = self.to_play
        self.must_play = pair_with(self.must_play, 1 - p, tile)
        self._note(("renard", p, tile))

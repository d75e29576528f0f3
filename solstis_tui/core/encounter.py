"""Squares, spirits and their effects: the encounter half of the turn machine.

rules.md §6, §7, §9, §10 and §11. ``Game`` (game.py) runs these steps; each takes the game
it acts on, changes only its state and uses the primitives ``State`` shares (state.py).
"""

from __future__ import annotations

from .board import CELL_SQUARES, SQUARE_CELLS, bits, full_squares, squares_at
from .events import (
    BeetleTook,
    DeerPlaced,
    EagleDrew,
    EffectLost,
    EndReason,
    EvilGiven,
    EvilKept,
    EvilOut,
    EvilPlaced,
    FireflyPlaced,
    FlyTook,
    Kept,
    NoSpirit,
    RenardChose,
    Revealed,
    SpiritPlaced,
    SpiritsDrawn,
    ToLine,
    Took,
    ViperTook,
)
from .moves import Decision
from .spirits import (
    BEAR_ID,
    BEETLE_ID,
    DEER_ID,
    EAGLE_ID,
    EVIL_ID,
    FISH_ID,
    FLY_ID,
    MARMOT_ID,
    PLAIN_IDS,
    RENARD_ID,
    SPIRITS,
    VIPER_ID,
)
from .state import PUT_STEPS, State, Task
from .steps import (
    BEAR_HAND_SIZE,
    BY_EFFECT,
    EFFECT,
    EVIL,
    PLACE_FIREFLIES,
    pair_with,
)


def op_encounter(g: State) -> None:
    touched, g._touched = g._touched, 0
    if not touched:
        return
    p = g.to_play
    formed = (full_squares(g.land[p] | g.rainbow_cells[p]) & squares_at(touched)
              & ~g.occupied_squares[p])
    if not formed:
        return
    if not g.spirit_pile and not g.spirit_line:
        if not g._quiet:
            g._note(NoSpirit(p))
        return
    g._formed = formed
    g._decide(Decision.ENCOUNTER)


def apply_draw(g: State) -> None:
    p = g.to_play
    spile = g.spirit_pile
    drawn = tuple(spile.pop() for _ in range(min(2, len(spile))))
    if not g._quiet:
        g._note(SpiritsDrawn(p, tuple([SPIRITS[s] for s in drawn])))
    if EVIL_ID in drawn:
        g._evil_new = True
        if len(drawn) == 1:
            if g.spirit_line:
                g._decide(Decision.ENCOUNTER)
            else:
                g._evil_new, g._formed = False, 0
                g._tasks.append((EVIL, p, True))
            return
    g._decide(Decision.KEEP, drawn)


def apply_keep(g: State, spirit: int) -> None:
    for other in g.context:
        if other != spirit and other != EVIL_ID:
            g.spirit_line.append(other)
            if not g._quiet:
                g._note(ToLine(SPIRITS[other]))
    if not g._quiet:
        g._note(Kept(g.to_play, SPIRITS[spirit]))
    g._decide(Decision.SQUARE, (spirit,))


def apply_take(g: State, spirit: int) -> None:
    g.spirit_line.remove(spirit)
    if not g._quiet:
        g._note(Took(g.to_play, SPIRITS[spirit]))
    g._decide(Decision.SQUARE, (spirit,))


def apply_square(g: State, sq: int) -> None:
    p, spirit = g.to_play, SPIRITS[g.context[0]]
    g.spirits = pair_with(g.spirits, p, (*g.spirits[p], (spirit, sq)))
    occupied, blocked = g.occupied_squares, g.blocked
    occupied[p] = occupied[p] | 1 << sq
    blocked[p] = blocked[p] | SQUARE_CELLS[sq]
    if not g._quiet:
        g._note(SpiritPlaced(p, spirit, sq))
    # Runs in this order (a stack: pushed last first): the plain spirit's effect, then
    # (Firefly) the fireflies on the other squares formed this turn, those its
    # placements form included, then the Evil Spirit (rules.md §10). Until then
    # ``_formed`` holds the squares waiting for a firefly.
    firefly = g.options.firefly
    g._formed = g._formed & ~(1 << sq) if firefly else 0
    if g._evil_new:
        g._evil_new = False
        g._tasks.append((EVIL, p, True))
    elif g.evil_player == p:
        g._tasks.append((EVIL, p, False))
    if firefly:
        g._tasks.append((PLACE_FIREFLIES, p))
    if spirit in PLAIN_IDS:
        g._tasks.append((EFFECT, p, spirit))


def op_place_fireflies(g: State, task: Task) -> None:
    p = task[1]
    formed, g._formed = g._formed, 0
    for sq in bits(formed & ~g.occupied_squares[p]):
        add_firefly(g, p, sq)
        if g.is_over:
            return


def effect_formed(g: State, p: int, cell: int) -> None:
    """Firefly: a spirit's effect filled ``cell``; the squares it completes wait for
    a firefly until the effect is over (rules.md §10). A save made before fireflies
    waited has no PLACE_FIREFLIES step queued: those squares get theirs at once."""
    formed = (full_squares(g.land[p] | g.rainbow_cells[p]) & CELL_SQUARES[cell]
              & ~g.occupied_squares[p])
    if any(task[0] == PLACE_FIREFLIES for task in g._tasks):
        g._formed |= formed
        return
    for sq in bits(formed):
        add_firefly(g, p, sq)


def add_firefly(g: State, p: int, sq: int) -> None:
    if g.is_over or not g.firefly_supply:
        return
    g.firefly_supply -= 1
    g.fireflies = pair_with(g.fireflies, p, g.fireflies[p] | 1 << sq)
    occupied, blocked = g.occupied_squares, g.blocked
    occupied[p] = occupied[p] | 1 << sq
    blocked[p] = blocked[p] | SQUARE_CELLS[sq]
    if not g._quiet:
        g._note(FireflyPlaced(p, sq))
    if g.fireflies[p].bit_count() >= 4:
        g._finish(EndReason.FIREFLIES, p)


def op_evil(g: State, task: Task) -> None:
    _, p, drawn_now = task
    if not g.options.firefly:
        g.evil_player = p if drawn_now else 1 - p
        if not g._quiet:
            g._note(EvilKept(p) if drawn_now else EvilGiven(p))
        return
    g.evil_player, g.evil_cell = -1, -1
    if g.rainbow_targets(1 - p):
        g.to_play = p
        g._decide(Decision.EVIL)
    else:
        if not g._quiet:
            g._note(EvilOut(p))


def apply_evil(g: State, cell: int) -> None:
    p = g.to_play
    g.evil_player, g.evil_cell = 1 - p, cell
    if not g._quiet:
        g._note(EvilPlaced(p, cell))


# -- plain spirit effects (rules.md §9)
def op_effect(g: State, task: Task) -> None:
    _, p, spirit = task
    g.to_play = p
    opp = 1 - p
    if spirit == FISH_ID:
        if g._gain_rainbow(p, BY_EFFECT):
            return
    elif spirit == DEER_ID and g.hands[p]:
        g._decide(Decision.DEER)
        return
    elif spirit == EAGLE_ID and g.pile:
        tile = g.pile.pop()
        if not g._quiet:
            g._note(EagleDrew(p, tile))
        g._tasks.append(PUT_STEPS[BY_EFFECT][p][tile])
        return
    elif spirit == BEAR_ID:
        g.hand_size = pair_with(g.hand_size, p, BEAR_HAND_SIZE)
        if g.pile:
            g._draw_to_hand(p)
        return
    elif spirit == FLY_ID and g.hands[opp]:
        g.draw_state, i = g._draws.below(g.draw_state, len(g.hands[opp]))
        tile = g.hands[opp].pop(i)
        if not g._quiet:
            g._note(FlyTook(p, tile))
        if g.pile:
            g._draw_to_hand(opp)
        g._tasks.append(PUT_STEPS[BY_EFFECT][p][tile])
        return
    elif spirit == BEETLE_ID and g.face_up:
        g._decide(Decision.BEETLE)
        return
    elif spirit == MARMOT_ID:
        g.marmot = True
        return
    elif spirit == VIPER_ID and g.isolated_land(opp):
        g._decide(Decision.VIPER)
        return
    elif spirit == RENARD_ID and g.hands[opp]:
        g.revealed = pair_with(g.revealed, p, sum(1 << t for t in g.hands[opp]))
        if not g._quiet:
            g._note(Revealed(p, tuple(g.hands[opp])))
        g._decide(Decision.RENARD)
        return
    if spirit != FISH_ID and not g._quiet:
        g._note(EffectLost(p, SPIRITS[spirit]))


def apply_deer(g: State, tile: int) -> None:
    p = g.to_play
    g.hands[p].remove(tile)
    if not g._quiet:
        g._note(DeerPlaced(p, tile))
    g._tasks.append(PUT_STEPS[BY_EFFECT][p][tile])


def apply_beetle(g: State, tile: int) -> None:
    p = g.to_play
    if not g._quiet:
        g._note(BeetleTook(p, tile))
    g._display_take(tile)
    g._tasks.append(PUT_STEPS[BY_EFFECT][p][tile])


def apply_viper(g: State, tile: int) -> None:
    p = g.to_play
    land = g.land
    land[1 - p] = land[1 - p] ^ 1 << tile
    if not g._quiet:
        g._note(ViperTook(p, tile))
    g._tasks.append(PUT_STEPS[BY_EFFECT][p][tile])


def apply_renard(g: State, tile: int) -> None:
    p = g.to_play
    g.must_play = pair_with(g.must_play, 1 - p, tile)
    if not g._quiet:
        g._note(RenardChose(p, tile))

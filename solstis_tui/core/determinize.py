"""Sampling full games that agree with one player's observation (for fair search bots)."""

from __future__ import annotations

import random

from . import rng as _rng
from .board import ALL, bits, squares_cells
from .game import Game
from .observation import Observation
from .pending import EVIL_SPIRIT, tasks_of
from .spirits import Spirit, spirit_set
from .steps import pair


def unseen_tiles(obs: Observation) -> list[int]:
    """The land tiles ``obs.player`` cannot locate: opponent's hand (unrevealed part),
    face-down display tiles and the land pile."""
    seen = set(obs.hand) | set(obs.opponent_known) | set(obs.removed) | set(obs.in_transit)
    seen.update(tile for tile, _ in obs.display)
    for view in obs.panoramas:
        seen.update(view.land)
    return [t for t in bits(ALL) if t not in seen]


def unseen_spirits(obs: Observation) -> list[Spirit]:
    """The spirits still in the face-down spirit pile, as a sorted list."""
    seen: set[int] = set(obs.spirit_line)
    for view in obs.panoramas:
        seen.update(s for s, _ in view.spirits)
    if obs.evil_player is not None:
        seen.add(Spirit.EVIL)
    seen.update(_drawn_pending(obs))
    return [s for s in spirit_set(obs.options.firefly, obs.options.beginner) if s not in seen]


def _drawn_pending(obs: Observation) -> tuple[int, ...]:
    from .moves import Decision

    held = tuple(obs.context) if obs.decision in (Decision.KEEP, Decision.SQUARE) else ()
    pending = obs.pending
    evil_moving = obs.decision is Decision.EVIL or \
        any(step.what == EVIL_SPIRIT for step in pending.steps)
    return (*held, Spirit.EVIL) if pending.evil_drawn or evil_moving else held


def determinize(obs: Observation, rand: random.Random, quiet: bool = False) -> Game:
    """A full game consistent with ``obs``: unseen tiles and spirits dealt at random.
    A ``quiet`` game keeps no history or log (faster, for a bot's look-ahead)."""
    return Dealer(obs, quiet).deal(rand)


class Dealer:
    """Deals many games consistent with one observation (a search deals one per
    iteration): the seen part is built once, each ``deal`` copies it and deals the unseen
    tiles and spirits afresh. ``Dealer(obs).deal(rand)`` is ``determinize(obs, rand)``.
    With ``quiet`` the games keep no history or log: a search reads neither."""

    def __init__(self, obs: Observation, quiet: bool = False) -> None:
        self.obs = obs
        self.tiles = unseen_tiles(obs)
        self.spirits = [int(s) for s in unseen_spirits(obs)]
        self.template = _seen_part(obs, quiet)

    def deal(self, rand: random.Random) -> Game:
        """A fresh deal of the unseen tiles and spirits."""
        obs = self.obs
        g = self.template.copy()
        g.draw_state = _rng.seed_state(rand.getrandbits(64))  # SplitMix: an imaginary world
        tiles = self.tiles[:]
        _rng.rand_shuffle(rand, tiles)
        if obs.spectator:  # a watcher knows neither hand
            g.hands = [sorted(tiles.pop() for _ in range(n)) for n in obs.hand_counts]
        else:
            opp = 1 - obs.player
            n_hidden = obs.opponent_hand_count - len(obs.opponent_known)
            g.hands[opp] = sorted([*obs.opponent_known, *(tiles.pop() for _ in range(n_hidden))])
        g.face_down = [tiles.pop() if has_down else -1 for _, has_down in obs.display]
        g.pile = tiles
        assert len(tiles) == obs.land_pile, "observation and unseen tiles disagree"
        spirits = self.spirits[:]
        _rng.rand_shuffle(rand, spirits)
        g.spirit_pile = spirits
        g._legal = g._compute_legal()
        return g


def deal_anew(obs: Observation, rand: random.Random | None = None) -> Game:
    """A real game to play on from ``obs`` (a practice game): what ``obs.player`` sees is
    kept, the rest dealt by the bots' ``Dealer`` from ``rand`` (default: the OS's CSPRNG,
    ``random.SystemRandom``), so nothing hidden in the game ``obs`` came from is kept. Its
    later draws (the Fly) come from the keyed generator with a fresh secret seed, like a
    real deal's, never from SplitMix64."""
    g = Dealer(obs).deal(rand if rand is not None else random.SystemRandom())
    g._draws = _rng.Keyed(_rng.new_secret())
    g.draw_state = 0
    return g


def _seen_part(obs: Observation, quiet: bool) -> Game:
    """A game holding everything ``obs`` shows; the unseen tiles and spirits are left out."""
    me, opp = obs.player, 1 - obs.player
    g = Game._empty(obs.options, 0, _rng.SPLITMIX)
    if not obs.spectator:
        g.hands[me] = list(obs.hand)
    for tile, _ in obs.display:
        g.face_up.append(tile)
        g.face_up_mask |= 1 << tile
    g.spirit_line = [int(s) for s in obs.spirit_line]
    views = obs.panoramas
    for p, view in enumerate(views):
        g.land[p] = sum(1 << t for t in view.land)
        g.rainbow_cells[p] = sum(1 << t for t in view.rainbows)
        flies = sum(1 << sq for sq in view.fireflies)
        g.occupied_squares[p] = flies | sum(1 << sq for _, sq in view.spirits)
        g.blocked[p] = squares_cells(g.occupied_squares[p])
        if view.forbidden is not None:
            g.evil_cell = view.forbidden
    g.spirits = (tuple(views[0].spirits), tuple(views[1].spirits))
    g.fireflies = pair([sum(1 << sq for sq in v.fireflies) for v in views])
    g.covered = pair([int(v.covered) if v.covered is not None else -1 for v in views])
    g.hand_size = (views[0].hand_size, views[1].hand_size)
    seen = [0, 0]
    seen[me] = sum(1 << t for t in obs.opponent_known)
    seen[opp] = sum(1 << t for t in obs.known_by_opponent)
    g.revealed = pair(seen)
    g.rainbow_supply, g.rainbows_out = obs.rainbow_supply, obs.rainbows_out
    g.firefly_supply = obs.firefly_supply
    g.removed = sum(1 << t for t in obs.removed)
    g.evil_player = obs.evil_player if obs.evil_player is not None else -1
    g.must_play = pair([t if t is not None else -1 for t in obs.must_play])
    g.marmot, g.end_phase, g.turn = obs.marmot, obs.end_phase, obs.turn
    g.to_play, g.decision, g.context = obs.to_play, obs.decision, obs.context
    pending = obs.pending
    g._tasks = tasks_of(pending)
    g._touched = sum(1 << cell for cell in pending.filled)
    g._formed = sum(1 << sq for sq in pending.waiting)
    g._evil_new = pending.evil_drawn
    if quiet:
        g._quiet = True
    else:
        g.history = list(obs.history)
        g.log = list(obs.log)
    g.is_over, g.winner, g.end_reason = obs.is_over, obs.winner, obs.end_reason
    return g

"""Find seeded hot-seat games in which the key-pressing player meets every decision kind.

The Pilot driver (``conftest.keys_for``) picks uniformly among the legal choices with its own
``random.Random``; this mirrors it without the UI, so a scan is fast and stays right when
the engine changes how a seed deals.
"""

from __future__ import annotations

import random

from solstis_tui.core import Decision
from solstis_tui.local.seats import PERSON
from solstis_tui.local.session import Session, Setup
from solstis_tui.play import zones as choices


def simulate(variant: str, seed: int, rng_seed: int) -> set[Decision]:
    """The decision kinds a hot-seat game meets when both people choose like the driver."""
    session = Session(Setup(variant=variant, seed=seed, seats=(PERSON, PERSON)))
    rng = random.Random(rng_seed)
    seen: set[Decision] = set()
    while not session.game.is_over:
        game = session.game
        obs = game.observation(game.to_play)
        seen.add(obs.decision)
        zone = choices.zone_of(obs.decision)
        if zone in ("mine", "theirs"):
            targets = sorted(choices.cell_targets(obs))
            move = choices.cell_move(obs.decision, targets[rng.randrange(len(targets))])
        else:
            items = choices.items_for(obs)
            legal = [i for i, item in enumerate(items) if item.legal]
            move = items[rng.choice(legal)].move
        session.apply(move)
    return seen


def covering_games(rng_seed: int = 1, seeds: int = 400) -> list[tuple[str, int]]:
    """A few (variant, seed) hot-seat games that together meet every decision kind."""
    found = {(v, s): simulate(v, s, rng_seed) for v in ("firefly", "base") for s in range(seeds)}
    need, chosen = set(Decision), []
    while need:
        best = max(found, key=lambda k: len(found[k] & need))
        if not found[best] & need:
            raise AssertionError(f"no scanned game reaches {sorted(d.name for d in need)}")
        chosen.append(best)
        need -= found[best]
    return chosen

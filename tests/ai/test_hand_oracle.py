"""benchmarks/hand_oracle.py's told dealer: the opponent holds the told hand, and the rest
of every deal stays as fair and as random as ``Dealer``'s."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from .conftest import positions

# benchmarks/ is a folder of scripts, not a package: its scripts import one another so.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from hand_oracle import TellingDealer


def test_the_told_hand_is_dealt_and_the_rest_stays_random() -> None:
    for g in positions("base", 6, seed=3):
        me, opp = g.to_play, 1 - g.to_play
        dealer = TellingDealer(g.observation(me), tuple(g.hands[opp]))
        everything = sorted([*g.pile, *g.hands[0], *g.hands[1],
                             *(t for t in g.face_down if t >= 0)])
        tops = set()
        for seed in range(30):
            world = dealer.deal(random.Random(seed))
            assert world.hands[opp] == sorted(g.hands[opp])
            assert world.hands[me] == g.hands[me]
            assert [t >= 0 for t in world.face_down] == [t >= 0 for t in g.face_down]
            assert sorted([*world.pile, *world.hands[0], *world.hands[1],
                           *(t for t in world.face_down if t >= 0)]) == everything
            if world.pile:
                tops.add(world.pile[-1])
        assert len(tops) > 5 or len(g.pile) < 3

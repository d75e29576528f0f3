"""Screening variants of plain ISMCTS for the compiled search: other UCB constants, and the
tree kept between the decisions of a turn (as mcts keeps it). Run with PYTHONPATH=research,
e.g. `solstis arena --bots "plain_screens:PlainC1@6000,plain-ismcts@1250"`."""
from __future__ import annotations

from solstis_tui.ai.baselines import PlainISMCTS
from solstis_tui.ai.search import Kept, RandomToEnd, RandomUCB, Search, continue_from


class PlainC(PlainISMCTS):
    C = 2.0

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, exploration=self.C)


class PlainC1(PlainC):
    C = 1.0


class PlainC14(PlainC):
    C = 1.4


class PlainC07(PlainC):
    C = 0.7


class ReuseC(PlainC):
    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.kept: Kept | None = None

    def search(self, obs):  # type: ignore[no-untyped-def]
        search = Search(obs, self.rand, RandomUCB(self.exploration), RandomToEnd(),
                        root=continue_from(self.kept, obs))
        self.kept = (obs.player, obs.history, search.root)
        return search


class Reuse2(ReuseC):
    C = 2.0


class Reuse1(ReuseC):
    C = 1.0


class Reuse14(ReuseC):
    C = 1.4

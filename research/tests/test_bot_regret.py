"""The judge of research/bot_regret.py: each move scored by the games that start with it."""

from __future__ import annotations

import random

from solstis_tui.ai.policy import best_move
from solstis_tui.core import Dealer, Game, MoveKind, Options

from bot_regret import move_values


def cover_choice_with_sure_outcomes() -> tuple[Game, dict[str, float]]:
    """The first end-of-game Evil Spirit cover decision (heuristic self-play) where every
    cover ends the game with a result that no hidden tile or spirit can change, and the
    covers' results differ: (the game, each cover's sure result for the chooser)."""
    for deal in range(200):
        rand = random.Random(deal)
        g = Game.new(deal, Options.for_variant("base"))
        while not g.is_over:
            legal = g.legal_moves()
            if len(legal) > 1 and all(mv.kind is MoveKind.COVER for mv in legal):
                me, dealer = g.to_play, Dealer(g.observation(g.to_play))
                sure: dict[str, float] = {}
                for mv in legal:
                    results = set()
                    for k in range(8):
                        world = dealer.deal(random.Random(k))
                        world.play(mv)
                        results.add(0.5 if world.winner is None else float(world.winner == me))
                    if len(results) == 1:
                        sure[str(mv)] = results.pop()
                if len(sure) == len(legal) and len(set(sure.values())) > 1:
                    return g, sure
            g.play(best_move(g, rand, 0.1))
    raise AssertionError("no such decision in 200 games")


def test_the_judge_gives_a_sure_win_all_and_a_sure_loss_nothing() -> None:
    """``move_values`` (the judge of research/bot_regret.py) scores each move by the
    games that start with it: at the Evil Spirit's cover at the end of a game, the covers
    that surely win are worth 1 to the chooser and those that surely lose 0."""
    g, sure = cover_choice_with_sure_outcomes()
    values = move_values(g.observation(g.to_play), 10, random.Random(3))
    assert {str(mv): v for mv, v in values.items()} == sure


def test_a_cancelled_judge_stops_between_rounds() -> None:
    """A set ``cancel`` stops the judge after the current round of moves: set before the
    first, every move keeps the neutral 0.5."""
    import threading

    g, _ = cover_choice_with_sure_outcomes()
    cancel = threading.Event()
    cancel.set()
    values = move_values(g.observation(g.to_play), 10, random.Random(3), cancel)
    assert set(values.values()) == {0.5} and len(values) == len(g.legal_moves())

"""Plain ISMCTS, the yardstick: reachable in the arena, not an app opponent, and a real
search (it beats random clearly, and more search helps it)."""

from __future__ import annotations

from solstis_tui.ai.arena import play_game, tasks_for
from solstis_tui.ai.base import Budget
from solstis_tui.ai.baselines import PlainISMCTS
from solstis_tui.ai.registry import BOT_TIERS, make_bot

from .conftest import positions


def test_plain_ismcts_is_an_arena_bot_but_not_an_opponent_in_the_app() -> None:
    assert isinstance(make_bot("plain-ismcts@30", 1), PlainISMCTS)
    assert "plain-ismcts" not in BOT_TIERS


def test_every_legal_root_move_is_tried_and_the_most_visited_is_played() -> None:
    g = positions("base", 4, seed=12)[3]
    obs = g.observation(g.to_play)
    bot = make_bot("plain-ismcts", 4)
    visits = bot.visits(obs, Budget(iterations=400))
    assert set(visits) == set(obs.legal_moves)
    assert all(n > 0 for n in visits.values())
    assert sum(visits.values()) == 400
    chosen = make_bot("plain-ismcts", 4).choose(obs, Budget(iterations=400))
    assert visits[chosen] == max(visits.values())


def test_plain_ismcts_beats_random_clearly() -> None:
    """Twelve games (six deals, both seats) at 60 iterations a decision: it wins at least
    ten. (At 0.25 s a decision it scores about 96% against random.)"""
    wins = 0
    for task in tasks_for(["plain-ismcts", "random"], 12, 5, "base", Budget(iterations=60)):
        record = play_game(task)
        seat = record["bots"].index("plain-ismcts")
        wins += record["winner"] == seat
    assert wins >= 10

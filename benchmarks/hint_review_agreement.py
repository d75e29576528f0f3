"""Do hints and the review agree? Where the review calls a move a mistake costing more than
one star, would a hint at the same decision have recommended that move?

    .venv/bin/python benchmarks/hint_review_agreement.py --decisions 200 --seed 5151

Heuristic games (greedy against greedy) supply the decisions: every decision with more than
one legal move, of both players, until ``--decisions`` are reviewed. Each is ranked as the
app's review ranked it before the analysis board (the strongest bot, ``REVIEW_SECONDS``, a
fresh bot seeded as the app seeds it; the board now reads the judge, docs/analysis.md); a
move whose cost is more than ``--threshold`` stars is a mistake. Each mistake's
position is then ranked as a hint ranks it (``HINT_SECONDS``, another fresh bot) and counts
as agreeing when the hint's first move is not the mistaken one. Prints the rate with its
Wilson 95% interval (issue 39 asks ≥ 95%).
"""

from __future__ import annotations

import argparse

from solstis_tui.ai.arena_stats import wilson
from solstis_tui.ai.base import Budget, capped
from solstis_tui.ai.registry import make_bot, make_solo_bot
from solstis_tui.core import Game, Move, Observation
from solstis_tui.local.session import STRONGEST

HINT_SEED = 12345  # the app's hint bot is seeded alike for every position
REVIEW_SECONDS = 0.4  # the former review's thinking time a decision
#: The ranking hints' search time (issue 39). Hints now ask the judge (coach/hints.py);
#: this compares the former review's ranking with that older hint.
HINT_SECONDS = 1.0


def ranking(obs: Observation, seconds: float) -> list[tuple[Move, float]]:
    bot = make_solo_bot(STRONGEST, HINT_SEED)
    return capped(list(bot.rank(obs, Budget(seconds=seconds))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5151)
    parser.add_argument("--threshold", type=float, default=1.0, help="stars")
    args = parser.parse_args()
    reviewed = mistakes = agreeing = 0
    game_seed = args.seed
    while reviewed < args.decisions:
        g = Game.new(seed=game_seed)
        players = (make_bot("greedy", game_seed), make_bot("greedy", game_seed + 1))
        while not g.is_over and reviewed < args.decisions:
            legal = g.legal_moves()
            if len(legal) == 1:
                g.play(legal[0])
                continue
            obs = g.observation(g.to_play)
            played = players[g.to_play].choose(obs)
            review = dict(ranking(obs, REVIEW_SECONDS))
            cost = max(review.values()) - review[played]
            reviewed += 1
            if cost > args.threshold:
                mistakes += 1
                hint_first = ranking(obs, HINT_SECONDS)[0][0]
                agreeing += hint_first != played
                print(f"game {game_seed} turn {g.turn}: {played} costs {cost:.1f} stars; "
                      f"hint: {hint_first} ({'agrees' if hint_first != played else 'DISAGREES'})")
            g.play(played)
        game_seed += 1
    print(f"{reviewed} decisions reviewed ({STRONGEST}, review {REVIEW_SECONDS} s, hint "
          f"{HINT_SECONDS} s), {mistakes} called mistakes of more than {args.threshold} star")
    if mistakes:
        low, high = wilson(agreeing / mistakes, mistakes)
        print(f"the hint would not have recommended {agreeing} of them: "
              f"{agreeing / mistakes:.1%} (95% CI {low:.1%}-{high:.1%}); target >= 95%")


if __name__ == "__main__":
    main()

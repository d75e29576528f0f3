"""Every fact the coach's reasons state, checked in the engine, on held-out seeded games.

    .venv/bin/python benchmarks/reason_facts.py [--games-per 12] [--first-seed 5000]

Plays games of every variant between tiers (random, greedy, minimax at a small budget,
and a hot-seat stand-in: two random seats), and at every decision with a real choice
takes the move played and the bots' next choice as a pair, as the analysis pairs the
played move with the judge's best. For each pair it prints nothing, but counts:

- facts said: every fact of ``differences`` that the reason's words contain, checked
  with the test's engine checker (``tests/test_reasons.py``'s ``holds``: what a move
  built is checked where its own events end, before any draw);
- reasons that name no difference although the engine finds one in the moves' facts;
- "the difference is in what may follow" said at the game's last decisions.

Seeds from 5000 on were never used to tune the reasons (the tests use 1–40).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solstis_tui.ai.registry import make_bot
from solstis_tui.coach.reasons import differences, explain, facts, say
from solstis_tui.core import Game, Options
from tests.test_reasons import holds

VARIANTS = {"base": Options(), "beginner": Options(beginner=True),
            "firefly": Options(firefly=True)}
PAIRINGS = (("random", "random"), ("greedy", "random"), ("greedy", "minimax@0.05s"),
            ("minimax@0.05s", "greedy"))
NAMES = ("You", "Bot")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games-per", type=int, default=12,
                        help="games per variant and pairing")
    parser.add_argument("--first-seed", type=int, default=5000)
    parser.add_argument("--deals", type=int, default=8)
    args = parser.parse_args()
    decisions = said = false = silent = follow_at_end = 0
    started = time.perf_counter()
    seed = args.first_seed
    for variant, options in VARIANTS.items():
        for pairing in PAIRINGS:
            for _ in range(args.games_per):
                seed += 1
                bots = [make_bot(spec, seed + k) for k, spec in enumerate(pairing)]
                g = Game.new(seed=seed, options=options)
                rng = random.Random(seed)
                while not g.is_over:
                    obs = g.observation(g.to_play)
                    played = bots[g.to_play].choose(obs)
                    if len(obs.legal_moves) > 1:
                        others = [m for m in obs.legal_moves if m != played]
                        best = rng.choice(others)
                        names = NAMES if obs.player == 0 else NAMES[::-1]
                        text = explain(obs, played, best, names, deals=args.deals)
                        only_best, only_played, _ = differences(obs, played, best,
                                                                deals=args.deals)
                        after = {m: g.copy() for m in (played, best)}
                        for m, game in after.items():
                            game.play(m)
                        for move, told in ((best, only_best), (played, only_played)):
                            for fact in told:
                                if say(fact, obs.player, names) not in text:
                                    continue
                                said += 1
                                if not holds(fact, g, after[move], obs.player):
                                    false += 1
                                    print(f"FALSE seed {seed} {variant} {move}: {fact}\n"
                                          f"  {text}", flush=True)
                        mine = facts(obs, played, deals=args.deals)
                        theirs = facts(obs, best, deals=args.deals)
                        if "what may follow" in text and mine != theirs and \
                                (only_best or only_played):
                            silent += 1
                        if "what may follow" in text and all(a.is_over for a in after.values()):
                            follow_at_end += 1
                        decisions += 1
                    g.play(played)
    took = time.perf_counter() - started
    print(f"decisions {decisions}, facts said {said}, false {false}, "
          f"differences found but not named {silent}, "
          f"'what may follow' at the game's end {follow_at_end}; {took:.0f} s")
    return 1 if false or silent or follow_at_end else 0


if __name__ == "__main__":
    raise SystemExit(main())

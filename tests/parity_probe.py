"""What the parity test compares between the builds: run as a script, it prints one JSON
object of digests, each over one part of the engine's or the bots' behaviour.

    python tests/parity_probe.py GAMES   (SOLSTIS_PURE=1 for the pure-Python build)

- ``games/VARIANT``: GAMES seeded games of random moves per variant: at every decision the
  legal moves, every tenth decision the player's observation, at the end every event of the
  log, both score sheets and the whole game as JSON. Events and observations are compared
  by ``repr``, so a value of another type (an int where a ``Spirit`` was) counts.
- ``bots/TIER``: every tier's move and its ranking with values, at fixed iteration budgets on
  positions of every variant (the expert on one process).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from solstis_tui import engine_build
from solstis_tui.ai.base import Budget
from solstis_tui.ai.registry import make_solo_bot
from solstis_tui.core import Game, Options

VARIANTS = ("base", "beginner", "firefly")
#: Each tier and the iterations it searches a decision (None: it does not search).
TIERS = {"random": None, "greedy": None, "minimax": 6, "mcts": 150, "expert": 150,
         "plain-ismcts": 250}


def game_digests(games: int) -> dict[str, str]:
    out = {}
    for variant in VARIANTS:
        digest = hashlib.sha256()
        for i in range(games):
            rand = random.Random(i)
            game = Game.new(seed=7_000_000 + i, options=Options.for_variant(variant))
            step = 0
            while not game.is_over:
                legal = game.legal_moves()
                digest.update(" ".join(map(str, legal)).encode())
                if step % 10 == 0:
                    digest.update(repr(game.observation(game.to_play)).encode())
                game.play(legal[int(rand.random() * len(legal))])
                step += 1
            digest.update(repr(game.log).encode())
            digest.update(repr((game.score(0), game.score(1))).encode())
            digest.update(game.to_json().encode())
        out[f"games/{variant}"] = digest.hexdigest()
    return out


def positions() -> list[Game]:
    """Decisions with a real choice, from random play in every variant."""
    found = []
    for variant in VARIANTS:
        rand = random.Random(variant)
        for deal in range(3):
            game = Game.new(seed=900 + deal, options=Options.for_variant(variant))
            while not game.is_over:
                if len(game.legal_moves()) > 1 and rand.random() < 0.08:
                    found.append(game.copy())
                game.play(rand.choice(game.legal_moves()))
    return found


def bot_digests() -> dict[str, str]:
    observations = [g.observation(g.to_play) for g in positions()]
    out = {}
    for tier, iterations in TIERS.items():
        digest = hashlib.sha256()
        for i, obs in enumerate(observations):
            budget = Budget(iterations=iterations) if iterations else None
            digest.update(repr(make_solo_bot(tier, i).choose(obs, budget)).encode())
            digest.update(repr(make_solo_bot(tier, i).rank(obs, budget)).encode())
        out[f"bots/{tier}"] = digest.hexdigest()
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(json.dumps({"engine": engine_build.STATUS.line, **game_digests(games),
                      **bot_digests()}))


if __name__ == "__main__":
    main()

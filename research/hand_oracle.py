"""What knowing the opponent's hand would be worth to mcts: the ceiling of any inference
about it.

    PYTHONPATH=research:benchmarks .venv/bin/python research/hand_oracle.py --opponent mcts \\
        --games 100 --seed 1001 --time 0.25 --jobs 2

``ToldMCTS`` is mcts told the opponent's hand before each of its decisions: every world it
searches deals the opponent exactly those tiles, while the land pile, the face-down
display tiles and the spirit pile stay as unknown as ever. No fair bot can know this much.
Inferring the hand from the opponent's choices (which tile it played, which it kept) can
recover only part of it, so ``ToldMCTS``'s score against a bot is a ceiling for what such
inference could add against that bot (issue 16). The games are the arena's (the same deals
for a seed, each from both seats, the same flags, report, ``--json`` and ``--record``).
"""

from __future__ import annotations

import argparse
import dataclasses

from solstis_tui.ai import arena
from solstis_tui.ai.base import Bot
from solstis_tui.core import Dealer, Game, Observation

from strategies import ResearchMCTS


def told_dealer(obs: Observation, opponent_hand: tuple[int, ...]) -> Dealer:
    """A ``Dealer`` of the worlds where the opponent holds exactly ``opponent_hand``: the
    observation is given the whole hand as the tiles it has seen there (as a Renard reveal
    shows some), so every deal puts those tiles in the opponent's hand and deals the other
    unseen tiles and the spirits as randomly as ever. (The shipped ``Dealer`` is compiled
    and cannot be subclassed; this is the same distribution as the swapping dealer the
    figures were first measured with: the told hand, the rest uniformly at random.)"""
    return Dealer(dataclasses.replace(obs, opponent_known=tuple(sorted(opponent_hand))),
                  quiet=True)


class ToldMCTS(ResearchMCTS):
    """mcts that searches only worlds where the opponent holds ``told`` (set by
    ``tell_hand`` before each decision)."""

    name = "told-mcts"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.told: tuple[int, ...] | None = None

    def dealer(self, obs: Observation) -> Dealer:
        if self.told is None:
            raise RuntimeError("ToldMCTS plays only in hand_oracle.py, which tells it the hand")
        return told_dealer(obs, self.told)


def tell_hand(bot: Bot, game: Game) -> None:
    """The arena's ``peek``: tell a ``ToldMCTS`` the opponent's real hand. (By attribute,
    not class: the arena builds its bots from the spec "hand_oracle:ToldMCTS", a class other
    than this script's own ``__main__.ToldMCTS``.)"""
    if hasattr(bot, "told"):
        bot.told = tuple(game.hands[1 - game.to_play])


def main(argv: list[str] | None = None) -> int:
    """``--opponent`` and the arena's own flags (``solstis arena --help``); the defaults
    are 100 games, seed 1001 and 0.25 s a decision."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="mcts")
    args, rest = parser.parse_known_args(argv)
    return arena.main(["--bots", f"hand_oracle:ToldMCTS,{args.opponent}", "--games", "100",
                       "--seed", "1001", "--time", "0.25", *rest], peek=tell_hand)


if __name__ == "__main__":
    raise SystemExit(main())

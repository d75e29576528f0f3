"""Who plays each seat: a person at this screen, or a bot named by its spec.

A bot's spec is a tier (``"mcts"``), a tier with its own budget (``"mcts@0.5s"``,
``"minimax@40"``) or a bot class of one's own (``"package.module:Class"``). Saves and the
command line write a seat as text: ``"human"`` or the spec.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A person's seat as saves and the command line write it.
PERSON_TEXT = "human"
#: The built-in tiers' titles, weakest first.
TIER_TITLES = {
    "random": "Random bot", "greedy": "Greedy bot", "minimax": "Minimax bot",
    "mcts": "MCTS bot", "expert": "Expert bot",
}


@dataclass(frozen=True)
class Seat:
    """One seat: a person (``bot`` None) or the bot ``bot`` (its spec)."""

    bot: str | None = None

    @classmethod
    def parse(cls, text: str) -> Seat:
        """A seat from its text: ``"human"``, or a bot's spec."""
        return PERSON if text == PERSON_TEXT else cls(text)

    def __str__(self) -> str:
        return PERSON_TEXT if self.bot is None else self.bot

    @property
    def is_person(self) -> bool:
        return self.bot is None

    @property
    def tier(self) -> str:
        """The bot's spec without its budget ('' for a person)."""
        return (self.bot or "").partition("@")[0]

    @property
    def title(self) -> str:
        """A short name: 'Minimax bot', or the class name of a plug-in bot ('' for a person)."""
        name = self.tier
        if name in TIER_TITLES:
            return TIER_TITLES[name]
        return name.rpartition(":")[2] or name


PERSON = Seat()


def seats_for(mode: str, opponent: str, person_first: bool) -> tuple[Seat, Seat]:
    """The seats of a new game: ``mode`` 'hotseat' (two people), 'watch' (``opponent``
    against itself) or a person against ``opponent``, the person first if ``person_first``."""
    bot = Seat(opponent)
    if mode == "hotseat":
        return PERSON, PERSON
    if mode == "watch":
        return bot, bot
    return (PERSON, bot) if person_first else (bot, PERSON)

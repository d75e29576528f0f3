"""Bot tiers by name, and loading a person's own bot from ``package.module:Class``.

A spec is a tier name (``mcts``), an import path (``mybots.clever:CleverBot``) or the name
of an installed package's entry point in the ``solstis.bots`` group, each optionally
followed by ``@BUDGET``: ``@2000`` for 2000 iterations, ``@0.5s`` for half a second per
decision. The budget becomes the bot's ``default_budget``. A package offers a bot with::

    [project.entry-points."solstis.bots"]
    clever = "mybots.clever:CleverBot"
"""

from __future__ import annotations

import importlib
import importlib.metadata
import re
from dataclasses import dataclass
from typing import Any

from .base import Bot, Budget, RandomBot
from .baselines import PlainISMCTS
from .expert import ExpertBot
from .greedy import GreedyBot
from .mcts import MCTSBot
from .minimax import MinimaxBot


@dataclass(frozen=True)
class Tier:
    name: str
    cls: type[Bot]
    description: str


TIERS: dict[str, Tier] = {
    cls.name: Tier(cls.name, cls, cls.description)
    for cls in (RandomBot, GreedyBot, MinimaxBot, MCTSBot, ExpertBot)
}
"""The built-in tiers, weakest first."""

BOT_TIERS: tuple[str, ...] = tuple(TIERS)
"""The built-in tiers' names, weakest first: what the app and the host offer as opponents
(``make_bot`` also loads ``package.module:Class``)."""

BASELINES: dict[str, type[Bot]] = {PlainISMCTS.name: PlainISMCTS}
"""Yardsticks the arena knows by name; the app does not offer them as opponents."""

_BUDGET = re.compile(r"^(\d+(?:\.\d+)?)(s?)$")


def parse_budget(text: str) -> Budget:
    """``'2000'`` → 2000 iterations; ``'0.5s'`` → half a second. ValueError otherwise."""
    found = _BUDGET.match(text.strip().lower())
    if not found:
        raise ValueError(
            f"bad budget {text!r}: write iterations (e.g. @2000) or seconds (e.g. @0.5s)"
        )
    number, seconds = found.groups()
    if seconds:
        if float(number) <= 0:
            raise ValueError(f"bad budget {text!r}: seconds must be more than 0")
        return Budget(seconds=float(number))
    if "." in number or int(number) <= 0:
        raise ValueError(f"bad budget {text!r}: iterations are a whole number above 0")
    return Budget(iterations=int(number))


def split_spec(spec: str) -> tuple[str, Budget | None]:
    """(tier name or import path, budget given after '@' or None)."""
    name, sep, budget = spec.strip().partition("@")
    if not name:
        raise ValueError(f"bad bot {spec!r}: give a tier ({', '.join(TIERS)}) or module:Class")
    return name, parse_budget(budget) if sep else None


def load_class(path: str) -> type[Bot]:
    """The Bot subclass named by ``package.module:Class``; ValueError with the reason."""
    module_name, sep, class_name = path.partition(":")
    if not sep and module_name and (found := entry_point(module_name)) is not None:
        module_name, sep, class_name = found.partition(":")
    if not sep or not module_name or not class_name:
        raise ValueError(
            f"unknown bot {path!r}: use a tier ({', '.join(TIERS)}), package.module:Class "
            "or the name of an installed bot (entry point group 'solstis.bots')"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import module {module_name!r} for bot {path!r}: {exc}") from exc
    obj: object = module
    for part in class_name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise ValueError(f"module {module_name!r} has no {class_name!r} (bot {path!r})")
    if not isinstance(obj, type) or not issubclass(obj, Bot):
        raise ValueError(
            f"{path!r} is not a bot class: it must subclass solstis_tui.ai.base.Bot "
            "(choose(observation, budget, cancel) -> Move)"
        )
    if getattr(obj, "__abstractmethods__", None):
        missing = ", ".join(sorted(obj.__abstractmethods__))
        raise ValueError(f"{path!r} does not implement {missing}")
    return obj


ENTRY_POINTS = "solstis.bots"


def entry_point(name: str) -> str | None:
    """The ``module:Class`` an installed package registers as bot ``name``, if any."""
    for ep in importlib.metadata.entry_points(group=ENTRY_POINTS, name=name):
        return ep.value
    return None


def bot_class(spec: str) -> type[Bot]:
    """The class a spec names (budget suffix ignored)."""
    name, _ = split_spec(spec)
    tier = TIERS.get(name.lower())
    if tier is not None:
        return tier.cls
    return BASELINES.get(name.lower()) or load_class(name)


def make_bot(spec: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot from a tier name or ``package.module:Class``, with an optional ``@budget``.

    ``options`` go to the class (e.g. ``workers=2`` for the expert). ValueError with a
    clear message for a bad name, path, class or budget.
    """
    name, budget = split_spec(spec)
    cls = bot_class(name)
    try:
        bot = cls(seed=seed, **options)
    except TypeError as exc:
        raise ValueError(f"cannot create bot {spec!r}: {exc}") from exc
    if budget is not None:
        bot.default_budget = budget
    return bot


def make_solo_bot(spec: str, seed: int | None = None) -> Bot:
    """``make_bot``, except that a root-parallel bot (the expert) searches on the calling
    process alone: for hints, and for hosts that run bots in worker processes of their
    own (a worker must not start processes of its own)."""
    options = {"workers": 1} if issubclass(bot_class(spec), ExpertBot) else {}
    return make_bot(spec, seed, **options)


def describe() -> list[tuple[str, str]]:
    """(name, one-line description) of every tier, weakest first."""
    return [(t.name, t.description) for t in TIERS.values()]

"""Bot tiers by name, and loading a person's own bot from ``package.module:Class``.

A spec is a tier name (``mcts``), an import path (``mybots.clever:CleverBot``) or the name
of an installed package's entry point in the ``solstis.bots`` group, each optionally
followed by ``@BUDGET``: ``@2000`` for 2000 iterations, ``@0.5s`` for half a second per
decision. The budget becomes the bot's ``default_budget``. A package offers a bot with::

    [project.entry-points."solstis.bots"]
    clever = "mybots.clever:CleverBot"

An import path is what a person types on their own command line. A spec read from a file
(a game record's seat kind) goes through ``spec_from_file`` first, which takes only the
names above, never an import path, and imports nothing.
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


#: The most a spec read from a file may ask a bot to think, a decision (``spec_from_file``).
MAX_FILE_SECONDS = 60.0
MAX_FILE_ITERATIONS = 1_000_000
#: A name a file may give a bot by: a tier's, a yardstick's or an installed entry point's
#: (no ':', so never an import path), with its budget after '@'.
_FILE_SPEC = re.compile(r"^([A-Za-z0-9_][\w.-]{0,63})(?:@([0-9.]{1,12}s?))?$")


def spec_from_file(text: str) -> str:
    """The spec of the bot that ``text``, read from a file someone may have sent (a game
    record's seat kind), names: a built-in tier or yardstick (``TIERS``, ``BASELINES``) or
    a bot an installed package offers in the entry point group ``solstis.bots``, each with
    an optional budget of at most ``MAX_FILE_SECONDS`` or ``MAX_FILE_ITERATIONS``. An
    import path (``pkg.mod:Class``) is never taken from a file: ValueError, as for
    anything else, saying why. Nothing is imported: an entry point is only looked up in
    the installed packages' metadata here (``make_bot`` loads it, as the command line's
    ``--opponent NAME`` would)."""
    found = _FILE_SPEC.match(text)
    if found is None:
        if ":" in text:
            raise ValueError("a file may name a bot, never a module to import: "
                             f"{_shown(text)} is an import path")
        raise ValueError(f"{_shown(text)} is not a bot's name with an optional @budget")
    name, budget_text = found.groups()
    lower = name.lower()
    if lower in TIERS or lower in BASELINES:
        name = lower
    elif entry_point(name) is None:
        raise ValueError(f"{_shown(name)} is not a bot this program has: the tiers are "
                         f"{', '.join(TIERS)}, and no installed package offers a bot of "
                         f"that name (entry point group '{ENTRY_POINTS}')")
    if budget_text is None:
        return name
    budget = parse_budget(budget_text)
    if (budget.seconds or 0) > MAX_FILE_SECONDS or \
            (budget.iterations or 0) > MAX_FILE_ITERATIONS:
        raise ValueError(f"{_shown(text)} asks for more than a bot may think from a file "
                         f"({MAX_FILE_SECONDS:g} seconds or {MAX_FILE_ITERATIONS:,} "
                         "iterations a decision)")
    return f"{name}@{budget_text}"


def _shown(text: str, most: int = 60) -> str:
    """``text`` quoted for a message, cut to ``most`` characters."""
    return repr(text if len(text) <= most else text[:most - 1] + "…")


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

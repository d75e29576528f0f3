"""Tiers by name, and loading a person's own bot by import path."""

from __future__ import annotations

import sys

import pytest

from solstis_tui.ai.base import Budget, RandomBot
from solstis_tui.ai.expert import ExpertBot
from solstis_tui.ai.mcts import MCTSBot
from solstis_tui.ai.registry import TIERS, describe, make_bot, parse_budget, spec_from_file


def test_tiers_are_ordered_and_described() -> None:
    assert list(TIERS) == ["random", "greedy", "minimax", "mcts", "expert"]
    for name, text in describe():
        assert text and len(text) < 100, name


def test_make_bot_by_tier_and_by_path() -> None:
    assert isinstance(make_bot("mcts", 1), MCTSBot)
    assert isinstance(make_bot("solstis_tui.ai.base:RandomBot", 1), RandomBot)
    assert make_bot("expert", 1, workers=2).workers == 2
    assert isinstance(make_bot("MCTS", None), MCTSBot)


def test_budget_suffix_sets_the_default_budget() -> None:
    assert make_bot("mcts@500", 1).default_budget == Budget(iterations=500)
    assert make_bot("expert@1.5s", 1).default_budget == Budget(seconds=1.5)
    assert isinstance(make_bot("expert@1.5s", 1), ExpertBot)
    assert parse_budget("0.25s") == Budget(seconds=0.25)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("wizard", "unknown bot"),
        ("no_such_module_xyz:Bot", "cannot import module"),
        ("solstis_tui.ai.base:NoSuchBot", "has no"),
        ("solstis_tui.ai.base:Budget", "not a bot class"),
        ("solstis_tui.ai.base:Bot", "does not implement"),
        ("solstis_tui.ai.base:", "unknown bot"),
        ("mcts@fast", "bad budget"),
        ("mcts@0s", "bad budget"),
        ("mcts@1.5", "bad budget"),
        ("@100", "bad bot"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_bot(spec, 1)


def test_an_installed_package_offers_a_bot_by_entry_point(tmp_path, monkeypatch) -> None:
    """A package declaring ``[project.entry-points."solstis.bots"]`` is loaded by name."""
    (tmp_path / "calm_bots.py").write_text(
        "from solstis_tui.ai.base import RandomBot\n\n"
        "class CalmBot(RandomBot):\n    name = 'calm'\n")
    info = tmp_path / "calm_bots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: calm-bots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[solstis.bots]\ncalm = calm_bots:CalmBot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = make_bot("calm@0.5s", 3)
    assert type(bot).__name__ == "CalmBot" and bot.default_budget == Budget(seconds=0.5)
    with pytest.raises(ValueError, match=r"entry point group 'solstis\.bots'"):
        make_bot("not-installed-anywhere", 3)


@pytest.mark.parametrize(("text", "spec"), [
    ("mcts", "mcts"), ("MCTS@500", "mcts@500"), ("expert@1.5s", "expert@1.5s"),
    ("plain-ismcts@1250", "plain-ismcts@1250"), ("random@60s", "random@60s"),
    ("greedy@1000000", "greedy@1000000"),
])
def test_a_file_may_name_a_tier_with_its_budget(text: str, spec: str) -> None:
    assert spec_from_file(text) == spec


@pytest.mark.parametrize(("text", "words"), [
    ("solstis_tui.ai.base:RandomBot", "never a module to import"),
    ("os:system", "never a module to import"),
    ("json", "not a bot this program has"),
    ("wizard@2s", "not a bot this program has"),
    ("mcts@60.5s", "more than a bot may think"),
    ("mcts@1000001", "more than a bot may think"),
    ("mcts@0s", "bad budget"),
    ("mcts@fast", "not a bot's name"),
    ("", "not a bot's name"),
])
def test_a_file_never_names_a_module_nor_an_unbounded_budget(text: str, words: str) -> None:
    before = set(sys.modules)
    with pytest.raises(ValueError, match=words):
        spec_from_file(text)
    assert set(sys.modules) == before


def test_a_file_may_name_an_installed_bot_which_is_looked_up_not_imported(
        tmp_path, monkeypatch) -> None:
    (tmp_path / "quiet_bots.py").write_text(
        "from solstis_tui.ai.base import RandomBot\n\n"
        "class QuietBot(RandomBot):\n    name = 'quiet'\n")
    info = tmp_path / "quiet_bots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: quiet-bots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[solstis.bots]\nquiet = quiet_bots:QuietBot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert spec_from_file("quiet@0.5s") == "quiet@0.5s"
    assert "quiet_bots" not in sys.modules  # only the metadata was read
    with pytest.raises(ValueError, match="never a module to import"):
        spec_from_file("quiet_bots:QuietBot")
    assert type(make_bot("quiet@0.5s", 1)).__name__ == "QuietBot"
    sys.modules.pop("quiet_bots", None)

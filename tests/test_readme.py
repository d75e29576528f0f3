"""The README's Quick start is what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^    (\S.*)$", section, flags=re.M) or re.findall(
        r"```(?:sh|bash|console)?\n(.+?)\n```", section)


def test_quick_start_has_exactly_two_commands():
    commands = quick_start_commands()
    assert len(commands) == 2, commands
    assert commands[0].endswith("solstis")
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert quick_start_commands()[1] in ci.splitlines()


def test_the_real_unix_account_test_runs_only_when_asked_and_ci_asks():
    """Run as root, the README's test command made and deleted a real Unix account without
    saying so: now that test skips, naming the variable that runs it, which CI sets and
    the README names."""
    from tests.online.test_second_user import ASK, not_asked_reason

    assert ASK in not_asked_reason({}) and "Unix account" in not_asked_reason({})
    assert not_asked_reason({ASK: "1"}) == ""
    assert f"export {ASK}=1" in (ROOT / ".ci" / "run").read_text().splitlines()
    assert f"{ASK}=1" in (ROOT / "README.md").read_text()

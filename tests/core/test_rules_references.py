"""Rule references point at the rules shipped with the package: every "§N" cited in the
code (solstis_tui, the bots) and the tests names a section of solstis_tui/rules.md."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITED_IN = [ROOT / "solstis_tui", ROOT / "ai", ROOT / "tests"]
#: The workspace's name for the rules, which the package does not ship (split so that this
#: file does not cite it).
STALE = "RULES" ".md"


def _rules() -> str:
    return resources.files("solstis_tui").joinpath("rules.md").read_text(encoding="utf-8")


def _sources() -> list[Path]:
    return sorted(p for folder in CITED_IN for p in folder.rglob("*.py"))


def test_the_rules_ship_with_the_package_and_point_at_no_missing_folder():
    text = _rules()
    assert text.startswith("# Solstis")
    assert "seeds/" not in text


def test_every_cited_section_exists_in_the_shipped_rules():
    sections = {int(n) for n in re.findall(r"^## (\d+)\. ", _rules(), re.MULTILINE)}
    assert sections == set(range(1, 13))
    cited: dict[int, list[str]] = {}
    for path in _sources():
        for n in re.findall(r"§(\d+)", path.read_text(encoding="utf-8")):
            cited.setdefault(int(n), []).append(str(path.relative_to(ROOT)))
    assert len(cited) > 8, "the scan finds the code's references"
    missing = {n: sorted(set(files)) for n, files in cited.items() if n not in sections}
    assert not missing, f"sections cited but not in solstis_tui/rules.md: {missing}"


def test_no_code_cites_a_rules_file_that_is_not_shipped():
    stale = [str(p.relative_to(ROOT)) for p in _sources()
             if STALE in p.read_text(encoding="utf-8")]
    assert stale == []

"""The bots' strength lives in one place, ai/ladder.py: the guide's table and the protocol
page's starting ratings say what it says."""

from __future__ import annotations

import re
from pathlib import Path

from solstis_tui.ai.ladder import LADDER
from solstis_tui.host.ratings import bot_starts

ROOT = Path(__file__).resolve().parents[2]


def test_the_guides_ladder_table_is_the_ladder_the_app_and_host_use() -> None:
    docs = (ROOT / "docs" / "bots.md").read_text()
    table = docs[docs.index("**The ladder**"):].split("\n\n")[1]
    rows = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in table.splitlines()[2:]]
    low_high = [rung.interval for rung in LADDER]
    assert rows == [[rung.budget, rung.below_budget, str(rung.games),
                     f"{rung.won}-{rung.drawn}-{rung.lost}", f"{100 * rung.score:.1f}%",
                     f"{100 * low:.1f}–{100 * high:.1f}%", f"{rung.margin:+.2f}",
                     rung.measured]
                    for rung, (low, high) in zip(LADDER, low_high, strict=True)]


def test_the_protocol_page_gives_the_bots_starting_ratings_the_host_uses() -> None:
    text = " ".join((ROOT / "docs" / "protocol.md").read_text().split())
    said = dict(re.findall(r"(greedy|minimax|mcts|expert) (\d+)[,)]", text))
    starts = bot_starts()
    assert said == {tier: str(round(starts[f"bot:{tier}"].rating))
                    for tier in ("greedy", "minimax", "mcts", "expert")}

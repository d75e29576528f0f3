"""The opponent list says how strong each tier is and how many cores the expert searches
on, and a finished game's
expert stops its worker processes when the next game starts."""

from __future__ import annotations

from textual.widgets import Select

from solstis_tui.ai import expert
from solstis_tui.local.session import Session, Setup
from solstis_tui.screens.newgame import NewGameScreen

from ..online.helpers import screen_lines
from .conftest import make_app, settle


async def test_the_opponent_list_names_the_experts_cores(monkeypatch):
    monkeypatch.setattr(expert, "usable_cores", lambda: 4)
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one("#opponent", Select).focus()
        await pilot.press("enter")  # the list opens
        await pilot.pause()
        items = {line.split("▊")[1].split("▎")[0].strip()  # what each line of it says
                 for line in screen_lines(app) if "▊" in line and "▎" in line}
        assert {"Expert bot (4 cores) · wins 58% vs MCTS",
                "MCTS bot · wins 66% vs Minimax"} <= items, items
        await pilot.press("escape")
        await pilot.pause()
        # The field shows the chosen label whole at 80 columns.
        await pilot.resize_terminal(80, 24)
        app.screen.query_one("#opponent", Select).value = "expert"
        await pilot.pause()
        shown = "\n".join(screen_lines(app))
        assert "Expert bot (4 cores) · wins 58% vs MCTS" in shown


def test_each_tiers_strength_is_the_ladders_score_in_docs_bots_md():
    """The opponent list's "wins N% vs X" is the published ladder's row, rounded."""
    import re
    from pathlib import Path

    from solstis_tui.local.seats import TIER_TITLES
    from solstis_tui.local.session import STRENGTH

    docs = (Path(__file__).parents[2] / "docs" / "bots.md").read_text()
    ladder = docs[docs.index("**The ladder**"):]
    rows: dict[str, tuple[str, float]] = {}
    for m in re.finditer(r"^\| (\w+)[^|]* \| (\w+)[^|]* \| \d+ \| [\d-]+ \| ([\d.]+)%",
                         ladder, re.M):
        rows.setdefault(m.group(1), (m.group(2), float(m.group(3))))  # the first: the ladder
    for tier, text in STRENGTH.items():
        if tier == "random":
            continue
        below, score = rows[tier]
        title = TIER_TITLES[below].removesuffix(" bot")
        assert text == f"wins {round(score)}% vs {title}"


async def test_a_new_game_stops_the_last_games_expert_workers():
    app = make_app(seats=("human", "random"), seed=3)
    closed = []

    class Closing:
        def close(self) -> None:
            closed.append(True)

    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        app.game_screen.session.bots[1] = Closing()
        app.start_session(Session(Setup(seed=4, seats=("human", "random"))))
        await settle(pilot, app)
        assert closed == [True]

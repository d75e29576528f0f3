"""Sentences built from the names on screen read as English for "You" and for a named
player; the score sheet and the continue dialog say only what is true."""

from __future__ import annotations

import re

from rich.console import Console

from solstis_tui.core import Game, Options, Score
from solstis_tui.core.events import EndReason, EvilGiven, GameEnded, Revealed
from solstis_tui.local import saves
from solstis_tui.local.session import Session, Setup
from solstis_tui.widgets.scores import score_table
from solstis_tui.words.narrate import narrate

from .test_narrate import samples


def bad_english(line: str) -> list[str]:
    """What reads wrong: "You's", or "You" with a he/she verb ("You plays")."""
    wrong = re.findall(r"\bYou's\b", line, flags=re.IGNORECASE)
    wrong += [f"You {verb}" for verb in re.findall(r"\bYou (\w+)", line)
              if verb.endswith("s") and verb not in ("is",)]
    wrong += re.findall(r"\bYou (?:is|was|has)\b", line)
    return wrong


def test_every_sentence_reads_as_english_for_you_and_for_a_named_player():
    for names in (("You", "Ann"), ("Ann", "You")):
        more = {"win": GameEnded(EndReason.NORMAL, 0),
                "fireflies": GameEnded(EndReason.FIREFLIES, 0),
                "resigned": GameEnded(EndReason.RESIGNED, 0),
                "time": GameEnded(EndReason.TIME, 1),
                "look": Revealed(0, None), "give": EvilGiven(1)}
        for kind, event in [*samples().items(), *more.items()]:
            for line in narrate([event], names.__getitem__, viewer=None):
                assert not bad_english(line), (kind, line)
                assert not re.search(r"\w You\b", line), (kind, line)  # "to You"


def test_a_whole_game_reads_as_english():
    for seed, opts in ((4, Options()), (9, Options.for_variant("firefly"))):
        game = Game.new(seed=seed, options=opts)
        while not game.is_over:
            game.play(game.legal_moves()[0])
        for names in (("You", "Minimax bot"), ("Minimax bot", "You")):
            for line in narrate(game.log, names.__getitem__, viewer=None):
                assert not bad_english(line), line


def render(table) -> str:
    console = Console(width=80, record=True, color_system=None)
    console.print(table)
    return console.export_text()


def test_a_covered_spirit_adds_no_firefly_row_in_the_base_game():
    scores = (Score(6, 2, 3, covered="Fish"), Score(5, 1, 2))
    text = render(score_table(("You", "Minimax bot"), scores, "*"))
    assert "Covered by Evil" in text and "Fish" in text
    assert "Fireflies" not in text


def test_fireflies_show_when_they_score():
    scores = (Score(6, 2, 3, fireflies=2), Score(5, 1, 2))
    assert "Fireflies" in render(score_table(("You", "Ann"), scores, "*"))


def test_the_continue_dialog_names_the_players_as_the_screens_do():
    data = Session(Setup(seed=8, seats=("human", "minimax"))).to_save()
    assert saves.describe(data).endswith(": You vs Minimax bot")
    data = Session(Setup(seed=8, seats=("expert", "human"), names=("", "Ann"))).to_save()
    assert saves.describe(data).endswith(": Expert bot vs Ann")


async def test_key_ranges_do_not_read_as_cells_or_tiles():
    """'1-3' is a tile's name: the prompt says '1 to 3' for the hand's keys."""
    import re

    from .conftest import make_app, settle

    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        detail = str(app.game_screen.query_one("#prompt").render())
        assert "1 to 3 or ←→ pick a tile" in detail
        assert not re.search(r"\b1-3 or\b", detail)

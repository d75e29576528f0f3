"""At 80×24 the opponent's last turn is on the main screen, without a key, and whole: the
summary above the log says everything the bot did, wrapped onto as many lines as it needs."""

from __future__ import annotations

from textual.widgets import Static

from solstis_tui.core import Spirit, parse_cell
from solstis_tui.core.events import (
    Captured,
    Discarded,
    Drew,
    EagleDrew,
    EvilKept,
    Flipped,
    Kept,
    Played,
    RainbowPlaced,
    SecondChance,
    SpiritPlaced,
    SpiritsDrawn,
    TurnBegan,
)
from solstis_tui.words.narrate import turn_summary

from .conftest import make_app, settle


def shown(widget: Static) -> str:
    """The widget's text as painted: its lines joined with spaces."""
    return " ".join(" ".join(s.text for s in widget.render_line(y)).strip()
                    for y in range(widget.region.height))


async def test_the_bots_last_turn_is_in_sight_at_80x24():
    app = make_app(seats=("greedy", "human"), seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        line = app.game_screen.query_one("#lastturn", Static)
        text = shown(line)
        assert text.startswith("Greedy bot's turn: played "), text
        assert "captured" in text
        assert line.region.bottom <= 24 and line.region.width


#: The longest turn the engine makes: a play that captures nothing, a second chance that
#: captures, a rainbow, two spirits drawn (one the Evil Spirit, held), the Frog kept and
#: placed, an effect, then the refills.
def longest_turn() -> list:
    c = parse_cell
    return [TurnBegan(1, 14, False), Played(1, c("1-10")), Discarded(1, c("1-10")),
            SecondChance(1, c("2-5")), Captured(1, c("2-5"), c("2-8")),
            RainbowPlaced(1, c("4-7")), SpiritsDrawn(1, (Spirit.FROG, Spirit.EVIL)),
            EvilKept(1), Kept(1, Spirit.FROG), SpiritPlaced(1, Spirit.FROG, c("3-3")),
            EagleDrew(1, c("5-5")), Flipped(c("6-5")), Drew(1, None)]


async def test_the_longest_bot_turn_is_whole_on_screen_at_80x24(monkeypatch):
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = app.game_screen
        name_of = {0: "You", 1: "Expert bot"}.__getitem__
        summary = turn_summary(longest_turn(), name_of, other=1)
        monkeypatch.setattr(screen.play.log, "last_turn", lambda: summary)
        screen.redraw()
        await pilot.pause()
        line = screen.query_one("#lastturn", Static)
        text = shown(line)
        assert " ".join(summary.split()) == " ".join(text.split()), text
        for words in ("1-10", "second chance", "2-5", "2-8", "rainbow on 4-7", "Frog",
                      "Evil Spirit", "3-3", "Eagle: 5-5"):
            assert words.lower() in text.lower(), words
        assert line.region.height >= 3 and line.region.bottom <= 23  # the prompt stays
        assert "…" not in text

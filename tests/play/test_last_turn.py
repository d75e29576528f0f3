"""The other player's turn stays in sight: the summary says what they played, captured and
took, however many refill lines the log has added since, in the log's own words, and a bot
paused mid-turn shows the tile it has played."""

from __future__ import annotations

from solstis_tui.core import MoveKind, Spirit, cell_name
from solstis_tui.core.events import (
    Captured,
    Drew,
    Flipped,
    Kept,
    Played,
    SpiritPlaced,
    SpiritsDrawn,
    ToLine,
    TurnBegan,
)
from solstis_tui.local.seats import PERSON
from solstis_tui.words.narrate import narrate, turn_summary

from .test_controller import controller, person_to_play


def test_after_the_bots_turn_its_tile_and_capture_are_in_one_line() -> None:
    play, port, _ = controller(seats=("greedy", PERSON), seed=5, pace=0.0)
    person_to_play(play, port)
    moves = [m for p, m, _ in play.session.game.history if p == 0]
    played = next(m.arg for m in moves if m.kind is MoveKind.PLAY)
    line = play.log.last_turn()
    assert line.startswith("Greedy bot's turn: ")
    assert f"played {cell_name(played)}" in line
    captured = [e.target for e in play.session.game.log if isinstance(e, Captured)
                and e.player == 0]
    assert all(f"captured {cell_name(t)}" in line for t in captured)
    assert port.logged[-1].startswith("— turn"), "the log's last lines are no longer it"


def test_a_bot_paused_mid_turn_shows_the_tile_it_played() -> None:
    for seed in range(1, 60):
        play, port, _ = controller(seats=("random", PERSON), seed=seed, pace=0.0)
        token, obs = port.thinking[-1]
        move = play.session.bot(0).choose(obs)
        play.turns.done(token, move)
        if play.session.human_to_play:
            continue  # the turn ended at once: try a deal with a capture to choose
        play.pause()
        play.advance()
        line = play.log.last_turn()
        assert line.startswith(f"Random bot's turn: played {cell_name(move.arg)}"), line
        return
    raise AssertionError("no deal where the bot had a capture to choose")


def test_a_turn_with_a_spirit_tells_the_spirit_and_its_square_in_brief() -> None:
    events = [TurnBegan(1, 7, False), Played(1, 5), Captured(1, 5, 6),
              SpiritsDrawn(1, (Spirit(1), Spirit(2))), ToLine(Spirit(2)), Kept(1, Spirit(1)),
              SpiritPlaced(1, Spirit(1), 3), Flipped(9), Drew(1, None), TurnBegan(0, 8, False)]
    name_of = {0: "You", 1: "Ann"}.__getitem__
    line = turn_summary(events, name_of, other=1)
    assert line.startswith("Ann's turn: played ")
    assert f"kept the {Spirit(1).title}" in line and f"{Spirit(1).title} on square" in line
    assert "drew a tile" not in line and "face up" not in line
    assert line.count("Ann") == 1  # named once, in front
    assert "goes to the line" not in narrate(events[1:7], name_of)[-1]  # the log says more

"""Pause really pauses: a bot's move found while paused is not shown until the person
resumes (p) or steps (.)."""

from __future__ import annotations

from solstis_tui.local.seats import PERSON

from .test_controller import controller


def decisions(play) -> int:  # type: ignore[no-untyped-def]
    """Decisions made so far (a move with one legal option is applied on its own)."""
    return sum(1 for _, _, automatic in play.session.game.history if not automatic)


def test_a_move_found_after_p_waits_for_the_person_to_resume() -> None:
    play, port, _ = controller(seats=("random", PERSON), pace=0.0)
    token, obs = port.thinking[-1]
    play.pause()  # while the bot thinks
    play.turns.done(token, play.session.bot(0).choose(obs))
    assert not play.session.game.history, "the bot's move landed while paused"
    assert play.prompt().headline.startswith("Paused")
    play.pause()
    assert play.session.game.history, "resuming shows the move that was held"
    assert not play.turns.pacing.paused


def test_a_move_held_by_the_pace_waits_too() -> None:
    play, port, _ = controller(seats=("random", PERSON), pace=0.5)
    token, obs = port.thinking[-1]
    play.turns.done(token, play.session.bot(0).choose(obs))  # held for the pace
    play.pause()
    port.timers[-1].callback()  # the pace is over
    assert not play.session.game.history
    play.step()
    assert decisions(play) == 1, "a step shows the held move, and only it"


def test_resuming_during_the_search_does_not_start_it_again() -> None:
    play, port, _ = controller(seats=("random", PERSON), pace=0.0)
    token, obs = port.thinking[-1]
    play.pause()
    play.pause()
    assert len(port.thinking) == 1 and play.turns.pacing.token == token
    play.turns.done(token, play.session.bot(0).choose(obs))
    assert play.session.game.history


def test_a_step_during_the_search_shows_its_move_when_found() -> None:
    play, port, _ = controller(seats=("random", "random"), pace=0.0)
    token, obs = port.thinking[-1]
    play.pause()
    play.step()
    play.turns.done(token, play.session.bot(obs.player).choose(obs))
    assert decisions(play) == 1
    assert len(port.thinking) == 1, "paused again after the one step"

"""Hints ask the judge: the hint names the judge's best move, says in game terms why it
beats the next best, selects it, and stops when the game moves on."""

from __future__ import annotations

import threading

from solstis_tui.ai.base import Cancelled
from solstis_tui.coach.analysis import TINY, Effort, signed
from solstis_tui.coach.hints import answer
from solstis_tui.coach.reasons import explain
from solstis_tui.core import Game, Options
from solstis_tui.local.bot_process import BotProcess
from solstis_tui.local.seats import PERSON
from solstis_tui.words.moves import describe_move

from .test_controller import controller, person_to_play

NAMES = ("You", "Random")


def test_a_hint_names_the_judges_best_move_and_why_in_game_terms_and_selects_it() -> None:
    play, port, _ = controller(seats=(PERSON, "random"), seed=5)
    person_to_play(play, port)
    play.hint()
    token, obs = port.hints[-1]
    assert obs.player == play.obs.to_play and obs.legal_moves  # the deciding seat's view
    names = (play.session.name(0), play.session.name(1))
    found = answer(obs, names, TINY)
    play.hint_ready(token, obs, found)
    (best, margin, _), (second, margin2, _) = found.judged[0], found.judged[1]
    hint = play.prompt().hint
    words = explain(obs, second, best, names, best_as="it")
    assert hint.startswith(f"Hint: {describe_move(best)} — it ")
    assert words[1:] in hint and describe_move(second)[1:] in hint
    assert f"{signed(margin)}★ vs {signed(margin2)}★" in hint
    view = play.board()
    assert view.items[play.choice.selected].move == best == play.hint_move


def test_a_hint_for_a_position_the_game_has_left_is_not_shown() -> None:
    play, port, _ = controller(seats=(PERSON, "random"), seed=5)
    person_to_play(play, port)
    play.hint()
    token, obs = port.hints[-1]
    play.turns.stop()  # what a new game, an undo or a closed screen does
    play.hint_ready(token, obs, answer(obs, ("You", "Random"), TINY))
    assert play.hint_move is None and not play.prompt().hint.startswith("Hint: play")


def test_the_hint_process_stops_judging_when_the_game_moves_on() -> None:
    """A judgement far too long to finish stops soon after its cancel is set (the screen
    sets it when the game changes): the hint's process is free for the next request."""
    game = Game.new(seed=2, options=Options())
    obs = game.observation(game.to_play)
    bot = BotProcess("random", 1, solo=True)
    cancel = threading.Event()
    outcome: list[object] = []

    def ask() -> None:
        try:
            outcome.append(bot.judge(obs, NAMES, Effort(10**9, 30, 10**6), cancel))
        except Cancelled as exc:
            outcome.append(exc)

    asker = threading.Thread(target=ask)
    try:
        asker.start()
        threading.Timer(0.3, cancel.set).start()
        asker.join(120)  # a guard: it answers within milliseconds of the cancel
        assert not asker.is_alive() and isinstance(outcome[0], Cancelled)
        again = bot.judge(obs, NAMES, TINY, threading.Event())  # the process still serves
        assert {mv for mv, _, _ in again.judged} == set(obs.legal_moves)
        assert again.text.startswith("Hint: ")
    finally:
        cancel.set()
        bot.close()


def test_a_hint_is_the_same_whatever_the_hidden_tiles_and_spirits_are() -> None:
    """Two games that differ only in what the deciding seat cannot see (the other hand,
    the pile, the face-down tiles, the spirit pile) get the same hint, word for word."""
    import random

    from solstis_tui.core import Dealer

    game = Game.new(seed=6, options=Options(firefly=True))
    rand = random.Random(0)
    for _ in range(30):
        game.play(rand.choice(game.legal_moves()))
    while len(game.legal) < 2:
        game.play(game.legal_moves()[0])
    obs = game.observation(game.to_play)
    other = Dealer(obs).deal(random.Random(99))
    assert other.hands[1 - obs.player] != game.hands[1 - obs.player]
    again = other.observation(obs.player)
    assert answer(again, NAMES, TINY) == answer(obs, NAMES, TINY)

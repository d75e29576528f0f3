"""The play controller without a screen: a person's picks, confirmations, take-backs, undo,
hints and clicks, and the bots' pacing, checked through a port that records what the
controller asks of its screen (milliseconds a test, no Textual)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from solstis_tui.coach.hints import Answer
from solstis_tui.core import Decision, Move, MoveKind, Observation
from solstis_tui.local.seats import PERSON
from solstis_tui.local.session import Session, Setup
from solstis_tui.play.controller import PlayController
from solstis_tui.play.zones import Zone


class Timer:
    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback, self.stopped = callback, False

    def stop(self) -> None:
        self.stopped = True


class Port:
    """Records what the controller asks of its screen."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.thinking: list[tuple[int, Observation]] = []
        self.timers: list[Timer] = []
        self.hints: list[tuple[int, Observation]] = []
        self.logged: list[str] = []
        self.passes: list[str] = []
        self.errors: list[str] = []

    def redraw(self) -> None:
        self.calls.append("redraw")

    def redraw_prompt(self) -> None:
        self.calls.append("prompt")

    def log_lines(self, lines: list[str], reset: bool) -> None:
        if reset:
            self.logged.clear()
        self.logged.extend(lines)

    def save(self) -> None:
        self.calls.append("save")

    def game_over(self, obs: Observation) -> None:
        self.calls.append("over")

    def pass_keyboard(self, name: str) -> None:
        self.passes.append(name)

    def think(self, token: int, bot: Any, obs: Observation, cancel: threading.Event) -> None:
        self.thinking.append((token, obs))

    def find_hint(self, token: int, obs: Observation, cancel: threading.Event) -> None:
        self.hints.append((token, obs))

    def later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(callback)
        self.timers.append(timer)
        return timer

    def bot_error(self, message: str, fallback: str) -> None:
        self.errors.append(message)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def controller(seats: tuple[str, str] = (PERSON, "random"), seed: int = 11,
               pace: float = 0.5) -> tuple[PlayController, Port, Clock]:
    port, clock = Port(), Clock()
    play = PlayController(Session(Setup(seed=seed, seats=seats)), port, pace, clock=clock)
    play.advance()
    play.board()
    return play, port, clock


def person_to_play(play: PlayController, port: Port) -> None:
    """Let the bots answer at once until the person decides."""
    for _ in range(50):
        if play.session.human_to_play:
            play.board()
            return
        token, obs = port.thinking[-1]
        bot = play.session.bot(obs.player)
        play.turns.done(token, bot.choose(obs))
        for timer in port.timers:
            if not timer.stopped:
                timer.stopped = True
                timer.callback()
    raise AssertionError("the person never got to decide")


def test_a_digit_picks_a_hand_tile_and_enter_plays_it() -> None:
    play, port, _ = controller(seats=(PERSON, PERSON))
    play.passed()
    view = play.board()
    assert view.zone is Zone.HAND and len(view.items) == 3
    play.pick(2)
    tile = view.items[1].value
    play.confirm()
    assert play.session.game.history[0][1] == Move(MoveKind.PLAY, tile)
    assert "save" in port.calls


def test_a_choice_that_is_not_there_is_refused_and_nothing_changes() -> None:
    play, _, _ = controller(seats=(PERSON, PERSON))
    play.passed()
    play.board()
    before = play.choice.selected
    play.pick(9)
    assert play.error == "there is no choice 9 here" and play.choice.selected == before
    play.pile(0)
    assert play.error == "piles are picked only to capture or for the Beetle"
    assert not play.session.game.history


def find_capture(seed_from: int = 1) -> tuple[PlayController, Port]:
    """A hot-seat game whose first player can play a tile that captures from two piles
    (with one, the capture is made at once)."""
    for seed in range(seed_from, seed_from + 200):
        play, port, _ = controller(seats=(PERSON, PERSON), seed=seed)
        play.passed()
        view = play.board()
        for number in range(1, len(view.items) + 1):
            play.pick(number)
            if len(play.board().capturable) >= 2:
                return play, port
    raise AssertionError("no capture found")


def test_esc_takes_a_capturing_tile_back_to_the_hand() -> None:
    play, _ = find_capture()
    hand = play.obs.hand
    play.confirm()
    assert play.obs.decision is Decision.CAPTURE
    play.back()
    assert play.obs.hand == hand and play.obs.decision is Decision.PLAY
    assert play.prompt().detail == "the tile is back in your hand"


def test_undo_goes_back_to_before_the_persons_last_decision() -> None:
    play, port, _ = controller()
    person_to_play(play, port)
    play.undo()
    assert play.error == "there is no decision of yours to take back"
    before = play.session.game.to_json()
    play.confirm()
    person_to_play(play, port)
    assert play.session.game.to_json() != before
    play.undo()
    assert play.session.game.to_json() == before
    assert "took back your last decision" in play.prompt().detail


def test_undo_is_refused_in_hot_seat() -> None:
    play, _, _ = controller(seats=(PERSON, PERSON))
    play.passed()
    play.board()
    play.confirm()
    play.undo()
    assert play.error == "undo is for games against bots"


def test_hints_are_refused_in_hot_seat_and_when_watching() -> None:
    for seats in ((PERSON, PERSON), ("random", "random")):
        play, port, _ = controller(seats=seats)
        if play.session.is_hotseat:
            play.passed()
        play.board()
        play.hint()
        assert play.error == "hints are for a person playing against bots"
        assert not port.hints and not play.hint_offered()


def test_a_bots_move_waits_out_the_pace_and_space_shows_it_at_once() -> None:
    play, port, clock = controller(seats=("random", PERSON))
    token, obs = port.thinking[-1]
    assert obs.player == 0 and play.turns.pacing.thinking_since is not None
    clock.now += 0.1
    play.turns.done(token, play.session.bot(0).choose(obs))
    assert len(port.timers) == 1 and not play.session.game.history  # held for the pace
    play.turns.skip()
    assert port.timers[0].stopped and play.session.game.history


def test_an_answer_from_a_cancelled_search_is_ignored() -> None:
    play, port, _ = controller(seats=("random", PERSON))
    token, obs = port.thinking[-1]
    play.turns.stop()
    play.turns.done(token, obs.legal_moves[0])
    assert not play.session.game.history and not port.timers


def test_pause_holds_the_bot_and_a_step_makes_one_decision() -> None:
    play, port, _ = controller(seats=("random", "random"))
    port.thinking.clear()
    play.turns.stop()
    play.pause()
    play.advance()
    assert not port.thinking and play.prompt().headline.startswith("Paused")
    play.step()
    assert len(port.thinking) == 1


def test_hot_seat_passes_the_keyboard_and_hides_the_hands_between_turns() -> None:
    play, port, _ = controller(seats=(PERSON, PERSON))
    assert port.passes == ["Player 1"] and play.hands_hidden
    assert play.prompt().headline == "Pass the keyboard to Player 1."
    play.passed()
    assert not play.hands_hidden and play.board().zone is Zone.HAND


def test_a_hint_picks_its_move_unless_the_person_picked_since() -> None:
    play, port, _ = controller(seats=(PERSON, "random"))
    person_to_play(play, port)
    view = play.board()
    play.hint()
    assert play.prompt().hint == "Hint: thinking…"
    token, obs = port.hints[-1]
    found = Answer([(view.items[2].move, 1.0, 0.6), (view.items[0].move, 0.0, 0.5)],
                   "Hint: play it")
    play.hint_ready(token, obs, found)
    assert play.choice.selected == 2 and play.prompt().hint.startswith("Hint: play")
    play.hint()
    play.pick(1)
    play.hint_ready(port.hints[-1][0], obs, found)
    assert play.choice.selected == 0, "the person's own pick stays"


def test_a_second_click_on_the_same_tile_plays_it() -> None:
    play, _, _ = controller(seats=(PERSON, PERSON))
    play.passed()
    play.board()
    play.click("item", "hand", 1)
    assert play.choice.selected == 1 and not play.session.game.history
    play.click("item", "display", 0)
    assert play.error == "piles are picked only to capture or for the Beetle"
    play.click("item", "hand", 1)
    assert play.session.game.history


@pytest.mark.parametrize("seats", [(PERSON, "random"), ("random", "random")])
def test_a_whole_game_plays_to_the_end_and_shows_the_score_sheet(seats: tuple[str, str]
                                                                  ) -> None:
    play, port, _ = controller(seats=seats, pace=0.0)
    for _ in range(400):
        if play.obs.is_over:
            break
        if play.session.human_to_play:
            play.board()  # as the screen draws before each key
            play.confirm()
            continue
        person_to_play_or_end(play, port)
    assert play.obs.is_over and port.calls.count("over") == 1
    assert play.prompt().headline.startswith("Game over")
    assert port.logged and not port.errors


def person_to_play_or_end(play: PlayController, port: Port) -> None:
    token, obs = port.thinking[-1]
    play.turns.done(token, play.session.bot(obs.player).choose(obs))


def test_a_hint_whose_bot_failed_says_so_and_recommends_nothing() -> None:
    play, port, _ = controller(seats=(PERSON, "random"))
    person_to_play(play, port)
    before = play.choice.selected
    play.hint()
    token, _obs = port.hints[-1]
    play.hint_failed(token, "the bot's process stopped")
    prompt = play.prompt()
    assert prompt.error == "no hint: the hint bot failed (the bot's process stopped)"
    assert not prompt.hint and play.hint_move is None and play.choice.selected == before


def test_hot_seat_games_meet_every_decision_kind_through_the_controllers_intents() -> None:
    """Every kind of decision can be made with the moves a key makes: the next target
    (Tab), then Enter; the hands are hidden until the keyboard is passed."""
    import random

    from tests.tui.coverage_scan import covering_games

    seen: set[Decision] = set()
    for variant, seed in covering_games(rng_seed=1):
        port = Port()
        play = PlayController(Session(Setup(variant=variant, seed=seed, seats=(PERSON, PERSON))),
                              port, 0.0, clock=Clock())
        play.advance()
        rng = random.Random(1)  # as coverage_scan's driver chose
        for _ in range(600):
            if play.obs.is_over:
                break
            if play.hands_hidden:
                play.passed()
            view = play.board()
            seen.add(play.obs.decision)
            before = len(play.session.game.history)
            cells = play.zone in (Zone.MINE, Zone.THEIRS)
            choices = sorted(view.targets) if cells else [
                i for i, item in enumerate(view.items) if item.legal]
            wanted = rng.choice(choices)
            for _ in range(len(view.items) + len(choices)):
                if (play.choice.cursor if cells else play.choice.selected) == wanted:
                    break
                play.next_target(1)
            play.confirm()
            assert len(play.session.game.history) > before, play.error
        assert play.obs.is_over and port.calls.count("over") == 1  # the score sheet
    assert seen == set(Decision)


def test_a_wait_refusal_goes_when_the_decision_comes_back() -> None:
    """Online the host's new state arrives through ``advance`` (``host_update``), not
    ``after_move``: "wait: it is X's decision" stayed on screen after the turn came back."""
    play, _, _ = controller(seats=("random", PERSON))
    play.pick(1)
    assert play.error == "wait: it is Random bot's decision"
    play.turns.stop()
    while not play.session.human_to_play:
        obs = play.session.observation(play.session.game.to_play)
        play.session.apply(play.session.bot(obs.player).choose(obs))
    play.advance()
    assert play.error == "" and "wait" not in play.prompt().error


def test_the_top_bar_names_the_players_in_the_panoramas_order() -> None:
    """Hot-seat: the left panorama is the player shown; the title said 'Player 1 vs
    Player 2' whoever it was."""
    play, port, _ = controller(seats=(PERSON, PERSON))
    play.passed()
    play.board()
    assert play.viewer() == 0 and " · Player 1 vs Player 2 · hot-seat" in play.top_bar()
    while play.session.game.to_play == 0:
        play.board()
        play.confirm()
    play.passed()
    assert play.viewer() == 1 and " · Player 2 vs Player 1 · hot-seat" in play.top_bar()
    assert port.passes == ["Player 1", "Player 2"]


def controller_state(play: PlayController) -> dict[str, object]:
    """Everything the controller holds, its caches of what was drawn left out."""
    return {k: v for k, v in vars(play).items() if k not in ("_frame", "_log")}


def draw_everything(play: PlayController) -> None:
    """Every drawing function a screen calls."""
    play.board()
    play.board(ascii_mode=True)
    play.prompt()
    play.top_bar()
    play.log.last_turn()
    play.zone_keys()
    play.frames.frame()
    play.log.events()
    _ = (play.obs, play.zone, play.hands_hidden, play.undo_offered,
         play.hint_offered)


def test_drawing_never_changes_the_controllers_state() -> None:
    """Drawing is pure: whenever the game changes (here from outside the controller, as a
    host's state arrives), the controller has already reset its choice when the session
    said so; drawing everything, twice, then leaves its whole state as it was."""
    import random

    play, _port, _ = controller(seats=(PERSON, PERSON), pace=0.0)
    play.passed()
    session = play.session
    rand = random.Random(5)
    checked = 0
    while not session.game.is_over and checked < 120:
        session.apply(rand.choice(session.game.legal_moves()))  # not through the controller
        before = controller_state(play)
        draw_everything(play)
        draw_everything(play)
        assert controller_state(play) == before
        _obs, made = play.frames.frame()
        if made.items:  # a new decision starts at its first legal choice
            assert play.choice.selected == next(i for i, it in enumerate(made.items) if it.legal)
        checked += 1
    assert checked > 40

"""Screens draw from an observation through ``SessionView``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from solstis_tui.client import remote
from solstis_tui.client.remote import RemoteSession
from solstis_tui.core import Game, IllegalMove, Move, MoveKind, Options
from solstis_tui.core.events import Drew
from solstis_tui.core.observation_json import observation_to_dict
from solstis_tui.local.session import Session, Setup
from solstis_tui.play.session_view import SessionView, scores_of

from .conftest import make_app, settle


def random_positions(count: int, seed: int = 5):
    """Games of every variant at random points of play (finished ones included)."""
    rng = random.Random(seed)
    for i in range(count):
        variant = ("base", "beginner", "firefly")[i % 3]
        seed, options = rng.randrange(10**6), Options.for_variant(variant)
        game, moves = Game.new(seed=seed, options=options), []
        while not game.is_over:
            moves.append(rng.choice(game.legal_moves()))
            game.play(moves[-1])
        game = Game.new(seed=seed, options=options)
        for move in moves[:rng.randrange(len(moves) + 1)]:
            game.play(move)
        yield game


def remote_at(game: Game, seat: int | None, sent: list) -> RemoteSession:
    """A client's session fed the host's state of ``game`` for ``seat`` (None: watcher)."""
    session = RemoteSession("t1", lambda move, seq: sent.append((move, seq)))
    obs = game.observation(0, spectator=True) if seat is None else game.observation(seat)
    session.update({"seat": seat, "observation": observation_to_dict(obs),
                    "seats": [{"name": "Ann", "connected": True},
                              {"name": "Bob", "connected": True}]})
    return session


def test_both_sessions_are_session_views():
    assert isinstance(Session(Setup()), SessionView)
    assert isinstance(RemoteSession("t1", lambda move, seq: None), SessionView)


def test_the_remote_session_holds_no_made_up_game():
    session = remote_at(Game.new(seed=3, options=Options()), 0, [])
    assert not hasattr(session, "game")
    assert "determinize" not in Path(remote.__file__).read_text(encoding="utf-8")
    with pytest.raises(LookupError):
        session.observation(1)  # the other seat's view is not here to be had


def test_scores_from_the_observation_match_the_engine():
    for game in random_positions(60):
        for seat in (0, 1):
            obs = game.observation(seat)
            assert scores_of(obs) == (game.score(0), game.score(1))


def candidate_moves() -> list[Move]:
    """Every move a key or click could make, legal or not."""
    return [Move(kind, arg) for kind in MoveKind for arg in range(-1, 40)]


def test_a_remote_illegal_move_is_explained_in_the_engines_words():
    checked = 0
    for game in random_positions(120, seed=8):
        if game.is_over:
            continue
        sent: list = []
        session = remote_at(game, game.to_play, sent)
        legal = set(game.legal_moves())
        for move in candidate_moves():
            if move in legal:
                continue
            try:
                game.copy().play(move)
            except IllegalMove as exc:
                engine = str(exc)
            except (ValueError, IndexError, KeyError):
                continue  # not a move the engine can name (an argument out of range)
            with pytest.raises(IllegalMove) as caught:
                session.apply(move)
            assert str(caught.value) == engine, move
            checked += 1
        assert sent == []
        move = game.legal_moves()[0]
        session.apply(move)
        assert sent == [(move, len(game.history))]
    assert checked > 1000


def test_a_remote_session_waits_out_the_other_turn_and_watchers():
    game = Game.new(seed=4, options=Options())
    other = remote_at(game, 1 - game.to_play, [])
    with pytest.raises(IllegalMove, match="not your decision"):
        other.apply(game.legal_moves()[0])
    watcher = remote_at(game, None, [])
    assert watcher.observation(0).hand == () and not watcher.human_to_play


def test_the_remote_log_is_the_observations_log():
    game = next(g for g in random_positions(20, seed=2)
                if any(isinstance(e, Drew) and e.player == 1 for e in g.log))
    session = remote_at(game, 0, [])
    assert session.shown_log(0) == game.observation(0).log
    assert all(e.tile is None for e in session.shown_log(0)
               if isinstance(e, Drew) and e.player == 1)


async def test_watch_mode_shows_both_hands():
    app = make_app(seats=("random", "random"), seed=4, pace=0.0)
    async with app.run_test() as pilot:
        await pilot.press("p")
        await settle(pilot, app)
        gs = app.game_screen
        view = gs.play.board()
        game = gs.session.game
        assert view.my_hand == tuple(game.hands[0])
        assert view.their_hand == tuple(game.hands[1])


async def test_hot_seat_hides_the_hand_while_the_keyboard_passes():
    from solstis_tui.screens.passkb import PassScreen
    from solstis_tui.widgets.hand import HandBar

    app = make_app(seats=("human", "human"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, PassScreen)
        hand = app.game_screen.query_one("#hand", HandBar)
        assert "Hand hidden" in str(hand.render())
        await pilot.press("s")
        await pilot.pause()
        assert "Hand hidden" not in str(hand.render())


async def test_hot_seat_a_double_enter_after_a_move_never_shows_the_next_players_hand():
    """The player who just moved presses Enter once too often (or types ahead): the
    hand-over screen stays, the next hand stays hidden, until the deliberate key."""
    from solstis_tui.screens.passkb import PassScreen
    from solstis_tui.widgets.hand import HandBar

    from .conftest import keys_for

    app = make_app(seats=("human", "human"), seed=3)
    rng = random.Random(2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("enter", "enter")  # the very first hand-over, too
        await settle(pilot, app)
        assert isinstance(app.screen, PassScreen)
        await pilot.press("s")
        await settle(pilot, app)
        gs = app.game_screen
        hand = gs.query_one("#hand", HandBar)
        first = gs.session.game.to_play
        while gs.session.game.to_play == first:  # the first player's whole turn, by keys
            assert app.screen is gs
            await pilot.press(*keys_for(gs, rng), "enter", "enter")
            await settle(pilot, app)
        assert isinstance(app.screen, PassScreen)
        assert "Hand hidden" in str(hand.render())
        assert "Enter does not show the hand" in str(app.screen.query_one("Static").render())
        await pilot.press("s")
        await settle(pilot, app)
        assert app.screen is gs and "Hand hidden" not in str(hand.render())

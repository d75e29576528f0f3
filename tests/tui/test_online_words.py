"""What the online table says about the other seat is true: an empty seat is waited for
("waiting for someone to join"), a player in the lobby went back to it, only a player whose
connection is gone lost it, and the top bar does not name a player who is not there."""

from __future__ import annotations

from solstis_tui.client.remote import RemoteSession
from solstis_tui.core import EndReason, Game, Options
from solstis_tui.core.observation_json import observation_to_dict
from solstis_tui.play.online import OnlineController
from tests.play.test_controller import Port


def table(seats: list[dict], seat: int = 1, game: Game | None = None) -> OnlineController:
    game = game or Game.new(seed=3, options=Options())
    session = RemoteSession("t1", lambda move, seq: None)
    session.update({"seat": seat, "observation": observation_to_dict(game.observation(seat)),
                    "seats": seats})
    play = OnlineController(session, Port())
    play.board()
    return play


def test_an_empty_seat_is_waited_for_not_reported_lost():
    play = table([{"connected": False}, {"name": "Ann", "connected": True}])
    prompt = play.prompt()
    assert prompt.headline == "Waiting for someone to join the table"
    assert "connection" not in prompt.detail and "Player 1" not in prompt.headline
    assert "You vs (empty seat)" in play.top_bar() and "Player 1" not in play.top_bar()


def test_a_player_who_went_back_to_the_lobby_is_not_said_to_have_lost_the_connection():
    play = table([{"name": "Bob", "connected": False, "in_lobby": True},
                  {"name": "Ann", "connected": True}])
    prompt = play.prompt()
    assert prompt.headline.startswith("Waiting for Bob")
    assert "Bob went back to the lobby" in prompt.detail and "lost" not in prompt.detail


def test_a_player_whose_connection_is_gone_is_said_to_have_lost_it():
    play = table([{"name": "Bob", "connected": False, "in_lobby": False},
                  {"name": "Ann", "connected": True}])
    assert "Bob lost the connection" in play.prompt().detail


def test_a_resigned_game_says_who_resigned_and_who_wins():
    game = Game.new(seed=3, options=Options())
    game.end(EndReason.RESIGNED, loser=0)  # as the host ends it when seat 0 resigns
    play = table([{"name": "Bob", "connected": True}, {"name": "Ann", "connected": True}],
                 game=game)
    assert play.prompt().headline == "Game over: Bob resigned, so you win."
    assert "could capture" not in play.prompt().headline


def test_the_waiting_player_is_told_how_to_resign_and_a_watcher_is_not():
    seats = [{"name": "Bob", "connected": True}, {"name": "Ann", "connected": True}]
    assert "x resign" in table(seats).prompt().detail  # Bob, at seat 0, is to decide
    assert "x resign" not in table([{"connected": False}, seats[1]]).prompt().detail
    game = Game.new(seed=3, options=Options())
    session = RemoteSession("t1", lambda move, seq: None)
    session.update({"seat": None, "seats": seats,
                    "observation": observation_to_dict(game.observation(0, spectator=True))})
    watcher = OnlineController(session, Port())
    watcher.board()
    assert watcher.prompt().headline.startswith("Watching: Bob")
    assert "x resign" not in watcher.prompt().detail


def test_a_game_lost_on_time_says_who_ran_out_of_time():
    game = Game.new(seed=3, options=Options())
    game.end(EndReason.TIME, loser=1)  # seat 1 ran out of time and seat 0 claimed
    play = table([{"name": "Bob", "connected": True}, {"name": "Ann", "connected": True}],
                 game=game)
    assert play.prompt().headline == "Game over: You ran out of time, so Bob wins."


def _state(session: RemoteSession, game: Game, seats: list[dict], seat: int = 1) -> None:
    session.update({"seat": seat, "observation": observation_to_dict(game.observation(seat)),
                    "seats": seats})


def test_a_refused_claims_error_goes_once_the_game_moves_on():
    game = Game.new(seed=3, options=Options())
    seats = [{"name": "Bob", "connected": True}, {"name": "Ann", "connected": True}]
    play = table(seats, game=game)
    play.say_error("✗ the other player has 21 seconds left")
    _state(play.session, game, seats)  # a state with no move: still true
    play.host_update()
    assert play.prompt().error.endswith("21 seconds left")
    game.play(game.legal_moves()[0])  # Bob moves
    _state(play.session, game, seats)
    play.host_update()
    assert play.prompt().error == ""


def test_the_log_names_the_player_who_joined_not_an_empty_seat():
    game = Game.new(seed=3, options=Options())
    ann = {"name": "Ann", "connected": True}
    play = table([{"connected": False}, ann], game=game)
    play.host_update()
    assert any("(empty seat)" in line for line in play.port.logged)
    _state(play.session, game, [{"name": "Bob", "connected": True}, ann])
    play.host_update()
    assert not any("(empty seat)" in line for line in play.port.logged)
    assert any("turn 1: Bob" in line for line in play.port.logged)

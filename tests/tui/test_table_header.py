"""The top line of a table at the host: the move clock counts down between the host's
states and says when the waiting player may claim; a rated table shows each player's
rating, and the line fits 80 columns with the longest names. Leaving for good asks a
question that says what it will do. (The time here is the test's own, not the wall's.)"""

from __future__ import annotations

from solstis_tui.client.remote import RemoteSession
from solstis_tui.core import EndReason, Game, Options
from solstis_tui.core.observation_json import observation_to_dict
from solstis_tui.play.online import BAR_WIDTH, OnlineController
from solstis_tui.play.table_header import minutes_seconds
from tests.play.test_controller import Port

LONG = "Bartholomew Quinnsworthy"  # 24 characters: the longest name the host gives
OTHER = "Maximiliana Featherstone"
PEOPLE = [{"name": "Bob", "connected": True}, {"name": "Ann", "connected": True}]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def table(seats: list[dict], seat: int | None = 1, time_left: int | None = 45,
          rated: bool = False, game: Game | None = None,
          clock: Clock | None = None, counts: bool | None = None,
          bank_left: list[int] | None = None) -> OnlineController:
    """Seat 0 decides first; the viewer sits at ``seat`` (None: a watcher)."""
    game = game or Game.new(seed=3, options=Options())
    session = RemoteSession("t1", lambda move, seq: None, clock=clock or Clock())
    obs = game.observation(seat) if seat is not None else game.observation(0, spectator=True)
    session.update({"seat": seat, "observation": observation_to_dict(obs), "seats": seats,
                    "time_left": time_left, "rated": rated,
                    "counts": rated if counts is None else counts, "bank_left": bank_left})
    play = OnlineController(session, Port())
    play.board()
    return play


def test_the_clock_counts_down_between_states_and_tells_the_waiting_player_to_claim():
    clock = Clock()
    play = table(PEOPLE, clock=clock)  # Ann waits while Bob decides
    face = play.move_clock()
    assert face is not None and (face.text, face.urgent) == ("their clock 0:45", False)
    assert play.prompt().detail.startswith("o claim on time")
    clock.now += 10.5  # no state came from the host: counted down here
    assert play.move_clock().text == "their clock 0:35"
    clock.now += 6
    face = play.move_clock()
    assert (face.text, face.urgent, face.out) == ("their clock 0:29!", True, False)
    clock.now += 29
    face = play.move_clock()
    assert (face.text, face.out) == ("their time is up: o claims", True)
    assert play.prompt().detail.startswith("time is up: o claims the game")


def test_a_new_state_from_the_host_sets_the_clock_again():
    clock = Clock()
    play = table(PEOPLE, clock=clock, time_left=300)
    clock.now += 290
    assert play.move_clock().text == "their clock 0:10!"
    game = Game.new(seed=3, options=Options())
    play.session.update({"seat": 1, "observation": observation_to_dict(game.observation(1)),
                         "seats": PEOPLE, "time_left": 300})
    assert play.move_clock().text == "their clock 5:00"


def test_the_player_to_move_and_a_watcher_see_the_clock_as_theirs_to_read():
    assert table(PEOPLE, seat=0).move_clock().text == "your clock 0:45"
    assert table(PEOPLE, seat=0, time_left=0).move_clock().text == "your time is up: move!"
    assert table(PEOPLE, seat=None).move_clock().text == "clock 0:45"
    assert table(PEOPLE, seat=None, time_left=0).move_clock().text == "time is up"


def test_no_clock_where_nobody_can_run_out_of_time():
    bot = [{"name": "Greedy bot", "bot": "greedy", "connected": True}, PEOPLE[1]]
    assert table(bot).move_clock() is None  # a bot is never out of time
    assert "claim" not in table(bot).prompt().detail
    assert table([{"connected": False}, PEOPLE[1]]).move_clock() is None  # nobody joined
    over = Game.new(seed=3, options=Options())
    over.end(EndReason.RESIGNED, loser=0)
    assert table(PEOPLE, game=over, time_left=12).move_clock() is None


def test_before_both_players_have_decided_the_top_line_says_no_clock_runs():
    waiting = table(PEOPLE, time_left=None)  # the host runs none yet
    face = waiting.move_clock()
    assert face is not None and face.text == "no clock until both have moved"
    assert not face.out and not face.urgent
    assert "claim" not in waiting.prompt().detail


def test_a_rated_table_shows_both_ratings_and_an_unrated_one_none():
    seats = [{**PEOPLE[0], "rating": "1710"}, {**PEOPLE[1], "rating": "1500?"}]
    assert table(seats, rated=True).top_bar().endswith("You 1500? vs Bob 1710")
    assert table(seats, rated=False).top_bar().endswith("You vs Bob")


def test_the_top_line_fits_80_columns_with_the_longest_names_and_the_clock():
    seats = [{"name": LONG, "connected": True, "rating": "1500?"},
             {"name": OTHER, "connected": True, "rating": "1710"}]
    for seat in (0, 1, None):
        for left, bank in ((300, 1200), (12, 1200), (300, 15), (0, 1200)):
            play = table(seats, seat=seat, rated=True, time_left=left, bank_left=[bank] * 2)
            face = play.move_clock()
            text = face.fitting(BAR_WIDTH - 1 - len(play.players_text()))
            bar = play.top_bar(BAR_WIDTH - len(text) - 1)
            assert len(bar) + 1 + len(text) <= BAR_WIDTH, (bar, text)
            if not face.out:  # the time that runs out first is always shown
                assert minutes_seconds(min(left, bank)) in text
            if seat != 0:
                assert f"{LONG} 1500?" in bar
            if seat != 1:
                assert f"{OTHER} 1710" in bar
    roomy = table(PEOPLE, rated=False).top_bar()
    assert roomy.startswith("Solstis · base · table t1 · turn 1")


def test_the_bank_shows_beside_the_move_clock_and_counts_down_with_it():
    clock = Clock()
    play = table(PEOPLE, clock=clock, time_left=300, bank_left=[100, 1200])
    assert play.move_clock().text == "their clock 5:00 · bank 1:40"  # Bob decides: his
    clock.now += 75
    face = play.move_clock()
    assert (face.text, face.urgent) == ("their clock 3:45 · bank 0:25!", True)
    assert face.short == "their clock 0:25!"  # a narrow line keeps the one that ends first
    clock.now += 25  # his bank is empty, whatever the move clock says
    face = play.move_clock()
    assert face.out and face.text == "their time is up: o claims"
    assert "time is up: o claims the game" in play.prompt().detail
    mine = table(PEOPLE, seat=0, time_left=300, bank_left=[1200, 100])
    assert mine.move_clock().text == "your clock 5:00 · bank 20:00"


def test_leaving_for_good_says_what_it_does_and_is_offered_only_where_it_acts():
    playing = table(PEOPLE, rated=True)
    assert playing.leave_for_good_offered()
    assert playing.leave_question() == ("Leave table t1 for good? The game ends now as your "
                                        "loss and counts in your rating.")
    early = table(PEOPLE, rated=True, counts=False)  # too few decisions yet: abandoned
    assert "abandoned, not as a result" in early.leave_question()
    assert "moves no rating" in early.leave_question()
    waiting = table([{"connected": False}, PEOPLE[1]])
    assert waiting.leave_for_good_offered()
    assert "Nobody has joined it yet, so it closes" in waiting.leave_question()
    assert "f give the table up" in waiting.prompt().detail
    watcher = table(PEOPLE, seat=None)
    assert not watcher.leave_for_good_offered()
    assert "a watcher leaves with q" in watcher.why_not_leave_for_good()
    over = Game.new(seed=3, options=Options())
    over.end(EndReason.RESIGNED, loser=0)
    assert not table(PEOPLE, game=over).leave_for_good_offered()

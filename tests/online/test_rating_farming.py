"""Ratings a pair cannot farm (docs/ratings.md): two provisional ratings never rate each
other, the same two people's rated games count three times in 24 hours, both players are
told before they play when a game will be played unrated, and the leaderboard lists only
established players. The host's clock is the test's own."""

from __future__ import annotations

import random
import sqlite3

import pytest

from solstis_tui.host.rating_rules import BOARD_GAMES, PAIR_GAMES_PER_DAY
from solstis_tui.host.ratings import result_of

from .conftest import Clock
from .identities import ANN, BOB, hello, settled
from .states import over, seated, state_where
from .test_host import play_to_end

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")
HOUR = 3600.0


async def quick_rated_game(host, first: dict, second: dict, seed: int,
                           loser: int = 1) -> tuple[dict, dict]:
    """``first`` makes a rated table (seat 0) and ``second`` joins it; they play random
    legal moves until each has made the 5 decisions a game needs to count, then seat
    ``loser`` resigns. The state each saw when both were seated, and the final one."""
    await first["client"].send({"type": "create", "variant": "base", "opponent": "friend",
                                "seat": 0, "rated": True})
    table = (await first["client"].receive_until("joined"))["table"]
    await second["client"].send({"type": "join", "table": table})
    await second["client"].receive_until("joined")
    clients = {0: first["client"], 1: second["client"]}
    told = await played_enough(host, clients, table, seed)
    await clients[loser].send({"type": "resign", "table": table})
    return told, await state_where(clients[1 - loser], table, over)


async def played_enough(host, clients: dict, table: str, seed: int) -> dict:
    """Both play random legal moves at ``table`` until the game would count; the first
    state seat 0 saw with both seated, before any move (what it was told)."""
    seen: list[dict] = []
    await play_to_end(host, clients, table, random.Random(seed),
                      until=lambda state: seen.append(state) or host.tables[table].played())
    return seen[0]


async def board_names(client) -> list[str]:
    await client.send({"type": "leaders"})
    return [row["name"] for row in (await client.receive_until("leaders"))["rows"]]


async def test_two_accomplices_farming_all_day_stay_under_1600_and_off_the_board(keyed):
    """The attack: Ann and Bob, two fresh keys, play quick rated games all day (Bob
    resigns once each has made 5 decisions). No game counts: both ratings are provisional,
    and both are told so before each game."""
    keyed.clock = clock = Clock()
    ann, bob = await hello(keyed, ANN), await hello(keyed, BOB)
    for game in range(8):  # one every three hours: 24 hours of farming
        told, end = await quick_rated_game(keyed, ann, bob, seed=game)
        assert told["unrated"].startswith("both ratings are still provisional (?)")
        assert not told["counts"] and not end["counts"]
        assert [s["change"] for s in end["seats"]] == [
            "not counted: both ratings were provisional (?)"] * 2
        clock.now += 3 * HOUR
    for who in ("key:Ann", "key:Bob"):
        assert keyed.ratings.rating(who).rating <= 1600
        assert keyed.standings.rating_text(who) == "1500?"
    names = await board_names(ann["client"])
    assert "Ann" not in names and "Bob" not in names
    await ann["client"].send({"type": "player"})
    page = await ann["client"].receive_until("player")
    assert page["rating"] == "1500?" and page["games"] == []
    assert page["board"].startswith("Not on the leaderboard yet")
    with sqlite3.connect(keyed.ratings.path) as db:
        assert db.execute("SELECT count(*), sum(rated), sum(counted) FROM results"
                          ).fetchone() == (8, 8, 0)


async def test_an_accomplice_settled_by_quick_games_with_a_bot_lends_one_game_a_day(keyed):
    """Bob first settles his rating with quick games against the random bot (he wins
    every other one: quick play does about that), then Ann beats him all day: while her
    rating is provisional one game a day between them counts, and she stays under 1600,
    off the leaderboard."""
    keyed.clock = clock = Clock()
    for i in range(14):
        keyed.ratings.record_now(result_of(f"quick{i}", ("key:Bob", "bot:random"), i % 2,
                                           finished=clock.now - HOUR + i * 60))
    assert not keyed.ratings.rating("key:Bob").provisional
    ann, bob = await hello(keyed, ANN), await hello(keyed, BOB)
    for game in range(6):  # one every four hours
        told, end = await quick_rated_game(keyed, ann, bob, seed=game)
        if game == 0:
            assert told["unrated"] is None and end["seats"][0]["change"].startswith("+")
        else:
            assert told["unrated"] == ("Ann and Bob have had a rated game count in the last "
                                       "24 hours: one a day counts while either rating is "
                                       "provisional (?)")
        clock.now += 4 * HOUR
    assert keyed.ratings.rating("key:Ann").rating <= 1600
    assert keyed.ratings.rating("key:Ann").provisional
    assert "Ann" not in await board_names(bob["client"])


async def test_the_fourth_game_in_a_day_between_two_people_is_said_unrated_before_it_starts(
        keyed):
    keyed.clock = clock = Clock()
    for who in ("key:Ann", "key:Bob"):  # both settled against the bots: their games count
        settled(keyed, who)
    ann, bob = await hello(keyed, ANN), await hello(keyed, BOB)
    for game in range(PAIR_GAMES_PER_DAY - 1):
        told, end = await quick_rated_game(keyed, ann, bob, seed=game)
        assert told["unrated"] is None and end["seats"][0]["change"].startswith("+")
        clock.now += HOUR
    # Two tables at once: the first is the third game that counts; the second would be a
    # fourth, and both players read so before they play.
    tables = []
    for _ in range(2):
        await ann["client"].send({"type": "create", "opponent": "friend", "seat": 0,
                                  "rated": True})
        tables.append((await ann["client"].receive_until("joined"))["table"])
        await bob["client"].send({"type": "join", "table": tables[-1]})
        await bob["client"].receive_until("joined")
        if len(tables) == 1:
            said = await state_where(bob["client"], tables[0], seated)
            assert said["unrated"] is None and said["rated"]
    before = {who: keyed.ratings.rating(who) for who in ("key:Ann", "key:Bob")}
    said = await played_enough(keyed, {0: ann["client"], 1: bob["client"]}, tables[1], 7)
    assert said["unrated"] == ("Ann and Bob have had 3 rated games count in the last 24 "
                               "hours, the most a day between the same two players")
    assert said["observation"]["history"] == [] and not said["counts"]
    await bob["client"].send({"type": "resign", "table": tables[1]})
    end = await state_where(ann["client"], tables[1], over)
    assert end["seats"][0]["change"] == \
        "not counted: 3 rated games a day between the same two players count"
    assert {who: keyed.ratings.rating(who) for who in before} == before
    clock.now += 24 * HOUR  # a day on: they count again
    told, end = await quick_rated_game(keyed, ann, bob, seed=9)
    assert told["unrated"] is None and end["seats"][0]["change"].startswith("+")


async def test_the_leaderboard_lists_established_players_and_tells_others_what_they_lack(
        keyed):
    keyed.clock = clock = Clock()
    ann, bob = await hello(keyed, ANN), await hello(keyed, BOB)
    board = keyed.standings

    played = iter(range(1000))

    def play(who: str, bots: tuple[str, ...], games: int) -> None:
        for i in range(games):
            keyed.ratings.record_now(result_of(f"g{next(played)}", (who,
                                     f"bot:{bots[i % len(bots)]}"), i % 2, clock.now + i))

    play("key:Ann", ("greedy", "minimax"), BOARD_GAMES + 5)  # two opponents only
    assert "games against 1 more different opponents" in board.board_note("key:Ann")
    assert "Ann" not in await board_names(ann["client"])
    play("key:Ann", ("mcts",), 1)
    assert board.board_note("key:Ann") is None
    assert "Ann" in await board_names(bob["client"])
    play("key:Bob", ("random", "greedy", "minimax"), BOARD_GAMES - 1)  # one game short
    note = board.board_note("key:Bob")
    assert note.endswith("Still needed: 1 more rated games that count; a settled rating "
                         "(deviation 99, under 90 needed).")
    await bob["client"].send({"type": "leaders"})
    mine = await bob["client"].receive_until("leaders")
    assert mine["place"] is None and mine["board"] == note
    clock.now += 31 * 24 * HOUR  # a month without a rated game
    note = board.board_note("key:Ann")
    assert "a rated game that counts in the last 30 days" in note
    assert "Ann" not in await board_names(bob["client"])
    assert all(name.endswith("bot") for name in await board_names(bob["client"]))


def test_the_leaderboard_and_the_player_page_say_why_you_are_not_listed():
    from solstis_tui.client.leaders import board_text
    from solstis_tui.client.player_page import page_text

    why = "Not on the leaderboard yet: ... Still needed: 3 more rated games that count."
    text = board_text({"rows": [], "total": 5, "place": None, "rating": "1662?",
                       "board": why})
    assert "You: 1662? (provisional" in text and why in text
    page = page_text({"name": "Ann", "rating": "1662?", "games": [], "chart": [],
                      "board": why})
    assert "Ann: rating 1662? (provisional" in page and why in page

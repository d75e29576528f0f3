"""The leaderboard: people and bots on one scale, a page at a time, with your place."""

from __future__ import annotations

import pytest

from solstis_tui.client.app import OnlineApp
from solstis_tui.client.leaders import LeadersScreen
from solstis_tui.host.ratings import result_of

from .helpers import assert_shown, until
from .identities import ANN, BOB, STRANGER, hello

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")


async def leaders(client, offset: int = 0) -> dict:
    await client.send({"type": "leaders", "offset": offset})
    return await client.receive_until("leaders")


async def rated_past(keyed, established: bool = False) -> tuple:
    """Ann beat the expert bot twice; Bob lost to the random bot. A guest came too. If
    ``established``, each drew 21 games with three bots first, an hour ago: both are on
    the leaderboard (docs/ratings.md)."""
    ann, bob = await hello(keyed, ANN), await hello(keyed, BOB)
    await hello(keyed, STRANGER, name="Gus")
    now = keyed.clock()
    if established:
        for i in range(21):
            for who, bots in (("key:Ann", ("greedy", "minimax", "mcts")),
                              ("key:Bob", ("random", "greedy", "minimax"))):
                keyed.ratings.record_now(result_of(f"e{who}{i}", (who, f"bot:{bots[i % 3]}"),
                                                   None, finished=now - 3600 + i))
    for i, (who, bot, winner) in enumerate([("key:Ann", "bot:expert", 0),
                                             ("key:Ann", "bot:expert", 0),
                                             ("key:Bob", "bot:random", 1)]):
        keyed.ratings.record_now(result_of(f"t{i}", (who, bot), winner, finished=now - 60 + i))
    return ann, bob


async def test_people_and_bots_are_ranked_on_one_scale_with_your_place(keyed):
    ann, bob = await rated_past(keyed, established=True)
    board = await leaders(ann["client"])
    names = [row["name"] for row in board["rows"]]
    ratings = [keyed.ratings.rating(i).rating for i in (
        "key:Ann", "key:Bob", "bot:expert", "bot:random")]
    assert board["total"] == 7 and len(names) == 7  # five bot tiers, Ann and Bob
    assert "Gus (guest)" not in names  # guests are not rated
    assert names.index("Ann") < names.index("random bot") and ratings[0] > ratings[1]
    place = names.index("Ann") + 1
    assert board["place"] == place and board["rows"][place - 1]["you"]
    assert [r["place"] for r in board["rows"]] == list(range(1, 8))
    later = await leaders(bob["client"], offset=5)
    assert [r["place"] for r in later["rows"]] == [6, 7] and later["offset"] == 5


async def test_a_guest_reads_the_board_without_a_place(keyed):
    await rated_past(keyed)
    guest = (await hello(keyed, STRANGER, name="Gil"))["client"]
    board = await leaders(guest)
    assert board["place"] is None and board["rating"] is None


async def test_l_in_the_lobby_opens_the_leaderboard(keyed):
    await rated_past(keyed, established=True)
    app = OnlineApp(socket=keyed.socket_path, ssh_key=ANN)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.player_name == "Ann", pilot)
        await pilot.press("l")
        await until(lambda: isinstance(app.screen, LeadersScreen)
                    and "of 7" in "".join(str(s.render()) for s in app.screen.query("#board")),
                    pilot)
        rating = keyed.standings.rating_text("key:Ann")
        assert_shown(app, "Leaderboard", "expert bot", "<- you", f"You: {rating}, place")
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, LeadersScreen), pilot)


async def page(client, name: str | None = None) -> dict:
    await client.send({"type": "player", **({"name": name} if name else {})})
    while (said := await client.receive())["type"] not in ("player", "error"):
        pass
    return said


async def test_a_players_page_lists_their_rated_games_and_ratings_over_time(keyed):
    ann, _bob = await rated_past(keyed)
    mine = await page(ann["client"])
    assert mine["name"] == "Ann" and mine["rating"] == keyed.standings.rating_text("key:Ann")
    assert [(g["opponent"], g["score"]) for g in mine["games"]] == [("expert bot", 1.0)] * 2
    assert len(mine["chart"]) == 2 and mine["chart"][0] < mine["chart"][1]  # she rose
    theirs = await page(ann["client"], "BOB")  # another's page, by name
    assert theirs["name"] == "Bob" and theirs["games"][0]["score"] == 0.0
    assert (await page(ann["client"], "random bot"))["games"][0]["opponent"] == "Bob"
    assert (await page(ann["client"], "Zed"))["code"] == "no_player"
    guest = (await hello(keyed, STRANGER, name="Gil"))["client"]
    assert (await page(guest))["code"] == "no_player"


def test_the_chart_draws_one_bar_per_game_between_the_lowest_and_highest():
    from solstis_tui.client.player_page import chart

    assert chart([1500, 1520, 1510]) == "▁█▄"
    assert chart([1500]) == "▁" and chart([]) == ""


async def test_p_in_the_lobby_opens_your_page(keyed):
    from solstis_tui.client.player_page import PlayerScreen

    await rated_past(keyed)
    app = OnlineApp(socket=keyed.socket_path, ssh_key=ANN)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.player_name == "Ann", pilot)
        await pilot.press("p")
        await until(lambda: isinstance(app.screen, PlayerScreen) and "against" in "".join(
            str(s.render()) for s in app.screen.query("#page")), pilot)
        assert_shown(app, f"Ann: rating {keyed.standings.rating_text('key:Ann')}",
                     "won   against expert bot", "Rating over the last 2 rated games")

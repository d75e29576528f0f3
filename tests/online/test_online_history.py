"""`solstis online` after a game (Pilot): my games from the lobby, the review of a game from
the record the host keeps, and the end dialog's rematch and review (no key that does
nothing online)."""

from __future__ import annotations

from solstis_tui.client.app import OnlineApp
from solstis_tui.client.game_screen import OnlineGameScreen
from solstis_tui.client.my_games import MyGamesScreen, game_row
from solstis_tui.coach.analysis import TINY
from solstis_tui.screens.end import EndScreen
from solstis_tui.screens.review import ReviewScreen
from solstis_tui.wire.messages import GAMES_PAGE

from .helpers import screen_lines
from .states import over, state_where
from .test_host import start_friend_game
from .test_online_app import seated_with_bob, wait_for


def shown(app) -> str:
    return "\n".join(screen_lines(app))


async def resign_at_the_table(app: OnlineApp, pilot, connect):
    """Ann (``app``) and Bob sit at a friend table; Ann resigns: the end dialog is up."""
    bob, table = await seated_with_bob(app, pilot, connect)
    await pilot.press("x", "y")
    await wait_for(lambda: isinstance(app.screen, EndScreen), pilot)
    return bob, table


async def test_the_end_dialog_online_offers_rematch_and_review_and_no_dead_key(host, connect):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    app.review_effort, app.review_workers = TINY, 1  # a tiny judge on this process
    async with app.run_test(size=(80, 24)) as pilot:
        await resign_at_the_table(app, pilot, connect)
        text = shown(app)
        assert "Rematch (m)" in text and "Review (r)" in text
        assert "Same deal" not in text and "u undo" not in text
        await pilot.press("s")  # the same deal does not exist online: nothing happens
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("escape")  # the board: its last line names the keys that act
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
        prompt = str(app.screen.query_one("#prompt").render())
        assert "m rematch" in prompt and "r review" in prompt and "q lobby" in prompt
        assert "u undo" not in prompt and "q quit" not in prompt
        await pilot.press("enter")  # the score sheet again
        await wait_for(lambda: isinstance(app.screen, EndScreen), pilot)
        await pilot.press("r")  # the review: the record, fetched from the host
        await wait_for(lambda: isinstance(app.screen, ReviewScreen), pilot)
        assert app.screen.board.game.end_reason.value == "resigned"
        assert list(app.screen.board.names) == ["Ann", "Bob"]


async def test_a_watcher_who_came_after_the_end_is_offered_no_review_and_r_says_why(
        host, connect):
    ann, bob, table = await start_friend_game(connect)
    await ann.send({"type": "resign", "table": table})
    await state_where(bob, table, over)
    app = OnlineApp(socket=host.socket_path, name="Eve")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.lobby.rows, pilot)
        app.send({"type": "watch", "table": table})
        await wait_for(lambda: isinstance(app.screen, EndScreen), pilot)
        assert not app.remote.may_review
        assert "Review (r)" not in shown(app)
        await pilot.press("escape")
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
        prompt = str(app.screen.query_one("#prompt").render())
        assert "Enter: score sheet" in prompt and "r review" not in prompt
        await pilot.press("r")  # not offered; pressed anyway, it says why
        await wait_for(lambda: any("who watched it while it was played" in n.message
                                   for n in app._notifications), pilot)
        assert not isinstance(app.screen, ReviewScreen)


async def test_one_review_opens_however_often_it_is_asked_and_stays_when_its_table_closes(
        host, connect):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    app.review_effort, app.review_workers = TINY, 1
    async with app.run_test(size=(80, 24)) as pilot:
        _bob, table = await resign_at_the_table(app, pilot, connect)
        game = app.remote.game_id
        came = []
        handle = app._record
        app._record = lambda reply, reply_to: (came.append(reply), handle(reply, reply_to))
        app.fetch_record(game)
        app.fetch_record(game)  # a key pressed twice: two records come
        await wait_for(lambda: len(came) == 2, pilot)
        await pilot.pause()
        assert sum(isinstance(s, ReviewScreen) for s in app.screen_stack) == 1
        assert host.housekeeping._close(host.tables[table], "the host tidied up")
        await wait_for(lambda: app.table_gone, pilot)
        assert isinstance(app.screen, ReviewScreen)  # the review is not taken away
        await pilot.press("escape")
        await wait_for(lambda: app.screen is app.lobby, pilot)


async def test_m_offers_a_rematch_and_the_new_table_opens_once_it_is_accepted(
        host, connect):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        bob, table = await resign_at_the_table(app, pilot, connect)
        await pilot.press("m")
        offer = await bob.receive_until("rematch_offer")
        assert (offer["table"], offer["name"]) == (table, "Ann")
        await wait_for(lambda: app.remote is not None and app.remote.table == offer["new"]
                       and isinstance(app.screen, OnlineGameScreen)
                       and app.screen.session is app.remote, pilot)
        await wait_for(lambda: "Waiting for Bob to accept the rematch" in str(
            app.screen.query_one("#prompt").render()), pilot)
        await bob.send({"type": "rematch", "table": table})  # Bob says yes
        await bob.receive_until("joined", table=offer["new"])
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen)
                       and app.screen.session is app.remote
                       and not app.remote.seat_empty(0), pilot)
        assert app.remote.seat == 1 and app.remote.name(0) == "Bob"


async def test_an_offered_rematch_is_asked_once_a_stray_key_answers_nothing_n_declines_y_accepts(
        host, connect):
    from solstis_tui.client.confirm import ConfirmScreen

    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        bob, table = await resign_at_the_table(app, pilot, connect)
        await pilot.press("escape")  # back to the board
        await bob.send({"type": "rematch", "table": table})
        new = (await bob.receive_until("joined"))["table"]
        await wait_for(lambda: "offers you a rematch" in shown(app), pilot)
        assert "y accepts" in shown(app) and "n or Esc declines" in shown(app)
        for _ in range(3):  # Bob asks again and again: Ann is asked once
            await bob.send({"type": "rematch", "table": table})
            await bob.receive_until("rematch_offered")
        await pilot.press("x", "m")  # keys typed for something else answer nothing
        await pilot.pause()
        assert sum(isinstance(s, ConfirmScreen) for s in app.screen_stack) == 1
        await pilot.press("n")  # declines
        closed = await bob.receive_until("closed", table=new)
        assert "Ann declined" in closed["message"]
        await bob.send({"type": "rematch", "table": table})  # again, and this time yes
        new = (await bob.receive_until("joined"))["table"]
        await wait_for(lambda: "offers you a rematch" in shown(app), pilot)
        await pilot.press("y")
        await wait_for(lambda: app.remote is not None and app.remote.table == new
                       and isinstance(app.screen, OnlineGameScreen), pilot)
        assert host.tables[new].status() == "playing"


async def test_my_games_from_the_lobby_lists_the_game_and_enter_reviews_it(host, connect):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    app.review_effort, app.review_workers = TINY, 1  # a tiny judge on this process
    async with app.run_test(size=(80, 24)) as pilot:
        await resign_at_the_table(app, pilot, connect)
        await pilot.press("escape")  # the board
        await wait_for(lambda: not isinstance(app.screen, EndScreen), pilot)
        app.back_to_lobby()
        await wait_for(lambda: app.screen is app.lobby, pilot)
        await wait_for(lambda: "g My games" in shown(app), pilot)  # in the footer
        await pilot.press("g")
        await wait_for(lambda: isinstance(app.screen, MyGamesScreen) and app.screen.games,
                       pilot)
        text = shown(app)
        assert "Bob" in text and "lost 0-0, resigned" in text
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, ReviewScreen), pilot)
        await pilot.press("escape")
        await wait_for(lambda: isinstance(app.screen, MyGamesScreen), pilot)


def test_a_game_row_says_date_opponent_rating_change_and_how_it_ended():
    entry = {"game": "g" + "0" * 32, "seat": 1, "date": "2026-12-04T09:30:12Z",
             "variant": "base", "names": ["Ann", "Bob"], "end": "normal", "winner": 1,
             "scores": [31, 36], "change": "+14 → 1594"}
    assert game_row(entry) == ("2026-12-04 09:30", "Ann", "+14 → 1594", "won 36-31")
    watched = {**entry, "seat": None, "end": "time", "winner": 0, "change": None}
    assert game_row(watched) == ("2026-12-04 09:30", "watched: Ann vs Bob", "",
                                 "Ann won 31-36, on time")


async def test_names_in_my_games_are_shown_as_written_never_as_markup(tmp_path):
    app = OnlineApp(socket=tmp_path / "no.sock")  # no name given: it does not connect
    async with app.run_test(size=(80, 24)) as pilot:
        screen = MyGamesScreen(lambda offset: None, lambda game: None)
        await app.push_screen(screen)
        screen.show({"games": [{"game": "g" + "0" * 32, "seat": 0, "names": [
            "Ann", "[b]Eve[/b]"], "end": "resigned", "winner": 0, "scores": [3, 1],
            "date": "2026-12-04T09:30:00Z", "change": None}], "offset": 0, "total": 1})
        await pilot.pause()
        assert "[b]Eve[/b]" in shown(app) and "won 3-1, resigned" in shown(app)


async def test_my_games_offers_the_page_keys_only_where_there_is_another_page(tmp_path):
    app = OnlineApp(socket=tmp_path / "no.sock")  # no name given: it does not connect
    asked: list[int] = []
    async with app.run_test(size=(80, 24)) as pilot:
        screen = MyGamesScreen(asked.append, lambda game: None)
        await app.push_screen(screen)
        game = {"game": "g" + "0" * 32, "seat": 0, "names": ["Ann", "Bob"], "end": "normal",
                "winner": 0, "scores": [30, 20], "date": "2026-12-04T09:30:00Z"}
        screen.show({"games": [game] * GAMES_PAGE, "offset": 0, "total": GAMES_PAGE + 1})
        await pilot.pause()
        assert "Next page" in shown(app) and "Prev page" not in shown(app)
        await pilot.press("left_square_bracket")  # not offered: asks nothing
        assert asked == [0]
        screen.show({"games": [game], "offset": GAMES_PAGE, "total": GAMES_PAGE + 1})
        await pilot.pause()
        assert "Prev page" in shown(app) and "Next page" not in shown(app)

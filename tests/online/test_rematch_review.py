"""A rematch offered while the game is reviewed (Pilot, a live host): Ann presses `r` on
the end dialog, Bob then offers a rematch. The review says so without taking its keys; the
end dialog says it again once the review is closed, and answers it there."""

from __future__ import annotations

from solstis_tui.client.app import OnlineApp
from solstis_tui.client.confirm import ConfirmScreen
from solstis_tui.client.game_screen import OnlineGameScreen
from solstis_tui.coach.analysis import TINY
from solstis_tui.screens.end import EndScreen
from solstis_tui.screens.review import ReviewScreen

from .helpers import screen_lines
from .test_online_app import wait_for
from .test_online_history import resign_at_the_table


def shown(app) -> str:
    return "\n".join(screen_lines(app))


def told(app, text: str) -> bool:
    return any(text in n.message for n in app._notifications)


async def reviewing_when_bob_offers(app: OnlineApp, pilot, connect):
    """Ann resigns and opens the review from the end dialog; then Bob offers a rematch.
    Bob's client, the old table and the offered one."""
    bob, table = await resign_at_the_table(app, pilot, connect)
    await pilot.press("r")
    await wait_for(lambda: isinstance(app.screen, ReviewScreen), pilot)
    await bob.send({"type": "rematch", "table": table})
    new = (await bob.receive_until("joined"))["table"]
    await wait_for(lambda: "Bob offers you a rematch" in shown(app), pilot)
    return bob, table, new


def review_app(host) -> OnlineApp:
    app = OnlineApp(socket=host.socket_path, name="Ann")
    app.review_effort, app.review_workers = TINY, 1  # a tiny judge on this process
    return app


async def test_an_offer_made_during_a_review_is_said_there_and_accepted_on_the_end_dialog(
        host, connect):
    app = review_app(host)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        _bob, _table, new = await reviewing_when_bob_offers(app, pilot, connect)
        # said in the review, which keeps its keys: n (next mistake) answers nothing
        assert isinstance(app.screen, ReviewScreen)
        assert "Bob offers you a rematch" in shown(app)
        assert told(app, "The end dialog asks it once the review is closed.")
        await pilot.press("n", "right", "left")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert host.tables[new].status() == "open"  # not declined
        await pilot.press("escape")  # the review closes: the end dialog says the offer
        await wait_for(lambda: "y or m accepts" in shown(app), pilot)
        assert isinstance(app.screen, EndScreen)
        assert "Bob offers you a rematch" in shown(app) and "d declines" in shown(app)
        await pilot.press("y")
        await wait_for(lambda: app.remote is not None and app.remote.table == new
                       and isinstance(app.screen, OnlineGameScreen)
                       and app.screen.session is app.remote, pilot)
        assert host.tables[new].status() == "playing"
        assert app.remote.seat == 1 and app.remote.name(0) == "Bob"  # seats swapped


async def test_an_offer_said_on_the_end_dialog_is_declined_with_d_and_bob_is_told(
        host, connect):
    app = review_app(host)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        bob, _table, new = await reviewing_when_bob_offers(app, pilot, connect)
        await pilot.press("escape")
        await wait_for(lambda: "d declines" in shown(app), pilot)
        await pilot.press("d")
        closed = await bob.receive_until("closed", table=new)
        assert "Ann declined" in closed["message"]
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
        await pilot.press("enter")  # the end dialog again: the offer is not said any more
        await wait_for(lambda: "Game over" in shown(app) and isinstance(app.screen, EndScreen),
                       pilot)
        assert "y or m accepts" not in shown(app)


async def test_going_to_the_lobby_from_the_end_dialog_declines_the_offer_and_says_so_to_bob(
        host, connect):
    app = review_app(host)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        bob, _table, new = await reviewing_when_bob_offers(app, pilot, connect)
        await pilot.press("escape")
        await wait_for(lambda: "n declines it and goes to the lobby" in shown(app), pilot)
        await pilot.press("n")
        await wait_for(lambda: app.screen is app.lobby, pilot)
        closed = await bob.receive_until("closed", table=new)  # Bob waits on for nobody
        assert "Ann declined" in closed["message"]


async def test_an_offer_asked_just_before_the_review_opens_waits_for_the_end_dialog(
        host, connect):
    """The offer comes between `r` and the record: its question goes away unanswered for
    the review (it would have been hidden under it), and the end dialog asks it after."""
    app = review_app(host)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        bob, table = await resign_at_the_table(app, pilot, connect)
        await pilot.press("escape")  # the board
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
        await bob.send({"type": "rematch", "table": table})
        new = (await bob.receive_until("joined"))["table"]
        await wait_for(lambda: isinstance(app.screen, ConfirmScreen), pilot)
        app.review_game()  # the record comes while the question is up
        await wait_for(lambda: isinstance(app.screen, ReviewScreen), pilot)
        assert not any(isinstance(s, ConfirmScreen) for s in app.screen_stack)
        # The note is a message to the app (notify posts it): it may be handled just after
        # the review is pushed, so wait for it rather than look at once.
        await wait_for(lambda: told(app, "Bob offers you a rematch"), pilot)
        await pilot.press("escape")
        await wait_for(lambda: "y or m accepts" in shown(app), pilot)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("m")  # asking for the rematch accepts the one offered
        await wait_for(lambda: app.remote is not None and app.remote.table == new, pilot)
        assert host.tables[new].status() == "playing"

"""`solstis online`: two apps driven by Pilot play a whole game at a live host."""

from __future__ import annotations

import pytest

from solstis_tui.client.app import OnlineApp
from solstis_tui.client.game_screen import OnlineGameScreen
from solstis_tui.client.lobby import LobbyScreen

from .helpers import screen_lines
from .test_host import game_at


async def wait_for(predicate, pilot, timeout: float = 30.0) -> None:
    """Let the app run until ``predicate()`` holds; ``timeout`` is only a guard against
    a hang (a loaded machine takes long). It looks every 10 ms: a reply from the host
    takes a few, and hundreds of waits in these tests each lost half a 50 ms step."""
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await pilot.pause(0.01)
    raise AssertionError("timed out waiting")


async def open_friend_table(app: OnlineApp, pilot, name: str = "Ann") -> None:
    """Once the host has welcomed ``app`` as ``name``, create a friend table and sit in
    the first seat."""
    await wait_for(lambda: app.player_name == name, pilot)
    await pilot.press("c", "s", "enter")
    await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)


async def opponent_moves(client, table: str, host, pilot) -> None:
    """The other player (``client``, whose decision it is) plays the first legal move;
    returns once the host has played it."""
    game = game_at(host, table)
    length = len(game.history)
    await client.send({"type": "move", "table": table, "move": str(game.legal_moves()[0]),
                       "seq": length})
    await wait_for(lambda: len(game_at(host, table).history) > length, pilot)


async def seated_with_bob(app: OnlineApp, pilot, connect):
    """Ann (``app``) opens a friend table in seat 0, Bob joins it; Ann's screen shows
    both seats taken. Bob's client and the table id."""
    await open_friend_table(app, pilot)
    table = app.remote.table
    bob = await connect("Bob")
    await bob.send({"type": "join", "table": table})
    await bob.receive_until("joined")
    await wait_for(lambda: not app.remote.seat_empty(1), pilot)
    return bob, table


@pytest.mark.whole_game
async def test_two_online_apps_play_a_game_by_keys(host):
    ann_app = OnlineApp(socket=host.socket_path, name="Ann")
    bob_app = OnlineApp(socket=host.socket_path)
    async with ann_app.run_test(size=(80, 24)) as ann, bob_app.run_test(size=(80, 24)) as bob:
        await open_friend_table(ann_app, ann)
        assert ann_app.remote.seat == 0
        # Bob types his name in the lobby, then joins the open table with Enter.
        assert isinstance(bob_app.screen, LobbyScreen)
        await bob.press(*"Bob", "enter")
        await wait_for(lambda: bob_app.lobby.rows, bob)
        await bob.press("enter")
        await wait_for(lambda: isinstance(bob_app.screen, OnlineGameScreen), bob)
        assert bob_app.remote.seat == 1
        table = ann_app.remote.table
        # Bob cannot move out of turn: the prompt says so and nothing changes.
        await bob.press("enter")
        await bob.pause(0.1)
        assert len(game_at(host, table).history) == 0
        assert "Waiting for Ann" in str(bob_app.screen.query_one("#prompt").render())
        # Each presses Enter on their own turn (the first legal choice) to the end: once
        # their app shows the position, and the next once the host has played it.
        for _ in range(600):
            if game_at(host, table).is_over:
                break
            pilot = ann if game_at(host, table).to_play == 0 else bob
            app = ann_app if game_at(host, table).to_play == 0 else bob_app
            before = len(game_at(host, table).history)
            await wait_for(lambda app=app, before=before: app.remote.human_to_play
                           and len(app.remote.obs.history) == before, pilot)
            await pilot.press("enter")
            await wait_for(lambda before=before: len(game_at(host, table).history) > before,
                           pilot)
        assert game_at(host, table).is_over
        await wait_for(lambda: ann_app.remote.obs.is_over and bob_app.remote.obs.is_over, ann)
        assert ann_app.remote.obs.history == tuple(game_at(host, table).history)


async def test_a_dropped_online_player_comes_back_with_their_code(host, connect):
    ann_app = OnlineApp(socket=host.socket_path, name="Ann")
    async with ann_app.run_test(size=(80, 24)) as ann:
        await open_friend_table(ann_app, ann)
        table = ann_app.remote.table
    bob = await connect("Bob")
    await bob.send({"type": "join", "table": table})
    await bob.receive_until("joined")
    state = await bob.receive_until("state", table=table)
    assert state["seats"][0]["connected"] is False  # Ann is away
    codes = [c for c, n in host.players.items() if n == "Ann"]
    again = OnlineApp(socket=host.socket_path, code=codes[0])
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: again.player_name == "Ann", pilot)
        await pilot.press("enter")  # rejoin her table from the lobby
        await wait_for(lambda: isinstance(again.screen, OnlineGameScreen), pilot)
        assert again.remote.seat == 0 and again.remote.human_to_play


async def test_no_host_gives_a_clear_message(tmp_path):
    app = OnlineApp(socket=tmp_path / "nothing.sock", name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        text = str(app.lobby.query_one("#lobby-error").render())
        assert "cannot reach the game host" in text and "solstis host" in text


async def test_watching_a_table_shows_no_hand(host, connect):
    ann = await connect("Ann")
    await ann.send({"type": "create", "opponent": "friend", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    bob = await connect("Bob")
    await bob.send({"type": "join", "table": table})
    await bob.receive_until("joined")
    eve_app = OnlineApp(socket=host.socket_path, name="Eve")
    async with eve_app.run_test(size=(80, 24)) as eve:
        await wait_for(lambda: eve_app.lobby.rows, eve)
        await eve.press("w")
        await wait_for(lambda: isinstance(eve_app.screen, OnlineGameScreen), eve)
        assert eve_app.remote.is_spectator
        bar = str(eve_app.screen.query_one("#topbar").render())
        assert f"table {table}" in bar and "seed" not in bar
        prompt = str(eve_app.screen.query_one("#prompt").render())
        assert "Watching: You" not in prompt and "Watching: Ann" in prompt
        hand = str(eve_app.screen.query_one("#hand").render())
        assert "Ann: 3 tiles" in hand and "Bob: 3 tiles" in hand and "Hand" not in hand
        game = host.tables[table].game
        for tile in game.hands[0] + game.hands[1]:
            from solstis_tui.core.board import NAMES

            assert NAMES[tile] not in hand
        await eve.press("enter")  # a watcher's Enter changes nothing
        await eve.pause(0.1)
        assert len(game_at(host, table).history) == 0


async def test_chat_typed_at_the_table_reaches_the_other_player(host, connect):
    ann_app = OnlineApp(socket=host.socket_path, name="Ann")
    async with ann_app.run_test(size=(80, 24)) as ann:
        await open_friend_table(ann_app, ann)
        bob = await connect("Bob")
        await bob.send({"type": "join", "table": ann_app.remote.table})
        await bob.receive_until("joined")
        history = list(host.tables[ann_app.remote.table].game.history)
        await ann.press("c", *"hi Bob", "enter")
        said = await bob.receive_until("chat")
        assert (said["name"], said["text"]) == ("Ann", "hi Bob")
        await wait_for(lambda: isinstance(ann_app.screen, OnlineGameScreen), ann)
        await ann.press("c", *"never mind", "escape")  # Esc sends nothing
        await ann.pause(0.2)
        assert isinstance(ann_app.screen, OnlineGameScreen)
        assert list(host.tables[ann_app.remote.table].game.history) == history
    await bob.send({"type": "ping"})
    kinds = []
    while not kinds or kinds[-1] != "pong":
        kinds.append((await bob.receive())["type"])
    assert "chat" not in kinds  # the cancelled line never went out


async def test_x_resigns_only_once_the_player_says_yes(host, connect):
    ann_app = OnlineApp(socket=host.socket_path, name="Ann")
    async with ann_app.run_test(size=(80, 24)) as ann:
        _bob, table = await seated_with_bob(ann_app, ann, connect)
        await ann.press("x")  # a stray x asks first; any other key plays on
        await wait_for(lambda: not isinstance(ann_app.screen, OnlineGameScreen), ann)
        shown = "\n".join(screen_lines(ann_app))
        assert "Resign this game?" in shown and "y resigns" in shown
        await ann.press("enter")
        await wait_for(lambda: isinstance(ann_app.screen, OnlineGameScreen), ann)
        await ann.pause(0.2)
        assert not game_at(host, table).is_over and game_at(host, table).history == []
        await ann.press("x", "y")
        await wait_for(lambda: ann_app.remote.obs.is_over, ann)
        game = game_at(host, table)
        assert (game.is_over, game.winner, game.end_reason.value) == (True, 1, "resigned")
        await wait_for(lambda: "You resigned, so Bob wins" in " ".join(
            screen_lines(ann_app)), ann)


async def test_o_claims_a_game_whose_player_to_move_ran_out_of_time(host, connect):
    ann_app = OnlineApp(socket=host.socket_path, name="Ann")
    async with ann_app.run_test(size=(80, 24)) as ann:
        await wait_for(lambda: ann_app.player_name == "Ann", ann)
        await ann.press("c", "enter")  # a friend table, the seat at random
        await wait_for(lambda: isinstance(ann_app.screen, OnlineGameScreen), ann)
        table = ann_app.remote.table
        bob = await connect("Bob")
        await bob.send({"type": "join", "table": table})
        await bob.receive_until("joined")
        await wait_for(lambda: not ann_app.remote.seat_empty(1 - ann_app.remote.seat), ann)
        seat = ann_app.remote.seat
        # both play a turn (the clocks run once both have decided), till Bob is to move
        while not (host.tables[table].clocks_run()
                   and game_at(host, table).to_play == 1 - seat):
            if game_at(host, table).to_play == seat:
                await ann.press("enter")
                await ann.pause(0.1)
            else:
                await opponent_moves(bob, table, host, ann)
        await wait_for(lambda: not ann_app.remote.human_to_play, ann)
        assert "o claim on time" in str(ann_app.screen.query_one("#prompt").render())
        await ann.press("o")  # too early: the host says how long Bob has
        await wait_for(lambda: "seconds left" in str(
            ann_app.screen.query_one("#prompt").render()), ann)
        assert not game_at(host, table).is_over
        now = host.clock()
        host.clock = lambda: now + 301
        await ann.press("o")
        await wait_for(lambda: ann_app.remote.obs.is_over, ann)
        game = game_at(host, table)
        assert (game.end_reason.value, game.winner) == ("time", ann_app.remote.seat)


async def test_the_creator_picks_the_move_clock_and_the_time_bank(host):
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.player_name == "Ann", pilot)
        await pilot.press("c")
        await pilot.pause(0.1)
        shown = "\n".join(screen_lines(app))
        assert "Clock:    5 min 00 s a decision" in shown
        await pilot.press("l", "l")
        await pilot.pause(0.1)
        shown = "\n".join(screen_lines(app))
        assert "Clock:    1 min 00 s a decision" in shown
        assert "Bank:     game in 20 min + 5 s a tile" in shown

        def form() -> str:  # the form's words, whatever lines they wrap to
            return " ".join(str(app.screen.query_one("#choices").render()).split())

        assert "game in 20 min + 5 s a tile played, each: at most 43 min on the clocks" in form()
        await pilot.press("b")  # the time bank: the game's length is known before it starts
        await pilot.pause(0.1)
        assert "game in 30 min + 5 s a tile played, each: at most 63 min" in form()
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, OnlineGameScreen), pilot)
        assert host.tables[app.remote.table].clock == 60
        assert host.tables[app.remote.table].bank == 30 * 60


async def test_the_lobby_says_how_long_a_table_can_last(host, connect):
    ann = await connect("Ann")
    await ann.send({"type": "create", "opponent": "friend", "seat": 0, "bank": 10})
    await ann.receive_until("joined")
    app = OnlineApp(socket=host.socket_path, name="Bob")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.lobby.rows, pilot)
        row = " ".join(str(app.screen.query_one("#row").render()).split())
        assert "game in 10 min + 5 s a tile played, each: at most 23 min on the clocks" in row


def test_every_kind_of_host_message_the_app_handles_names_a_method_it_has():
    from solstis_tui.client.app import REPLIES

    assert {"welcome", "state", "record", "error", "closed"} <= set(REPLIES)
    for kind, name in REPLIES.items():
        assert callable(getattr(OnlineApp, name, None)), (kind, name)

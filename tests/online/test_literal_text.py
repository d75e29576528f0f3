"""Text from other people is text, never markup.

Names, chat and anything a host message carries are shown literally on every screen a
player meets (lobby, seats, top bar, score sheet, log, toasts, end screen, watch mode,
review), at 80×24 and at 160×48 (the score sheet beside the board); nothing in them runs an
action when clicked. Names are normalised and unique up to case and invisible characters.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from textual.app import App
from textual.geometry import Size
from textual.widgets._toast import Toast

from solstis_tui.app import SolstisApp
from solstis_tui.client.app import OnlineApp
from solstis_tui.client.game_screen import OnlineGameScreen
from solstis_tui.client.lobby import LobbyScreen
from solstis_tui.coach.analysis import TINY
from solstis_tui.local import saves
from solstis_tui.local.seats import PERSON
from solstis_tui.local.session import Session, Setup
from solstis_tui.screens.end import EndScreen
from solstis_tui.screens.game import GameScreen
from solstis_tui.screens.logview import LogScreen
from solstis_tui.screens.passkb import PassScreen
from solstis_tui.screens.review import ReviewScreen
from solstis_tui.screens.spiritinfo import SpiritsScreen
from solstis_tui.wire.names import BadName, name_key, normalize_name
from solstis_tui.wire.protocol import MAX_NAME, VERSION
from tests.tui.conftest import keys_for

from .helpers import (
    SIZES,
    Spy,
    assert_shown,
    at_both_sizes,
    click_on,
    flip,
    lobby_text,
    screen_lines,
    until,
    wide,
    widget_text,
)

HOSTILE = ["[/x]", "[bold]x", "[@click=app.quit]x", "[link=https://x]x"]


# ---------------------------------------------------------------------- both sizes
# Each string meets every place it is shown at 80×24 and at 160×48: a test starts at one
# size (half start small, half large), checks a screen, resizes the terminal to the other
# size and checks it again. A screen whose places another app's screen (or an earlier one)
# already showed with the same names at both sizes is checked at one size only. Waits are
# on conditions, never fixed sleeps.
BOTH = [(text, SIZES[i % 2]) for i, text in enumerate(HOSTILE)]
BOTH_IDS = [f"{text}-from-{w}x{h}" for text, (w, h) in BOTH]


# ---------------------------------------------------------------------- online
def play_to_the_end(game, seed: int) -> None:
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))


# Online, one end-to-end case: one string with a closing tag, an action and a link (each
# place it goes through is also checked offline, widget by widget, with every string).
ONLINE = "[/x][@click=app.quit]x"


async def test_people_text_is_literal_online(host, hostile=ONLINE, size=SIZES[0]):
    ann_name, bob_name, eve_name = "A" + hostile, "O" + hostile, "W" + hostile
    ann_app = OnlineApp(socket=host.socket_path, name=ann_name)
    bob_app = OnlineApp(socket=host.socket_path)
    eve_app = OnlineApp(socket=host.socket_path, name=eve_name)
    spy = Spy(ann_app, bob_app, eve_app)
    apps = (ann_app, bob_app, eve_app)
    for app in apps:
        app.NOTIFICATION_TIMEOUT = 120  # the chat toasts stay while both sizes are checked
    async with ann_app.run_test(size=size, notifications=True) as ann, \
            bob_app.run_test(size=size, notifications=True) as bob, \
            eve_app.run_test(size=size, notifications=True) as eve:
        pilots = (ann, bob, eve)
        # Lobby: Ann's own name in the welcome line, and a host message under it.
        await until(lambda: ann_app.player_name == ann_name, ann)
        ann_app.on_host_message({"type": "error", "code": "x", "message": hostile})

        async def ann_lobby() -> None:
            assert_shown(ann_app, f"You are {ann_name}.")
            assert hostile in widget_text(ann_app, "#lobby-error")
            assert await click_on(ann_app, ann, ann_name)

        await at_both_sizes(ann_app, ann, ann_lobby)
        await ann.press("c", "s", "enter")  # a friend table, Ann in seat 1
        await until(lambda: isinstance(ann_app.screen, OnlineGameScreen), ann)
        table = ann_app.remote.table
        # Bob types his name in the lobby and sees Ann's at the table list.
        await bob.press(*bob_name, "enter")
        await until(lambda: bob_app.player_name == bob_name and bob_app.lobby.rows, bob)

        async def bob_lobby() -> None:
            assert ann_name in lobby_text(bob_app)
            assert_shown(bob_app, f"You are {bob_name}.")
            assert await click_on(bob_app, bob, ann_name)

        # (the welcome line is Ann's above, the list Eve's below, at both sizes)
        await at_both_sizes(bob_app, bob, bob_lobby, both=False)
        await bob.press("enter")
        await until(lambda: isinstance(bob_app.screen, OnlineGameScreen), bob)
        # Eve's lobby lists both seats; she watches.
        await eve.press("r")
        await until(lambda: eve_app.lobby.rows and all(
            s.get("name") for s in eve_app.lobby.rows[0]["seats"]), eve)

        async def eve_lobby() -> None:
            assert ann_name in lobby_text(eve_app)
            assert bob_name in lobby_text(eve_app)

        await at_both_sizes(eve_app, eve, eve_lobby)
        await eve.press("w")
        await until(lambda: isinstance(eve_app.screen, OnlineGameScreen), eve)
        # The game screens: top bar, hand, panoramas, score line or sheet, and a host
        # message's text (here an error at the table, on Bob's prompt line).
        game_views = {  # what each app shows where: (top bar, hand, score sheet or line)
            ann_app: (bob_name, None, bob_name),
            bob_app: (ann_name, None, ann_name),
            eve_app: (ann_name, bob_name, bob_name),
        }
        for app, pilot in zip(apps, pilots, strict=True):
            await until(lambda app=app: app.remote.seats[1].get("name") == bob_name
                        and app.remote.seats[1].get("connected"), pilot)
            top, hand, score = game_views[app]
            if app is bob_app:
                app.on_host_message({"type": "error", "code": "x", "message": hostile})

            async def game_screen(app=app, pilot=pilot, top=top, hand=hand,
                                  score=score) -> None:
                assert top in widget_text(app, "#topbar")
                if app is bob_app:
                    assert hostile in widget_text(app, "#prompt")
                if hand:
                    assert hand in widget_text(app, "#hand")
                if wide(app):  # the sheet beside the board (a long name ends in "…" there)
                    assert score[:12] in widget_text(app, "#sheet")
                else:
                    assert score in widget_text(app, "#scoreline")
                assert await click_on(app, pilot, top)

            await at_both_sizes(app, pilot, game_screen)
        # Chat: everyone at the table sees Ann's line as she typed it, in a toast (the same
        # toast everywhere: Bob's is looked at in both sizes).
        await ann.press("c", *hostile, "enter")
        for app, pilot in zip(apps, pilots, strict=True):
            await until(lambda app=app: app.screen.query(Toast), pilot)

            async def toast(app=app, pilot=pilot) -> None:
                toasts = [str(t.render()) for t in app.screen.query(Toast)]
                assert f"Chat\n{ann_name}: {hostile}" in toasts  # titled: never the game
                assert_shown(app, hostile)
                await click_on(app, pilot, hostile)

            await at_both_sizes(app, pilot, toast, both=app is bob_app)
            app.clear_notifications()
        # Game end: the host plays the rest; every app shows the end screen. From here on,
        # Eve's screens (which name both players) are checked at both sizes, Ann's and Bob's
        # at the size they are at: each name in each place still meets both sizes (the
        # lobby's list met them above).
        play_to_the_end(host.tables[table].game, 1)
        await host.keeper.after_change(host.tables[table])
        for app, pilot, names in zip(apps, pilots, ([bob_name], [ann_name], [ann_name, bob_name]),
                                     strict=True):
            await until(lambda app=app: isinstance(app.screen, EndScreen), pilot)

            async def end(app=app, pilot=pilot, names=names) -> None:
                assert_shown(app, *names)
                for name in names:
                    await click_on(app, pilot, name)

            await at_both_sizes(app, pilot, end, both=app is eve_app)
        # The log (every line names someone), the spirits, then back to the lobby.
        for app, pilot, names in zip(apps, pilots, ([bob_name], [ann_name], [ann_name, bob_name]),
                                     strict=True):
            if isinstance(app.screen, EndScreen):
                await pilot.press("escape")
            await pilot.press("v")
            await until(lambda app=app: isinstance(app.screen, LogScreen)
                        and app.screen.query_one("#fulllog").lines, pilot)

            async def log(app=app, pilot=pilot, names=names) -> None:
                app.screen.query_one("#fulllog").scroll_home(animate=False)
                await pilot.pause()
                assert_shown(app, *(f": {n} —" for n in names))  # "— turn 2: Bob —"

            await at_both_sizes(app, pilot, log, both=app is eve_app)
            await pilot.press("escape", "e")
            await until(lambda app=app: isinstance(app.screen, SpiritsScreen), pilot)
            await pilot.press("escape", "q")
            await until(lambda app=app: isinstance(app.screen, LobbyScreen)
                        and app.lobby.rows and app.lobby.rows[0]["status"] == "over", pilot)

            async def lobby_again(app=app) -> None:
                assert ann_name in lobby_text(app)
                assert bob_name in lobby_text(app)

            await at_both_sizes(app, pilot, lobby_again, both=False)
        for app in apps:
            assert app.is_running and app.return_code is None
    assert spy.ran == []


# ---------------------------------------------------------------------- offline
def near_the_end(names: tuple[str, str], seed: int = 5) -> Session:
    """A hot-seat game between ``names`` a few decisions before its end."""
    setup = Setup(variant="firefly", seed=seed, seats=(PERSON, PERSON), names=names)
    full = Session(setup)
    rng = random.Random(seed)
    while not full.game.is_over:
        full.apply(rng.choice(full.game.legal_moves()))
    moves = full.moves()
    session = Session(setup)
    for move in moves[:-4]:
        session.apply(move)
    return session


@pytest.mark.parametrize("hostile, size", BOTH, ids=BOTH_IDS)
async def test_people_text_is_literal_offline(tmp_path, monkeypatch, hostile, size):
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(tmp_path / "data"))
    names = (hostile, "O" + hostile)
    saves.save(near_the_end(names))
    app = SolstisApp(resume=True, pace=0.0, hint_spec="random", review_effort=TINY,
                     review_workers=1)
    spy = Spy(app)
    rng = random.Random(1)
    async with app.run_test(size=size) as pilot:

        async def pass_screen() -> None:
            assert_shown(app, f"Pass the keyboard to {app.screen.player_name}.")
            await click_on(app, pilot, hostile)

        async def game_screen() -> None:
            assert_shown(app, *names)
            if wide(app):  # the sheet beside the board (a long name ends in "…" there)
                assert names[0][:12] in widget_text(app, "#sheet")
                assert names[1][:12] in widget_text(app, "#sheet")

        def settled() -> bool:
            """Another screen is up, or a person's decision waits on the game screen."""
            screen = app.screen
            if not isinstance(screen, GameScreen):
                return True
            return (screen.play.turns.pacing.pending is None and screen.view is not None
                    and screen.view.zone is not None)

        # The last decisions, each at one size: the size changes when a screen comes back
        # that was checked at this size only.
        checked: dict[str, set] = {"pass": set(), "game": set()}
        for _ in range(200):
            await until(settled, pilot)
            if isinstance(app.screen, EndScreen):
                break
            kind = "pass" if isinstance(app.screen, PassScreen) else "game"
            if checked[kind] == {app.size}:
                await flip(app, pilot)
            checked[kind].add(app.size)
            if isinstance(app.screen, PassScreen):
                await pass_screen()
                await pilot.press("s")
                continue
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await game_screen()
            await pilot.press(*keys_for(screen, rng))
        assert isinstance(app.screen, EndScreen)
        both = {Size(*size) for size in SIZES}
        assert checked == {"pass": both, "game": both}  # each screen at each size

        async def end() -> None:
            assert names[0] in widget_text(app, "#sheet")
            assert names[1] in widget_text(app, "#sheet")
            assert_shown(app, "Game over.")
            await click_on(app, pilot, hostile)

        await at_both_sizes(app, pilot, end)
        await pilot.press("escape", "v")
        await until(lambda: isinstance(app.screen, LogScreen)
                    and app.screen.query_one("#fulllog").lines, pilot)

        async def log() -> None:
            # A resize re-wraps the log after a first scroll: scroll again until it settles.
            fulllog = app.screen.query_one("#fulllog")

            def ends_shown() -> bool:
                fulllog.scroll_end(animate=False)
                return f"Game over: {names[0]}" in "\n".join(screen_lines(app))

            await until(ends_shown, pilot, timeout=10)
            assert_shown(app, f"Game over: {names[0]}")

        await at_both_sizes(app, pilot, log)
        await pilot.press("escape", "e")
        await until(lambda: isinstance(app.screen, SpiritsScreen), pilot)
        await pilot.press("escape", "r")
        await until(lambda: isinstance(app.screen, ReviewScreen), pilot)
        await app.workers.wait_for_complete()

        async def review() -> None:
            assert_shown(app, *names)
            await click_on(app, pilot, hostile)

        await at_both_sizes(app, pilot, review)
        await pilot.press("escape")
        assert app.is_running and app.return_code is None
    assert spy.ran == []


async def test_a_bot_error_with_brackets_is_shown_as_written(tmp_path, monkeypatch):
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(tmp_path / "data"))
    from solstis_tui.screens.boterror import BotErrorScreen

    app = SolstisApp(Setup(seed=3, seats=("tests.tui.bots:MarkupBot", PERSON)), pace=0.0,
                     hint_spec="random", autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(app.screen, BotErrorScreen), pilot)
        await pilot.pause()
        assert_shown(app, "[/x]", "[bold]blew[@click=app.quit]")


async def test_a_saved_game_with_brackets_is_offered_as_written(tmp_path, monkeypatch):
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(tmp_path / "data"))
    saves.save(near_the_end(("[/x]", "[bold]x")))
    path = saves.autosave_path()
    data = json.loads(path.read_text())
    data["names"] = ["[/x]", "[@click=app.quit]x"]  # a hand-edited save
    path.write_text(json.dumps(data))
    app = SolstisApp(offer_continue=True, pace=0.0, autosave=False)
    spy = Spy(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert_shown(app, "[/x] vs [@click=app.quit]x")
        assert await click_on(app, pilot, "[@click=app.quit]x")
        assert app.is_running and app.return_code is None
    assert spy.ran == []


async def test_a_seed_typed_with_brackets_is_quoted_as_written(tmp_path, monkeypatch):
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(tmp_path / "data"))
    from solstis_tui.screens.newgame import NewGameScreen

    app = SolstisApp(Setup(seed=3, seats=(PERSON, "random")), pace=0.0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await until(lambda: isinstance(app.screen, NewGameScreen), pilot)
        app.screen.query_one("#seed").focus()
        await pilot.press(*"[/x]", "enter")
        await pilot.pause()
        assert "not '[/x]'" in widget_text(app, "#error")
        assert isinstance(app.screen, NewGameScreen)


# ---------------------------------------------------------------------- the lobby race
async def test_the_lobby_lists_tables_that_arrive_before_it_is_mounted(host, connect,
                                                                        monkeypatch):
    """``solstis online --code`` with tables at the host: the welcome can come before the
    lobby's table has columns ("More values provided than there are columns")."""
    ann = await connect("Ann")
    for opponent in ("friend", "friend", "random"):  # within the host's limits per player
        await ann.send({"type": "create", "opponent": opponent, "seat": 0})  # Ann moves first
        await ann.receive_until("joined")
    code = ann.code
    await ann.send({"type": "list"})
    rows = (await ann.receive_until("tables"))["tables"]
    lobby = LobbyScreen(name_known=True)
    lobby.welcome("Ann", code)
    lobby.show_tables(rows)  # before the screen is mounted
    lobby.say("a message")

    class Holder(App):
        player_name = None

        def on_mount(self) -> None:
            self.push_screen(lobby)

    app = Holder()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert widget_text(app, "#tables").count("Ann") == 3
        assert_shown(app, "You are Ann.", "a message")
    # In a real terminal the welcome often lands after the lobby is composed but before it
    # is mounted; hold the mount until then to make that order certain.
    mount = LobbyScreen.on_mount
    app = OnlineApp(socket=host.socket_path, code=code)

    async def late_mount(screen: LobbyScreen) -> None:
        for _ in range(200):
            if app.player_name:
                break
            await asyncio.sleep(0.02)
        mount(screen)

    monkeypatch.setattr(LobbyScreen, "on_mount", late_mount)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.player_name == "Ann", pilot)
        await pilot.pause()
        assert widget_text(app, "#tables").count("Ann") == 3
        assert_shown(app, "You are Ann.")


async def test_escape_codes_from_the_wire_never_reach_the_terminal(host):
    """Even plain text would pass ESC to the terminal; what comes from the host is
    scrubbed of control characters (the host refuses them too, this is the second wall)."""
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(lambda: app.player_name == "Ann", pilot)
        seat = {"name": "Eve\x1b]0;owned\x07", "bot": None, "connected": True}
        app.on_host_message({"type": "tables", "tables": [
            {"table": "t1\x1b[2J", "variant": "base", "status": "open", "turn": 1,
             "seats": [seat, {}], "watchers": 0}]})
        app.on_host_message({"type": "chat", "table": "t1", "name": "Eve\x1b[31m",
                             "text": "hi\x9b2J"})
        await until(lambda: app.screen.query(Toast), pilot)
        app.on_host_message({"type": "error", "code": "x", "message": "bad\x1b[5m"})
        await pilot.pause(0.1)
        shown = "\n".join(screen_lines(app))
        assert not any(ch in shown for ch in "\x1b\x07\x9b")
        assert "Eve\ufffd]0;owned\ufffd" in lobby_text(app)
        assert_shown(app, "Eve\ufffd[31m: hi\ufffd2J", "bad\ufffd[5m")


async def test_a_taken_name_is_asked_again(host, connect):
    await connect("Ann Lee")
    app = OnlineApp(socket=host.socket_path, name="ANN\u200b LEE")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: "taken" in widget_text(app, "#lobby-error"), pilot)
        assert app.player_name is None
        assert app.screen.query_one("#name").display  # the name box is back
        await pilot.press(*"Ann Lee 2", "enter")
        await until(lambda: app.player_name == "Ann Lee 2", pilot)


# ---------------------------------------------------------------------- names
def test_names_are_nfc_and_lose_padding_and_invisible_characters():
    assert normalize_name("Zoe\u0301") == "Zoé"  # e + combining accent -> é
    assert normalize_name("Zoe\u200b\u0301") == "Zoé"
    assert normalize_name("  Ann\u00a0\u2003 Lee \u3000") == "Ann Lee"
    assert normalize_name("A\u200dn\u200cn\u2060\ufeff") == "Ann"
    assert normalize_name("\u202eAnn\u202c") == "Ann"  # right-to-left override
    assert normalize_name("\u2066Ann\u2069\u00ad") == "Ann"  # isolates, soft hyphen
    assert normalize_name("Ann\u3164\u2800") == "Ann"  # blank fillers
    assert normalize_name("x[/x]") == "x[/x]"  # brackets are fine: they are shown as text
    assert normalize_name("Renée Ünal") == "Renée Ünal"


@pytest.mark.parametrize("raw, reason", [
    ("Ann\x1b[31m", "control characters"),
    ("Ann\nBob", "control characters"),
    ("Ann\tBob", "control characters"),
    ("Ann\x7f", "control characters"),
    ("Ann\u2028", "separators"),
    ("Ann\ue000", "private-use"),
    ("\u200b\u200d \u00a0", "visible character"),
    ("", "visible character"),
    ("x" * (MAX_NAME + 1), f"at most {MAX_NAME}"),
])
def test_unusable_names_are_refused_with_a_reason(raw, reason):
    with pytest.raises(BadName, match=reason):
        normalize_name(raw)


def test_name_keys_ignore_case_invisibles_spacing_and_width():
    key = name_key("Ann Lee")
    for other in ["ann lee", "ANN LEE", "A\u200dnn Lee", "Ann  Lee", " Ann\u00a0Lee ",
                  "\u202eAnn Lee", "Ａｎｎ Ｌｅｅ", "ANN LEE\ufe0f"]:
        assert name_key(other) == key, other
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("Ann") != name_key("Anna")
    assert name_key("Ann B") != name_key("AnnB")


async def test_two_players_cannot_share_a_name_up_to_case_or_invisibles(host, connect):
    await connect("Ann Lee")
    for twin in ["ann lee", "ANN\u200b LEE", "\u202eAnn Lee\u2060", "Ann\u00a0 Lee "]:
        client = await connect(None)
        await client.send({"type": "hello", "version": VERSION, "name": twin})
        reply = await client.receive()
        assert reply["type"] == "error" and reply["code"] == "name_taken", reply
        assert "taken" in reply["message"]
    padded = await connect(None)
    await padded.send({"type": "hello", "version": VERSION, "name": "  Bo\u200bb\u00a0 "})
    welcome = await padded.receive()
    assert welcome["type"] == "welcome" and welcome["name"] == "Bob"
    bad = await connect(None)
    await bad.send({"type": "hello", "version": VERSION, "name": "Eve\x1b[2J"})
    reply = await bad.receive()
    assert reply["code"] == "bad_name" and "control characters" in reply["message"]
    assert sorted(host.players.values()) == ["Ann Lee", "Bob"]
